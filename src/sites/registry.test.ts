import { describe, expect, it } from 'vitest';
import { getSite, siteLogo, sites } from './registry.ts';
import type { Site, ThemeTokens } from './types.ts';

const SPEC_IDS = [
  'lihakauppa',
  'jyvabroiler',
  'export',
  'ammattilaiset',
  'foodservicese',
  'delise',
  'ridderheimsse',
  'mestariforsmanfi',
  'lithellsse',
  'lonnebergase',
  'goohse',
  'sibylla',
  'konsernifi',
  'koncernse',
];

const SWEDISH_SITES = [
  'foodservicese',
  'delise',
  'ridderheimsse',
  'lithellsse',
  'lonnebergase',
  'goohse',
  'koncernse',
];

const allSites: readonly Site[] = sites;

function site(id: string): Site {
  const found = getSite(id);
  if (!found) throw new Error(`no site ${id}`);
  return found;
}

describe('the fourteen sites', () => {
  it('are exactly the spec’s ids, each once', () => {
    const ids = allSites.map((s) => s.id);
    expect(ids).toHaveLength(14);
    expect(new Set(ids).size).toBe(14);
    expect([...ids].sort()).toEqual([...SPEC_IDS].sort());
  });

  it('are all found by getSite, and nothing else is', () => {
    for (const id of SPEC_IDS) expect(getSite(id)?.id).toBe(id);
    expect(getSite('nosuchsite')).toBeUndefined();
    expect(getSite('')).toBeUndefined();
    expect(getSite('Sibylla')).toBeUndefined();
  });

  it('have unique names and a valid language list without repeats', () => {
    expect(new Set(allSites.map((s) => s.name)).size).toBe(14);
    for (const s of allSites) {
      expect(s.languages.length).toBeGreaterThan(0);
      expect(new Set(s.languages).size).toBe(s.languages.length);
      for (const lang of s.languages) expect(['fi', 'sv', 'en']).toContain(lang);
    }
  });

  it('mark the two group sites as corporate', () => {
    expect(
      allSites
        .filter((s) => s.corporate)
        .map((s) => s.id)
        .sort(),
    ).toEqual(['koncernse', 'konsernifi']);
  });
});

describe('default languages', () => {
  it.each(SWEDISH_SITES)('%s is Swedish first', (id) => {
    expect(site(id).languages[0]).toBe('sv');
  });

  it('export is English first', () => {
    expect(site('export').languages[0]).toBe('en');
  });

  it.each(SPEC_IDS.filter((id) => id !== 'export' && !SWEDISH_SITES.includes(id)))(
    '%s is Finnish first',
    (id) => {
      expect(site(id).languages[0]).toBe('fi');
    },
  );

  it('sibylla has Finnish, Swedish and English, with its own Swedish logo', () => {
    const sibylla = site('sibylla');
    expect(sibylla.languages).toEqual(['fi', 'sv', 'en']);
    expect(siteLogo(sibylla, 'fi')).toBe('sibylla');
    expect(siteLogo(sibylla, 'sv')).toBe('sibylla-sv');
    expect(siteLogo(sibylla, 'en')).toBe('sibylla');
  });
});

describe('sticky header thresholds', () => {
  const special: Record<string, number> = {
    lihakauppa: 130,
    jyvabroiler: 120,
    mestariforsmanfi: 100,
  };

  it.each(SPEC_IDS)('%s uses the spec’s threshold', (id) => {
    expect(site(id).header.stickyThreshold).toBe(special[id] ?? 200);
  });

  it('the special thresholds belong to the shop, third-brand and master-chef headers', () => {
    expect(site('lihakauppa').header.variant).toBe('shop');
    expect(site('jyvabroiler').header.variant).toBe('third-brand');
    expect(site('mestariforsmanfi').header.variant).toBe('master-chef');
  });
});

describe('taglines', () => {
  it.each(SPEC_IDS)('%s has a tagline in each of its languages, and only those', (id) => {
    const s = site(id);
    for (const lang of s.languages) {
      const tagline = s.tagline[lang];
      expect(typeof tagline).toBe('string');
      expect(tagline?.trim().length).toBeGreaterThan(10);
    }
    expect(Object.keys(s.tagline).sort()).toEqual([...s.languages].sort());
  });
});

/** WCAG 2.1 relative luminance of an sRGB `#rrggbb` or `#rgb` colour. */
function luminance(colour: string): number {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour);
  if (!match?.[1]) throw new Error(`not a hex colour: ${colour}`);
  const hex = match[1].length === 3 ? [...match[1]].map((c) => c + c).join('') : match[1];
  const [r, g, b] = [0, 2, 4].map((i) => {
    const channel = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1 contrast ratio, 1 to 21. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('the contrast helper', () => {
  it('gives the known ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#000')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#777')).toBeCloseTo(1, 5);
    // #767676 on white is the classic smallest grey that passes 4.5:1.
    expect(contrast('#767676', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#777777', '#ffffff')).toBeLessThan(4.5);
  });
});

describe('theme contrast (WCAG 2.1 AA)', () => {
  const pairs: [label: string, fg: keyof ThemeTokens, bg: keyof ThemeTokens, min: number][] = [
    ['onBrand on brand', 'onBrand', 'brand', 4.5],
    ['text on surface', 'text', 'surface', 4.5],
    ['text on raised', 'text', 'raised', 4.5],
    ['link on surface', 'link', 'surface', 4.5],
  ];

  const cases = allSites.flatMap((s) =>
    pairs.map(([label, fg, bg, min]) => ({
      name: `${s.id}: ${label}`,
      fg: s.theme[fg],
      bg: s.theme[bg],
      min,
    })),
  );

  it.each(cases)('$name is at least $min:1', ({ fg, bg, min }) => {
    expect(contrast(fg, bg)).toBeGreaterThanOrEqual(min);
  });

  // The focus ring is two rings; on every background the site uses, one of them must stand out.
  it.each(
    allSites.flatMap((s) =>
      (['brand', 'surface', 'raised'] as const).map((bg) => [s.id, bg, s.theme] as const),
    ),
  )('%s: the focus ring stands out on %s', (_id, bg, theme) => {
    const best = Math.max(contrast(theme.focus, theme[bg]), contrast(theme.focusHalo, theme[bg]));
    expect(best).toBeGreaterThanOrEqual(3);
  });
});
