import { describe, expect, it } from 'vitest';
import { sites } from '../../sites/registry.ts';
import { initialGlyph, letterGlyph } from './letter-glyphs.ts';

describe('the logo letters', () => {
  it('draws the initial of every site', () => {
    for (const site of sites) {
      expect(initialGlyph(site.name), site.id).toMatch(/^M/);
    }
  });

  it('draws no letter it does not know, nor anything from the object prototype', () => {
    expect(letterGlyph('Ø')).toBeUndefined();
    expect(letterGlyph('toString')).toBeUndefined();
    expect(letterGlyph('')).toBeUndefined();
  });
});
