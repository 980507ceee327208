import { describe, expect, it } from 'vitest';
import { MAP_OUTLINES, MAP_VIEW, onMap, project } from './map-outline.ts';

describe('the drawn map', () => {
  it('projects the corners of the drawn area onto the view box', () => {
    expect(project(70.5, 10.5)).toEqual({ x: 0, y: 0 });
    const corner = project(54.8, 32);
    expect(Math.abs(corner.x - MAP_VIEW.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(corner.y - MAP_VIEW.height)).toBeLessThanOrEqual(1);
  });

  it('puts Helsinki east of Stockholm and south of Oulu; leaves Berlin off the map', () => {
    const helsinki = project(60.17, 24.94);
    const stockholm = project(59.33, 18.07);
    const oulu = project(65.01, 25.47);
    expect(helsinki.x).toBeGreaterThan(stockholm.x);
    expect(helsinki.y).toBeGreaterThan(oulu.y);
    expect(onMap(60.17, 24.94)).toBe(true);
    expect(onMap(52.52, 13.4)).toBe(false);
  });

  it('draws both countries as closed paths inside the view box', () => {
    expect(MAP_OUTLINES).toHaveLength(2);
    for (const d of MAP_OUTLINES) {
      expect(d).toMatch(/^M[\d.]+ [\d.]+( L[\d.]+ [\d.]+)+ Z$/);
      const numbers = d.match(/[\d.]+/g)?.map(Number) ?? [];
      for (const n of numbers)
        expect(n).toBeLessThanOrEqual(Math.max(MAP_VIEW.width, MAP_VIEW.height));
    }
  });
});
