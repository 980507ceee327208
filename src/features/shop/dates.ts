/** Calendar dates of the shop: the shop runs on Helsinki time (order cut-offs, VAT dates). */

export const SHOP_TIME_ZONE = 'Europe/Helsinki';

const isoDate = new Intl.DateTimeFormat('en-CA', {
  timeZone: SHOP_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const clock = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The Helsinki calendar date of an instant: `2026-03-02`. */
export function helsinkiDate(instant: Date): string {
  return isoDate.format(instant);
}

/** The Helsinki wall-clock time of an instant: `09:05`. */
export function helsinkiTime(instant: Date): string {
  return clock.format(instant);
}

/** `2026-03-02` plus `days` days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export function weekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/**
 * The instant a Helsinki calendar date begins (00:00 there): `2026-03-02` → 2026-03-01T22:00Z.
 * Helsinki is two or three hours ahead of UTC, and its clocks never change at midnight.
 */
export function helsinkiStartOfDay(date: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  for (const hours of [2, 3]) {
    const at = new Date(utcMidnight - hours * 3_600_000);
    if (helsinkiDate(at) === date && helsinkiTime(at) === '00:00') return at;
  }
  throw new RangeError(`not a calendar date: ${date}`);
}
