import { describe, expect, it } from 'vitest';
import { isPresetName, presetSize, resolvePreset, slugify } from './presets.ts';
import { negotiateFormat } from './variants.server.ts';

describe('presetSize', () => {
  it('gives cover and contain presets their exact box', () => {
    expect(presetSize('three-by-two-crop', { width: 1200, height: 1200 })).toEqual({
      width: 900,
      height: 600,
    });
    expect(presetSize('product-thumbnail-medium', { width: 900, height: 1200 })).toEqual({
      width: 160,
      height: 160,
    });
  });

  it('keeps the ratio in width presets and never enlarges', () => {
    expect(presetSize('default', { width: 1920, height: 800 })).toEqual({
      width: 1200,
      height: 500,
    });
    expect(presetSize('small', { width: 900, height: 1200 })).toEqual({ width: 400, height: 533 });
    expect(presetSize('default', { width: 640, height: 480 })).toEqual({ width: 640, height: 480 });
  });
});

describe('preset names', () => {
  it('knows the spec’s presets and falls back to default for others', () => {
    for (const name of ['default', 'third', 'three-by-two-crop', 'small', 'thumbnail-medium']) {
      expect(isPresetName(name)).toBe(true);
    }
    expect(isPresetName('toString')).toBe(false);
    expect(resolvePreset('constructor')).toBe('default');
  });
});

describe('slugify', () => {
  it('makes a readable ASCII slug of Finnish and Swedish names', () => {
    expect(slugify('Kananpojan Fileesuikale, Hunaja-Chili 300 g')).toBe(
      'kananpojan-fileesuikale-hunaja-chili-300-g',
    );
    expect(slugify('Äppelmos & Köttbullar – Smörgås')).toBe('appelmos-kottbullar-smorgas');
    expect(slugify('   ')).toBe('');
  });
});

describe('negotiateFormat', () => {
  it.each([
    ['image/avif,image/webp,image/apng,*/*;q=0.8', 'avif'],
    ['image/webp,image/avif,image/jxl,image/heic,*/*;q=0.8', 'avif'],
    ['image/webp,*/*', 'webp'],
    ['IMAGE/WEBP; q=0.5', 'webp'],
    ['image/avif;q=0, image/webp;q=0', 'jpeg'],
    ['image/*,*/*;q=0.8', 'jpeg'],
    [undefined, 'jpeg'],
  ] as const)('%j → %s', (accept, format) => {
    expect(negotiateFormat(accept)).toBe(format);
  });
});
