import { describe, expect, it } from 'vitest';
import { endOfFinnishDay, finnishDay } from './job-dates.ts';

describe('a job listing’s last day to apply', () => {
  it('ends at the last second of the day in Finland, in winter and in summer time', () => {
    expect(endOfFinnishDay('2026-01-15')).toBe('2026-01-15T21:59:59.000Z');
    expect(endOfFinnishDay('2026-07-15')).toBe('2026-07-15T20:59:59.000Z');
    // The days the clocks turn: summer time has begun by the evening, and ended.
    expect(endOfFinnishDay('2026-03-29')).toBe('2026-03-29T20:59:59.000Z');
    expect(endOfFinnishDay('2026-10-25')).toBe('2026-10-25T21:59:59.000Z');
  });

  it('reads back as the same day, and nothing else is a day', () => {
    for (const day of ['2026-01-15', '2026-07-15', '2026-03-29', '2026-10-25', '2027-12-31']) {
      expect(finnishDay(endOfFinnishDay(day) ?? '')).toBe(day);
    }
    expect(finnishDay('2026-06-30T21:30:00.000Z')).toBe('2026-07-01');
    expect(endOfFinnishDay('15.1.2026')).toBeNull();
    expect(finnishDay('ei päivä')).toBe('');
  });
});
