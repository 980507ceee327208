/**
 * Money, percentages and counts as shop staff type and read them in the back office's shop
 * screens. Money is integer cents everywhere else; here it is euros with a decimal comma.
 */

/** Euros as staff type them (`12,50`, `12`, `12.50`, `1 234,5 €`) in cents, or null. */
export function eurosToCents(text: string): number | null {
  const plain = text.replace(/[\s\u00a0€]/g, '');
  const match = /^(\d{1,7})(?:[,.](\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** Cents as a field's euros, with a decimal comma and no symbol: 1250 → `12,50`. */
export function centsToEuros(cents: number | null): string {
  if (cents === null) return '';
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** A whole number typed into a field (`12`, ` 7 `) from 0 to `max`, or null. */
export function wholeNumber(text: string, max = 1_000_000): number | null {
  const plain = text.replace(/[\s\u00a0]/g, '');
  if (!/^\d{1,8}$/.test(plain)) return null;
  const n = Number(plain);
  return n <= max ? n : null;
}

export const LOCALES = { fi: 'fi-FI', sv: 'sv-FI', en: 'en-GB' } as const;

/** Basis points as a percentage in a language: 2550 → `25,5 %`. */
export function percentText(basisPoints: number, lang: keyof typeof LOCALES): string {
  return new Intl.NumberFormat(LOCALES[lang], {
    style: 'percent',
    maximumFractionDigits: 2,
  }).format(basisPoints / 10_000);
}

/** The names of the weekdays, Monday first, as a language writes them (`ma` or `maanantai`). */
export function weekdayNames(lang: keyof typeof LOCALES, width: 'short' | 'long'): string[] {
  const format = new Intl.DateTimeFormat(LOCALES[lang], { weekday: width, timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return [1, 2, 3, 4, 5, 6, 7].map((day) => format.format(new Date(Date.UTC(2024, 0, day, 12))));
}
