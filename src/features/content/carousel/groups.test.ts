import { describe, expect, it } from 'vitest';
import {
  arrows,
  cardsPerView,
  logosPerView,
  nextFirst,
  previousFirst,
  repeatToAtLeast,
} from './groups.ts';

describe('card carousel groups', () => {
  it('shows 1 card on small screens, 3 on medium, else the configured count (default 4, fallback 5)', () => {
    expect(cardsPerView(375, 6)).toBe(1);
    expect(cardsPerView(767)).toBe(1);
    expect(cardsPerView(768, 6)).toBe(3);
    expect(cardsPerView(1023)).toBe(3);
    expect(cardsPerView(1280)).toBe(4);
    expect(cardsPerView(1280, 6)).toBe(6);
    expect(cardsPerView(1280, 0)).toBe(5);
    expect(cardsPerView(1280, Number.NaN)).toBe(5);
  });

  it('moves one group per arrow; the arrows show when moved and while more remain', () => {
    // Ten cards, four at a time: 0–3, 4–7, then the last four 6–9.
    expect(arrows(0, 4, 10)).toEqual({ previous: false, next: true });
    expect(nextFirst(0, 4, 10)).toBe(4);
    expect(arrows(4, 4, 10)).toEqual({ previous: true, next: true });
    expect(nextFirst(4, 4, 10)).toBe(6);
    expect(arrows(6, 4, 10)).toEqual({ previous: true, next: false });
    expect(previousFirst(6, 4)).toBe(2);
    expect(previousFirst(2, 4)).toBe(0);
    expect(arrows(0, 4, 3)).toEqual({ previous: false, next: false });
  });

  it('repeats brand logos until at least 21, and fits 130 px logos in a row', () => {
    expect(repeatToAtLeast([1, 2, 3, 4, 5], 21)).toHaveLength(25);
    expect(repeatToAtLeast([1, 2, 3, 4, 5], 21).slice(5, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(
      repeatToAtLeast(
        Array.from({ length: 30 }, (_, i) => i),
        21,
      ),
    ).toHaveLength(30);
    expect(repeatToAtLeast([], 21)).toEqual([]);
    expect(logosPerView(146 * 8 - 16)).toBe(8);
    expect(logosPerView(100)).toBe(1);
  });
});
