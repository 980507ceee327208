import { describe, expect, it } from 'vitest';
import {
  autoColumns,
  columnsAt,
  columnsByTier,
  columnsOfTemplate,
  hasMoreRows,
  INITIAL_ROWS,
  rowCount,
  visibleCount,
} from './layout.ts';

describe('card grid columns', () => {
  it('follow the screen without a setting: 4 large, 3 medium, 2 small, 1 extra small', () => {
    expect([200, 279, 280, 375, 376, 767, 768, 1023, 1024, 1280, 1536].map(autoColumns)).toEqual([
      1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 4,
    ]);
  });

  it('take the block’s 2, 3 or 4 as the most a screen shows', () => {
    expect(columnsAt(1280, 2)).toBe(2);
    expect(columnsAt(1280, 3)).toBe(3);
    expect(columnsAt(1280, 4)).toBe(4);
    expect(columnsAt(900, 4)).toBe(3);
    expect(columnsAt(900, 2)).toBe(2);
    expect(columnsAt(375, 4)).toBe(1);
    expect(columnsAt(500, 3)).toBe(2);
  });

  it('by tier, as the server writes them into CSS', () => {
    expect(columnsByTier()).toEqual({ xs: 1, sm: 2, md: 3, lg: 4 });
    expect(columnsByTier(3)).toEqual({ xs: 1, sm: 2, md: 3, lg: 3 });
    expect(columnsByTier(2)).toEqual({ xs: 1, sm: 2, md: 2, lg: 2 });
  });

  it('are read from the computed grid template', () => {
    expect(columnsOfTemplate('289px 289px 289px 289px')).toBe(4);
    expect(columnsOfTemplate('343px')).toBe(1);
    expect(columnsOfTemplate('none')).toBeUndefined();
    expect(columnsOfTemplate('')).toBeUndefined();
    expect(columnsOfTemplate('repeat(4, 1fr)')).toBeUndefined();
  });
});

describe('card grid rows', () => {
  it('show two rows at first', () => {
    expect(INITIAL_ROWS).toBe(2);
    expect(visibleCount(INITIAL_ROWS, 4, 16)).toBe(8);
    expect(visibleCount(INITIAL_ROWS, 1, 16)).toBe(2);
    expect(visibleCount(INITIAL_ROWS, 4, 5)).toBe(5);
  });

  it('reveal one row of the current columns at a time until all show', () => {
    const seen: number[] = [];
    for (let rows = INITIAL_ROWS; hasMoreRows(rows - 1, 3, 10); rows++) {
      seen.push(visibleCount(rows, 3, 10));
    }
    expect(seen).toEqual([6, 9, 10]);
    expect(hasMoreRows(3, 3, 10)).toBe(true);
    expect(hasMoreRows(4, 3, 10)).toBe(false);
    expect(rowCount(10, 3)).toBe(4);
    expect(rowCount(0, 3)).toBe(0);
    expect(visibleCount(Number.POSITIVE_INFINITY, 2, 7)).toBe(7);
  });
});
