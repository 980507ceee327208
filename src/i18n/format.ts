import type { Lang } from '../sites/types.ts';

const locales: Record<Lang, string> = { fi: 'fi-FI', sv: 'sv-FI', en: 'en-GB' };

/** Integer cents as the visitor reads money: '12,90 €' (a decimal comma in every language here). */
export function formatPrice(cents: number, symbol = '€'): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  const euros = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  return `${sign}${euros},${String(abs % 100).padStart(2, '0')}\u00a0${symbol}`;
}

/** Minutes as hours and minutes: 75 → '1h 15min', 45 → '45min', 120 → '2h'. */
export function formatDuration(minutes: number): string {
  const total = Math.max(0, Math.round(minutes));
  const h = Math.floor(total / 60);
  const m = total % 60;
  if (h === 0) return `${m}min`;
  return m === 0 ? `${h}h` : `${h}h ${m}min`;
}

/**
 * Formatters are costly to make (an `Intl` object reads locale data) and cheap to reuse: each
 * locale and option set is made once, on first use.
 */
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

export function formatDate(date: Date | string, lang: Lang): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(locales[lang], {
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
      timeZone: 'Europe/Helsinki',
    });
    dateFormats.set(lang, format);
  }
  return format.format(typeof date === 'string' ? new Date(date) : date);
}

export function formatNumber(value: number, lang: Lang, maximumFractionDigits = 1): string {
  const key = `${lang}:${maximumFractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locales[lang], { maximumFractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}
