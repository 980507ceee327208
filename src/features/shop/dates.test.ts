import { describe, expect, it } from 'vitest';
import { addDays, helsinkiDate, helsinkiStartOfDay } from './dates.ts';

describe('helsinkiStartOfDay', () => {
  it('is midnight in Helsinki, in winter and in summer time', () => {
    expect(helsinkiStartOfDay('2026-01-15').toISOString()).toBe('2026-01-14T22:00:00.000Z');
    expect(helsinkiStartOfDay('2026-07-01').toISOString()).toBe('2026-06-30T21:00:00.000Z');
  });

  it('holds on the days the clocks change', () => {
    for (const date of ['2026-03-29', '2026-03-30', '2026-10-25', '2026-10-26']) {
      const start = helsinkiStartOfDay(date);
      expect(helsinkiDate(start)).toBe(date);
      expect(helsinkiDate(new Date(start.getTime() - 1))).toBe(addDays(date, -1));
    }
  });

  it('refuses what is no date', () => {
    expect(() => helsinkiStartOfDay('2026-02-30x')).toThrow(RangeError);
  });
});
