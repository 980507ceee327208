import { describe, expect, it } from 'vitest';
import { dragMoves, EDGE_SCROLL_MAX_PX, EDGE_SCROLL_ZONE_PX, edgeScroll } from './drag.ts';
import { isoWeekOf, mondayOf, stepWeek, weekBounds, weeksInYear, weekWithin } from './values.ts';

/** ISO weeks, the menu's week bounds (spec §9: to 31 December) and the drag thresholds. */

const dateOf = (days: number) => new Date(days * 86_400_000).toISOString().slice(0, 10);

describe('ISO weeks', () => {
  it('numbers dates as ISO 8601 does, across the turn of the year', () => {
    expect(isoWeekOf(2026, 1, 1)).toEqual({ year: 2026, week: 1 });
    expect(isoWeekOf(2026, 11, 24)).toEqual({ year: 2026, week: 48 });
    expect(isoWeekOf(2026, 12, 31)).toEqual({ year: 2026, week: 53 });
    expect(isoWeekOf(2027, 1, 3)).toEqual({ year: 2026, week: 53 });
    expect(isoWeekOf(2024, 12, 30)).toEqual({ year: 2025, week: 1 });
    expect(isoWeekOf(2021, 1, 3)).toEqual({ year: 2020, week: 53 });
  });

  it('finds a week’s Monday, the weeks of a year, and steps', () => {
    expect(dateOf(mondayOf({ year: 2026, week: 48 }))).toBe('2026-11-23');
    expect(dateOf(mondayOf({ year: 2025, week: 1 }))).toBe('2024-12-30');
    expect(weeksInYear(2026)).toBe(53);
    expect(weeksInYear(2027)).toBe(52);
    expect(stepWeek({ year: 2026, week: 53 }, 1)).toEqual({ year: 2027, week: 1 });
    expect(stepWeek({ year: 2027, week: 1 }, -1)).toEqual({ year: 2026, week: 53 });
  });
});

describe('the weeks a menu may hold', () => {
  it('run from this week (Helsinki) to the week of 31 December', () => {
    const bounds = weekBounds(new Date('2026-11-24T10:00:00Z'));
    expect(bounds).toEqual({ first: { year: 2026, week: 48 }, last: { year: 2026, week: 53 } });
    expect(weekWithin({ year: 2026, week: 53 }, bounds)).toBe(true);
    expect(weekWithin({ year: 2027, week: 1 }, bounds)).toBe(false);
    expect(weekWithin({ year: 2026, week: 47 }, bounds)).toBe(false);
  });

  it('use Helsinki’s date, not the server’s: 22.30 UTC on Sunday is Monday there', () => {
    expect(weekBounds(new Date('2026-11-29T22:30:00Z')).first).toEqual({ year: 2026, week: 49 });
  });

  it('hold the last week when 31 December falls in week 1 of the next year', () => {
    const bounds = weekBounds(new Date('2024-12-30T12:00:00Z'));
    expect(bounds).toEqual({ first: { year: 2025, week: 1 }, last: { year: 2025, week: 1 } });
  });
});

describe('a drag moves its card', () => {
  it('only beyond 50 px and 200 ms together', () => {
    expect(dragMoves(51, 201)).toBe(true);
    expect(dragMoves(50, 500)).toBe(false);
    expect(dragMoves(300, 200)).toBe(false);
    expect(dragMoves(30, 1000)).toBe(false);
  });

  it('scrolls the window while held near its top or bottom edge, faster nearer it', () => {
    // A window of 800 px with a 100 px header at the top.
    expect(edgeScroll(400, 100, 800)).toBe(0);
    expect(edgeScroll(800 - EDGE_SCROLL_ZONE_PX, 100, 800)).toBe(0);
    const near = edgeScroll(800 - EDGE_SCROLL_ZONE_PX / 2, 100, 800);
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(EDGE_SCROLL_MAX_PX);
    expect(edgeScroll(799, 100, 800)).toBeGreaterThan(near);
    expect(edgeScroll(900, 100, 800)).toBe(EDGE_SCROLL_MAX_PX);
    expect(edgeScroll(100 + EDGE_SCROLL_ZONE_PX / 2, 100, 800)).toBe(-near);
    expect(edgeScroll(50, 100, 800)).toBe(-EDGE_SCROLL_MAX_PX);
  });
});
