/**
 * CSV for a spreadsheet as Finnish Excel opens it: UTF-8 with a byte-order mark, `;` between
 * cells, CRLF between rows. Used by the back office's exports.
 */

/**
 * One cell: quoted when it holds a `;`, a quote or a line break (quotes doubled), and a value a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first)
 * behind an apostrophe, so that it stays text. Arrays are joined with commas, objects as JSON.
 */
export function csvCell(value: unknown): string {
  let text = Array.isArray(value)
    ? value.map(String).join(', ')
    : value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows of cells as the file's text, byte-order mark first. */
export function csvText(rows: readonly (readonly unknown[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(';')).join('\r\n')}\r\n`;
}
