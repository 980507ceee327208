import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { islands } from '../src/app/islands.ts';
import { en } from '../src/i18n/en.ts';
import { fi } from '../src/i18n/fi.ts';
import { sv } from '../src/i18n/sv.ts';
import { islandTexts } from '../vite.config.ts';
import {
  islandModules,
  islandTextKeys,
  partsWithTexts,
  partTextKeys,
  textKeysOf,
} from './island-texts.ts';

const root = path.resolve(import.meta.dirname, '..');
const keys = Object.keys(fi);

/** The module the build makes of `id` (`virtual:island-texts/<lang>/<island>`), as its source. */
async function loadVirtual(id: string): Promise<string> {
  const plugin = islandTexts();
  const resolveId = plugin.resolveId as (source: string) => string | null;
  const load = plugin.load as (this: unknown, id: string) => Promise<string | null>;
  const resolved = resolveId(id);
  if (!resolved) throw new Error(`${id} was not resolved`);
  const code = await load.call({ addWatchFile() {} }, resolved);
  if (!code) throw new Error(`${id} was not loaded`);
  return code;
}

async function loadTexts(lang: string, island: string): Promise<Record<string, string>> {
  const code = await loadVirtual(`virtual:island-texts/${lang}/${island}`);
  return JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as Record<
    string,
    string
  >;
}

describe('the text keys a module names (textKeysOf)', () => {
  const found = (source: string) => [...textKeysOf(source, keys)].sort();

  it('takes strings that are keys, in any quotes', () => {
    expect(found(`t('menu.label'); x = "menu.close"; y = \`menu.home\`;`)).toEqual([
      'menu.close',
      'menu.home',
      'menu.label',
    ]);
  });

  it('takes every key a template or a string starts', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text with a template in it
    expect(found('t(`language.name.${lang}`)')).toEqual(
      keys.filter((k) => k.startsWith('language.name.')).sort(),
    );
    // `${messages}.heading` with messages = 'shop.couponBox'
    expect(found(`const messages = 'shop.couponBox';`)).toEqual(
      keys.filter((k) => k.startsWith('shop.couponBox.')).sort(),
    );
  });

  it('reads @texts marks, and no other comment', () => {
    expect(found(`// t('menu.label')\n/* 'menu.close' */\n// @texts form.captcha.`)).toEqual(
      keys.filter((k) => k.startsWith('form.captcha.')).sort(),
    );
  });

  it('leaves out strings without a dot and strings that start no key', () => {
    expect(found(`x = 'menu'; y = './menu.tsx'; z = 'no.such.key';`)).toEqual([]);
  });
});

describe('island texts (virtual:island-texts)', () => {
  it('knows every island of the registry', () => {
    expect([...islandModules(root).islands].sort()).toEqual(Object.keys(islands).sort());
  });

  it('refuses a name that is no island', async () => {
    await expect(loadVirtual('virtual:island-texts/fi/no-such-island')).rejects.toThrow(
      /no island/,
    );
  });

  it('holds exactly the texts of the keys the island’s modules name, in each language', async () => {
    const catalogues = { fi, sv, en } as Record<string, Record<string, string>>;
    const header = islandTextKeys(root, keys, 'site-header');
    expect(header?.keys).toContain('menu.label');
    // The side menu loads when it is reached for, with its own texts (decision 161).
    expect(header?.files).not.toContain('src/features/navigation/side-menu.tsx');
    expect(header?.parts).toContain('src/features/navigation/side-menu.tsx');
    for (const lang of ['fi', 'sv', 'en']) {
      const texts = await loadTexts(lang, 'site-header');
      expect(Object.keys(texts)).toEqual(header?.keys);
      for (const [key, text] of Object.entries(texts)) expect(text).toBe(catalogues[lang]?.[key]);
    }
    // No page loads the whole catalogue for its header any more.
    expect(header?.keys.length).toBeLessThan(keys.length / 10);
  });

  it('gives every island each text its modules show with t(), and every part it loads lazily', () => {
    const modules = islandModules(root);
    const parts = partsWithTexts(root, keys, modules);
    const shows = (files: string[]) =>
      [
        ...files
          .map((f) => readFileSync(path.join(root, f), 'utf8'))
          .join('\n')
          .matchAll(/\bt\(\s*'([\w.]+)'/g),
      ].map((m) => m[1] ?? '');
    for (const island of modules.islands) {
      const texts = islandTextKeys(root, keys, island, modules);
      if (!texts) throw new Error(`no texts for ${island}`);
      for (const key of shows(texts.files)) expect(texts.keys, `${island}: ${key}`).toContain(key);
      for (const part of texts.parts) {
        const partTexts = partTextKeys(root, keys, part);
        for (const key of shows(partTexts.files)) {
          expect(partTexts.keys, `${island} → ${part}: ${key}`).toContain(key);
          expect(parts.get(part), `${part}: ${key}`).toContain(key);
        }
      }
    }
  });

  it('leaves a lazily loaded dialog’s texts to the dialog', () => {
    const texts = islandTextKeys(root, keys, 'newsletter-modal');
    const dialog = 'src/features/subscriptions/widgets/newsletter-dialog.tsx';
    expect(texts?.files).not.toContain(dialog);
    expect(texts?.parts).toContain(dialog);
    expect(texts?.keys).toEqual(
      ['subscribe.newsletter.open', 'subscribe.newsletter.intro'].sort(
        (a, b) => keys.indexOf(a) - keys.indexOf(b),
      ),
    );
    const part = partTextKeys(root, keys, dialog);
    expect(part.keys).toContain('subscribe.newsletter.thanksTitle');
    expect(part.keys).toContain('validation.required');
  });
});

describe('island code (the modules the server names, decision 161)', () => {
  const modules = islandModules(root);
  const registries = readdirSync(path.join(root, 'src/features')).filter((feature) =>
    existsSync(path.join(root, 'src/features', feature, 'islands.ts')),
  );

  it('takes from each module the export the registry’s lazy import takes', async () => {
    const tables = new Map<string, () => Promise<unknown>>();
    for (const feature of registries) {
      const registry = (await import(`../src/features/${feature}/islands.ts`)) as Record<
        string,
        unknown
      >;
      for (const table of Object.values(registry))
        if (typeof table === 'object' && table)
          for (const [name, load] of Object.entries(table)) tables.set(name, load);
    }
    expect(tables.size).toBeGreaterThan(40);
    for (const [name, load] of tables) {
      const code = modules.code.get(name);
      expect(code, name).toHaveLength(1);
      const [{ file, name: exported } = { file: '', name: '' }] = code ?? [];
      const module = (await import(`../${file}`)) as Record<string, unknown>;
      expect(module[exported], `${name}: ${file}#${exported}`).toBe(await load());
    }
  });

  it('names two parts for an island the app joins, the part that takes the other first', async () => {
    const header = modules.code.get('site-header-synced');
    expect(header).toEqual([
      { file: 'src/features/navigation/site-header.tsx', name: 'siteHeaderWith' },
      { file: 'src/features/shop/cart-sync/site-cart.ts', name: 'cartSyncPart' },
    ]);
    for (const island of modules.islands) {
      const code = modules.code.get(island) ?? [];
      expect(code.length, island).toBeGreaterThanOrEqual(1);
      if (code.length === 1) continue;
      const [withPart, part] = await Promise.all(
        code.map(async (c) => ((await import(`../${c.file}`)) as Record<string, unknown>)[c.name]),
      );
      expect(typeof withPart, island).toBe('function');
      expect(typeof (withPart as (p: unknown) => unknown)(part), island).toBe('function');
    }
  });
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
