import { describe, expect, it } from 'vitest';
import {
  acceptPortionValue,
  formatAmount,
  netTotalKg,
  orderedIngredients,
  portionsFromQuery,
  scaledAmount,
  scaleFactor,
  stepPortions,
} from './portions.ts';

// A Finnish food-service recipe: 50 portions of 200 g; it yields 9.5 kg in all (0.5 kg less
// than 50 × 200 g: what cooking loses).
const finnish = { yield: 50, portionSize: 200, totalYieldKg: 9.5 };
// A Swedish one: 20 portions of 150 g, no total yield.
const swedish = { yield: 20, portionSize: 150, totalYieldKg: null };

describe('portion calculator, Finnish rules', () => {
  it('scales by count × size over the default and shows three decimals with a comma', () => {
    // 60 × 250 g = 15 000 g over 50 × 200 g = 10 000 g: factor 1.5.
    const portions = { count: 60, size: 250 };
    expect(scaleFactor(finnish, portions)).toBe(1.5);
    expect(formatAmount(scaledAmount(2.5, finnish, portions) ?? Number.NaN, 'fi')).toBe('3,750');
    // 0.3 kg × 1.5 = 0.45 kg.
    expect(formatAmount(scaledAmount(0.3, finnish, portions) ?? Number.NaN, 'fi')).toBe('0,450');
    // 7 portions of 200 g: factor 0.14; 1 kg → 0.14 kg.
    expect(formatAmount(scaledAmount(1, finnish, { count: 7, size: 200 }) ?? 0, 'fi')).toBe(
      '0,140',
    );
  });

  it('shows the default amounts unchanged at the default portions', () => {
    expect(formatAmount(scaledAmount(2.5, finnish, { count: 50, size: 200 }) ?? 0, 'fi')).toBe(
      '2,500',
    );
  });

  it('net total = count × size plus the fixed difference of the total yield', () => {
    // 60 × 250 g = 15 kg, plus (9.5 kg − 50 × 200 g = −0.5 kg) = 14.5 kg.
    expect(netTotalKg(finnish, { count: 60, size: 250 })).toBeCloseTo(14.5, 10);
    expect(formatAmount(netTotalKg(finnish, { count: 60, size: 250 }) ?? 0, 'fi')).toBe('14,500');
    // At the default the net total is the total yield.
    expect(netTotalKg(finnish, { count: 50, size: 200 })).toBeCloseTo(9.5, 10);
    // 1 × 10 g = 0.01 kg − 0.5 kg = −0.49 kg.
    expect(formatAmount(netTotalKg(finnish, { count: 1, size: 10 }) ?? 0, 'fi')).toBe('-0,490');
    expect(netTotalKg({ ...finnish, totalYieldKg: null }, { count: 1, size: 10 })).toBeNull();
  });

  it('steps the count by 1 and the size by 10, without bounds', () => {
    let p = { count: 50, size: 200 };
    p = stepPortions('fi', p, 'count', 1);
    expect(p).toEqual({ count: 51, size: 200 });
    p = stepPortions('fi', p, 'size', 1);
    expect(p).toEqual({ count: 51, size: 210 });
    p = stepPortions('fi', p, 'size', -1);
    p = stepPortions('fi', p, 'size', -1);
    expect(p).toEqual({ count: 51, size: 190 });
    // No bounds: 1 portion steps to 0 and below, 2000 portions are accepted.
    expect(stepPortions('fi', { count: 1, size: 200 }, 'count', -1).count).toBe(0);
    expect(stepPortions('fi', { count: 0, size: 200 }, 'count', -1).count).toBe(-1);
    expect(acceptPortionValue('fi', 'count', 50, 2000)).toBe(2000);
    expect(acceptPortionValue('fi', 'size', 200, 5)).toBe(5);
    expect(acceptPortionValue('fi', 'size', 200, Number.NaN)).toBe(200);
  });

  it('hides amounts of zero or less', () => {
    expect(scaledAmount(0, finnish, { count: 60, size: 250 })).toBeNull();
    expect(scaledAmount(-1, finnish, { count: 60, size: 250 })).toBeNull();
    expect(scaledAmount(null, finnish, { count: 60, size: 250 })).toBeNull();
  });
});

