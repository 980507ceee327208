/** `%text%` for `ilike`: the text found anywhere, its own `%`, `_` and `\` taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
