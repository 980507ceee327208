import { describe, expect, it } from 'vitest';
import { formatDate, formatDuration, formatPrice } from './format.ts';

describe('formatPrice', () => {
  it.each([
    [1290, '12,90\u00a0€'],
    [5, '0,05\u00a0€'],
    [0, '0,00\u00a0€'],
    [123456789, '1\u00a0234\u00a0567,89\u00a0€'],
    [-250, '-2,50\u00a0€'],
  ])('%i cents → %s', (cents, text) => {
    expect(formatPrice(cents)).toBe(text);
  });
});

describe('formatDuration', () => {
  it.each([
    [75, '1h 15min'],
    [45, '45min'],
    [120, '2h'],
    [0, '0min'],
    [61, '1h 1min'],
  ])('%i minutes → %s', (minutes, text) => {
    expect(formatDuration(minutes)).toBe(text);
  });
});

describe('formatDate', () => {
  it('writes dates the local way in Helsinki time', () => {
    expect(formatDate('2026-03-04T23:30:00Z', 'fi')).toBe('5.3.2026');
    expect(formatDate('2026-03-04T10:00:00Z', 'en')).toBe('04/03/2026');
  });
});