describe('portion calculator, Swedish rules', () => {
  it('scales by count × size over the default and shows one decimal', () => {
    // 40 × 300 g = 12 000 g over 20 × 150 g = 3 000 g: factor 4; 1.25 kg → 5.0 kg.
    expect(formatAmount(scaledAmount(1.25, swedish, { count: 40, size: 300 }) ?? 0, 'sv')).toBe(
      '5,0',
    );
    // 1000 × 650 g over 3 000 g: factor 216.67; 1.2 kg → 260.0 kg.
    expect(formatAmount(scaledAmount(1.2, swedish, { count: 1000, size: 650 }) ?? 0, 'sv')).toBe(
      '260,0',
    );
    // 3 × 150 g over 3 000 g: factor 0.15; 0.5 dl → 0.075 → 0.1 (one decimal).
    expect(formatAmount(scaledAmount(0.5, swedish, { count: 3, size: 150 }) ?? 0, 'sv')).toBe(
      '0,1',
    );
  });

  it('accepts portions 1–1000 and size 150–650 and ignores values outside', () => {
    expect(acceptPortionValue('sv', 'count', 20, 1)).toBe(1);
    expect(acceptPortionValue('sv', 'count', 20, 1000)).toBe(1000);
    expect(acceptPortionValue('sv', 'count', 20, 0)).toBe(20);
    expect(acceptPortionValue('sv', 'count', 20, 1001)).toBe(20);
    expect(acceptPortionValue('sv', 'size', 150, 650)).toBe(650);
    expect(acceptPortionValue('sv', 'size', 200, 140)).toBe(200);
    expect(acceptPortionValue('sv', 'size', 200, 660)).toBe(200);
    expect(acceptPortionValue('sv', 'size', 200, 155.5)).toBe(200);
  });

  it('steps within the limits and stays at the edge', () => {
    expect(stepPortions('sv', { count: 1, size: 150 }, 'count', -1)).toEqual({
      count: 1,
      size: 150,
    });
    expect(stepPortions('sv', { count: 1, size: 150 }, 'size', -1)).toEqual({
      count: 1,
      size: 150,
    });
    expect(stepPortions('sv', { count: 999, size: 640 }, 'count', 1).count).toBe(1000);
    expect(stepPortions('sv', { count: 1000, size: 640 }, 'count', 1).count).toBe(1000);
    expect(stepPortions('sv', { count: 10, size: 640 }, 'size', 1).size).toBe(650);
    expect(stepPortions('sv', { count: 10, size: 650 }, 'size', 1).size).toBe(650);
  });

  it('lists ingredients in their order', () => {
    const list = [
      { name: 'c', order: 3 },
      { name: 'a', order: 1 },
      { name: 'x' },
      { name: 'b', order: 2 },
    ];
    expect(orderedIngredients('sv', list).map((i) => i.name)).toEqual(['a', 'b', 'c', 'x']);
    expect(orderedIngredients('fi', list).map((i) => i.name)).toEqual(['c', 'a', 'x', 'b']);
  });
});

describe('the plain GET form (no script): portions from the query', () => {
  it('takes count and size under Finnish rules, without bounds, a comma as a decimal point', () => {
    expect(portionsFromQuery('fi', finnish, { count: '60', size: '250' })).toEqual({
      count: 60,
      size: 250,
    });
    expect(portionsFromQuery('fi', finnish, { count: '2000', size: '12,5' })).toEqual({
      count: 2000,
      size: 12.5,
    });
  });

  it('keeps the recipe’s own portions for a missing, empty, malformed or long value', () => {
    const own = { count: 50, size: 200 };
    expect(portionsFromQuery('fi', finnish, {})).toEqual(own);
    expect(portionsFromQuery('fi', finnish, undefined)).toEqual(own);
    expect(portionsFromQuery('fi', finnish, { count: '', size: ' ' })).toEqual(own);
    expect(portionsFromQuery('fi', finnish, { count: 'abc', size: ['300'] })).toEqual(own);
    expect(portionsFromQuery('fi', finnish, { count: '1'.repeat(13) })).toEqual(own);
    expect(portionsFromQuery('fi', finnish, { count: 'Infinity' })).toEqual(own);
  });

  it('ignores values outside the Swedish limits, field by field', () => {
    expect(portionsFromQuery('sv', swedish, { count: '40', size: '300' })).toEqual({
      count: 40,
      size: 300,
    });
    expect(portionsFromQuery('sv', swedish, { count: '1001', size: '300' })).toEqual({
      count: 20,
      size: 300,
    });
    expect(portionsFromQuery('sv', swedish, { count: '40', size: '140' })).toEqual({
      count: 40,
      size: 150,
    });
    expect(portionsFromQuery('sv', swedish, { count: '2.5' })).toEqual({ count: 20, size: 150 });
  });
});
