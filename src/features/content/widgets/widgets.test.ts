import { describe, expect, it } from 'vitest';
import { COUNT_DURATION_MS, COUNT_STEPS_PER_SECOND, countAt } from './media.tsx';
import { windowStart } from './timeline.tsx';

describe('timeline window', () => {
  it('centres the current year and stays inside the list', () => {
    // 20 years, a window of 5: the 11th year (index 10) shows indexes 8–12.
    expect(windowStart(10, 5, 20)).toBe(8);
    expect(windowStart(0, 5, 20)).toBe(0);
    expect(windowStart(1, 5, 20)).toBe(0);
    expect(windowStart(19, 5, 20)).toBe(15);
    expect(windowStart(18, 5, 20)).toBe(15);
    expect(windowStart(2, 5, 3)).toBe(0);
  });
});

describe('number animation', () => {
  it('counts from 0 to the value in 2 s at about 60 steps a second', () => {
    expect(COUNT_DURATION_MS).toBe(2000);
    expect(COUNT_STEPS_PER_SECOND).toBe(60);
    expect(countAt(6800, 0)).toBe(0);
    expect(countAt(6800, 500)).toBe(1700);
    expect(countAt(6800, 1000)).toBe(3400);
    expect(countAt(6800, 1999)).toBe(6796);
    expect(countAt(6800, 2000)).toBe(6800);
    expect(countAt(6800, 2600)).toBe(6800);
    expect(countAt(14, 1000)).toBe(7);
  });
});
