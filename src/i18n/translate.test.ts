import { beforeEach, describe, expect, it, vi } from 'vitest';
import { catalogues, serverT } from './catalogues.ts';
import { en } from './en.ts';
import { fi, type MessageKey, type Messages } from './fi.ts';
import { sv } from './sv.ts';
import { knownLang, translator } from './translate.ts';

const sample = {
  ...fi,
  'layout.copyright': '© {year} {name}',
  'layout.homeLink': '{name} – {name}',
} as Messages;

describe('translator', () => {
  const t = translator(sample);

  it('returns the text of a key', () => {
    expect(t('menu.label')).toBe(fi['menu.label']);
  });

  it('fills in placeholders from values, numbers included', () => {
    expect(t('layout.copyright', { year: 2025, name: 'Kattaus' })).toBe('© 2025 Kattaus');
    expect(t('layout.homeLink', { name: 'Sibylla' })).toBe('Sibylla – Sibylla');
    expect(t('layout.copyright', { year: 0, name: '' })).toBe('© 0 ');
  });

  it('keeps a placeholder whose value is missing', () => {
    expect(t('layout.copyright', { year: 2025 })).toBe('© 2025 {name}');
    expect(t('layout.copyright', {})).toBe('© {year} {name}');
    expect(t('layout.copyright')).toBe('© {year} {name}');
  });

  it('does not take inherited properties of values as placeholder values', () => {
    const inherited = translator({
      'menu.label': '{constructor} {toString} {hasOwnProperty} {__proto__} {name}',
    } as Messages);
    expect(inherited('menu.label', { name: 'x' })).toBe(
      '{constructor} {toString} {hasOwnProperty} {__proto__} x',
    );
    expect(inherited('menu.label', { constructor: 'c', toString: 't' })).toBe(
      'c t {hasOwnProperty} {__proto__} {name}',
    );
  });

  it('inserts values literally, without reading them as patterns', () => {
    expect(t('layout.copyright', { year: '$&', name: "$1 $' {year}" })).toBe("© $& $1 $' {year}");
  });

  it('ignores values that have no placeholder', () => {
    expect(t('menu.label', { name: 'x' })).toBe(fi['menu.label']);
  });

  it('falls back to the key when a catalogue lacks it', () => {
    const partial = translator({} as Messages);
    expect(partial('menu.label')).toBe('menu.label');
  });
});

describe('lookup misses (spec shop §7)', () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  beforeEach(() => warn.mockClear());
  const said = () => warn.mock.calls.map((call) => String(call[0]));

  it('logs an unknown key once and shows the key itself', () => {
    const t = translator(fi, 'fi');
    const key = 'form.nothing.here' as MessageKey;
    expect(t(key)).toBe('form.nothing.here');
    expect(t(key, { name: 'x' })).toBe('form.nothing.here');
    // Another translator (another island) does not say it again.
    expect(translator(fi, 'fi')(key)).toBe('form.nothing.here');
    expect(said()).toEqual(['i18n: unknown key "form.nothing.here" in fi']);
    // The same key missing in another language is another miss.
    expect(translator({} as Messages, 'sv')(key)).toBe('form.nothing.here');
    expect(said()).toHaveLength(2);
    expect(said()[1]).toBe('i18n: unknown key "form.nothing.here" in sv');
  });

  it('says nothing for keys it knows, and takes no inherited property for a text', () => {
    const t = translator(fi, 'fi');
    expect(t('menu.label')).toBe(fi['menu.label']);
    expect(said()).toEqual([]);
    expect(t('constructor' as MessageKey)).toBe('constructor');
    expect(t('toString' as MessageKey)).toBe('toString');
    expect(said()).toEqual([
      'i18n: unknown key "constructor" in fi',
      'i18n: unknown key "toString" in fi',
    ]);
  });

  it('logs an unknown locale once and uses Finnish', () => {
    expect(knownLang('sv')).toBe('sv');
    expect(knownLang('en')).toBe('en');
    expect(said()).toEqual([]);
    expect(knownLang('de')).toBe('fi');
    expect(knownLang('de')).toBe('fi');
    expect(serverT('de')('menu.label')).toBe(fi['menu.label']);
    expect(said()).toEqual(['i18n: unknown locale "de", using fi']);
    expect(knownLang(undefined)).toBe('fi');
    expect(said()).toEqual([
      'i18n: unknown locale "de", using fi',
      'i18n: unknown locale "undefined", using fi',
    ]);
  });
});

describe('serverT', () => {
  it('translates in each language', () => {
    expect(serverT('fi')('menu.label')).toBe(fi['menu.label']);
    expect(serverT('sv')('menu.label')).toBe(sv['menu.label']);
    expect(serverT('en')('menu.label')).toBe(en['menu.label']);
    expect(serverT('en')('layout.copyright', { year: 2025, name: 'Kattaus' })).toBe(
      '© 2025 Kattaus',
    );
  });

  it('reuses one translator per language', () => {
    expect(serverT('sv')).toBe(serverT('sv'));
    expect(serverT('sv')).not.toBe(serverT('fi'));
  });
});

describe('catalogues', () => {
  const fiKeys = Object.keys(fi).sort();

  it('holds fi, sv and en', () => {
    expect(Object.keys(catalogues).sort()).toEqual(['en', 'fi', 'sv']);
    expect(catalogues.fi).toBe(fi);
    expect(catalogues.sv).toBe(sv);
    expect(catalogues.en).toBe(en);
  });

  it.each([
    ['sv', sv],
    ['en', en],
  ] as const)('%s has exactly the keys of fi', (_lang, messages) => {
    expect(Object.keys(messages).sort()).toEqual(fiKeys);
  });

  it.each([
    ['fi', fi],
    ['sv', sv],
    ['en', en],
  ] as const)('%s has a non-empty text for every key', (_lang, messages) => {
    for (const [key, text] of Object.entries(messages)) {
      expect(typeof text, key).toBe('string');
      expect(text.trim().length, key).toBeGreaterThan(0);
    }
  });

  it.each([
    ['sv', sv],
    ['en', en],
  ] as const)('%s uses the same placeholders as fi', (_lang, messages) => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of fiKeys as MessageKey[]) {
      expect(placeholders(messages[key]), key).toEqual(placeholders(fi[key]));
    }
  });

  it('language names switch to the language itself', () => {
    for (const messages of [fi, sv, en]) {
      expect(messages['language.switchTo.fi']).toBe('Suomeksi');
      expect(messages['language.switchTo.sv']).toBe('På svenska');
      expect(messages['language.switchTo.en']).toBe('In English');
    }
  });
});
