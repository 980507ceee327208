import { describe, expect, it } from 'vitest';
import { hashString, Random } from './random.ts';
import { eanCheckDigit, formatWeight, gtin13, slugify } from './text.ts';

describe('seed helpers', () => {
  it('makes ASCII slugs of Finnish and Swedish names', () => {
    expect(slugify('Broilerin fileesuikaleet hunajamarinoitu 400 g')).toBe(
      'broilerin-fileesuikaleet-hunajamarinoitu-400-g',
    );
    expect(slugify('Köttbullar med potatismos')).toBe('kottbullar-med-potatismos');
    expect(slugify('Kåldolmar & lingon')).toBe('kaldolmar-lingon');
    expect(slugify('Naudan entrecôte 2,5 kg')).toBe('naudan-entrecote-2-5-kg');
    expect(slugify('Biff à la Lindström')).toBe('biff-a-la-lindstrom');
  });

  it('writes pack sizes the way each language does', () => {
    expect(formatWeight('fi', 400)).toBe('400 g');
    expect(formatWeight('fi', 2500)).toBe('2,5 kg');
    expect(formatWeight('sv', 1000)).toBe('1 kg');
    expect(formatWeight('en', 2500)).toBe('2.5 kg');
  });

  it('computes EAN-13 check digits', () => {
    // 4006381333931 is the example of the EAN-13 article; 6410405082657 a Finnish pack.
    expect(eanCheckDigit('400638133393')).toBe(1);
    expect(eanCheckDigit('641040508265')).toBe(7);
    const gtin = gtin13('64', '10300', 42);
    expect(gtin).toMatch(/^\d{13}$/);
    expect(Number(gtin[12])).toBe(eanCheckDigit(gtin.slice(0, 12)));
  });

  it('repeats its random numbers for a seed, and forks independent streams', () => {
    const a = new Random('kattaus');
    const b = new Random('kattaus');
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(new Random('other').next()).not.toBe(first[0]);
    const root = new Random(hashString('root'));
    expect(root.fork('x').int(0, 1_000_000)).toBe(
      new Random(hashString('root')).fork('x').int(0, 1_000_000),
    );
    for (let i = 0; i < 1000; i++) {
      const n = a.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
    }
  });
});
