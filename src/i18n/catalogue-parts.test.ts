import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogueParts } from '../../vite.config.ts';
import { en } from './en.ts';
import { fi } from './fi.ts';
import { sv } from './sv.ts';

const root = path.resolve(import.meta.dirname, '../..');

async function loadPart(id: string): Promise<Record<string, string>> {
  const plugin = catalogueParts();
  const resolveId = plugin.resolveId as (source: string) => string | null;
  const load = plugin.load as (this: unknown, id: string) => Promise<string | null>;
  const resolved = resolveId(id);
  if (!resolved) throw new Error(`${id} was not resolved`);
  const code = await load.call({ addWatchFile() {} }, resolved);
  if (!code) throw new Error(`${id} was not loaded`);
  return JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as Record<
    string,
    string
  >;
}

/** The islands' catalogue parts as the client entry names them: island → prefixes per language. */
function entryParts(): Map<string, { lang: string; prefixes: string[] }[]> {
  const source = readFileSync(path.join(root, 'src/app/client-entry.ts'), 'utf8');
  const parts = new Map<string, { lang: string; prefixes: string[] }[]>();
  for (const [, island, body] of source.matchAll(/['"]([\w-]+)['"]\s*:\s*\{([^{}]*)\}/g)) {
    for (const [, lang, list] of body?.matchAll(/import\('virtual:catalogue\/(\w+)\/([^']+)'\)/g) ??
      []) {
      if (!island || !lang || !list) continue;
      parts.set(island, [...(parts.get(island) ?? []), { lang, prefixes: list.split(',') }]);
    }
  }
  return parts;
}

describe('catalogue parts (virtual:catalogue/<lang>/<prefixes>)', () => {
  it('hold exactly the texts of the language whose keys start with a prefix', async () => {
    const catalogues = { fi, sv, en } as Record<string, Record<string, string>>;
    for (const lang of ['fi', 'sv', 'en']) {
      const part = await loadPart(`virtual:catalogue/${lang}/shop.buy.,carousel.`);
      const expected = Object.fromEntries(
        Object.entries(catalogues[lang] ?? {}).filter(
          ([key]) => key.startsWith('shop.buy.') || key.startsWith('carousel.'),
        ),
      );
      expect(Object.keys(expected).length).toBeGreaterThan(0);
      expect(part).toEqual(expected);
    }
  });

  it('refuses a prefix that matches no text', async () => {
    await expect(loadPart('virtual:catalogue/fi/no.such.prefix.')).rejects.toThrow(
      /matches no text/,
    );
  });

  /** Each island with a part, and the files whose texts it shows (its module and its imports'). */
  const islandSources: Record<string, string[]> = {
    'shop-buy-control': ['src/features/shop/buy-control.tsx'],
    'shop-card-buy': ['src/features/shop/card-buy.tsx', 'src/features/shop/buy-control.tsx'],
    'lunch-menu': [
      'src/features/lunch-menu/lunch-menu.tsx',
      'src/features/lunch-menu/menu-view.tsx',
      'src/features/lunch-menu/menu-editor.tsx',
      'src/features/lunch-menu/use-menu-draft.ts',
    ],
    'like-button': ['src/features/content/likes/like-button.tsx'],
    'recipe-banner': ['src/features/content/recipe-banner/recipe-banner.tsx'],
    'hero-carousel': [
      'src/features/content/carousel/hero-carousel.tsx',
      'src/features/content/carousel/slide-track.tsx',
      'src/features/content/carousel/icons.tsx',
      'src/features/content/carousel/use-carousel.ts',
    ],
  };

  it('names the sources of every island that has a part', () => {
    expect([...entryParts().keys()].sort()).toEqual(Object.keys(islandSources).sort());
  });

  it.each(Object.entries(islandSources))(
    'gives %s every text it shows, in each language',
    (island, files) => {
      const parts = entryParts().get(island);
      expect(parts?.map((p) => p.lang).sort()).toEqual(['en', 'fi', 'sv']);
      const source = files.map((f) => readFileSync(path.join(root, f), 'utf8')).join('\n');
      const keys = [...source.matchAll(/\bt\(\s*'([\w.]+)'/g)].map((m) => m[1] ?? '');
      expect(keys.length).toBeGreaterThan(0);
      // No text keys built at run time, which a static list could not check.
      expect(source).not.toMatch(/\bt\(\s*`/);
      for (const part of parts ?? [])
        for (const key of keys)
          expect(
            part.prefixes.some((p) => key.startsWith(p)),
            `${key} (${part.lang})`,
          ).toBe(true);
    },
  );
});

describe('the cart-sync frame', () => {
  it('is plain script: no React, no texts (decision 061)', () => {
    for (const file of ['frame-entry.ts', 'shop-frame.ts']) {
      const source = readFileSync(path.join(root, 'src/features/shop/cart-sync', file), 'utf8');
      expect(source, file).not.toMatch(/from '(react|react-dom)[^']*'|\/i18n\//);
    }
    const entry = readFileSync(path.join(root, 'src/app/client-entry.ts'), 'utf8');
    expect(entry).not.toContain('cart-sync-frame');
  });
});
