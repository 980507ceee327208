import { describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { getSite, sites } from './registry.ts';
import { createSiteResolver, homePath, langPrefix, resolveLocale } from './resolve.ts';
import type { Site } from './types.ts';

function site(id: string): Site {
  const found = getSite(id);
  if (!found) throw new Error(`no site ${id}`);
  return found;
}

const plain = createSiteResolver({ siteHosts: {}, defaultSite: 'konsernifi' });

describe('createSiteResolver', () => {
  it.each(sites.map((s) => s.id))('finds %s on <id>.localhost with and without a port', (id) => {
    expect(plain.byHost(`${id}.localhost`).id).toBe(id);
    expect(plain.byHost(`${id}.localhost:3000`).id).toBe(id);
    expect(plain.byHost(`${id}.localhost:80`).id).toBe(id);
    expect(plain.byHost(`${id.toUpperCase()}.LOCALHOST:3000`).id).toBe(id);
  });

  it('finds configured hosts, ignoring case and port', () => {
    const config = loadConfig({
      SESSION_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      SITE_HOSTS: 'sibylla=www.sibylla.example,Sibylla.Example;lihakauppa=shop.example',
    });
    const resolver = createSiteResolver(config);
    expect(resolver.byHost('www.sibylla.example').id).toBe('sibylla');
    expect(resolver.byHost('WWW.SIBYLLA.EXAMPLE').id).toBe('sibylla');
    expect(resolver.byHost('sibylla.example:8443').id).toBe('sibylla');
    expect(resolver.byHost('Shop.Example').id).toBe('lihakauppa');
    // The <id>.localhost name keeps working beside the configured ones.
    expect(resolver.byHost('sibylla.localhost').id).toBe('sibylla');
    expect(resolver.hostsOf('sibylla')).toEqual([
      'www.sibylla.example',
      'sibylla.example',
      'sibylla.localhost',
    ]);
    expect(resolver.hostsOf('export')).toEqual(['export.localhost']);
    expect(resolver.hostsOf('nope')).toEqual([]);
  });

  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1',
    '127.0.0.1:3000',
    '[::1]:3000',
    '[::1]',
    'unknown.example',
    'sibylla.localhost.evil.example',
    'nope.localhost',
    '',
  ])('gives the default site for %j', (host) => {
    expect(plain.byHost(host).id).toBe('konsernifi');
  });

  it('gives the default site when there is no Host header', () => {
    expect(plain.byHost(undefined).id).toBe('konsernifi');
  });

  it('uses the configured default site as the fallback', () => {
    const resolver = createSiteResolver({ siteHosts: {}, defaultSite: 'koncernse' });
    expect(resolver.byHost('localhost:3000').id).toBe('koncernse');
    expect(resolver.byHost('[::1]:3000').id).toBe('koncernse');
    expect(resolver.byHost('sibylla.localhost').id).toBe('sibylla');
  });

  it('finds a site by a configured IPv6 host with a port', () => {
    const resolver = createSiteResolver({
      siteHosts: { export: ['[::1]'] },
      defaultSite: 'konsernifi',
    });
    expect(resolver.byHost('[::1]:3000').id).toBe('export');
    expect(resolver.byHost('[::1]').id).toBe('export');
  });

  it('refuses an unknown DEFAULT_SITE', () => {
    expect(() => createSiteResolver({ siteHosts: {}, defaultSite: 'nosuchsite' })).toThrow(
      /DEFAULT_SITE "nosuchsite"/,
    );
  });

  it('refuses a host configured for two sites, naming the host and both sites', () => {
    expect(() =>
      createSiteResolver({
        siteHosts: { sibylla: ['shared.example'], lihakauppa: ['shop.example', 'shared.example'] },
        defaultSite: 'konsernifi',
      }),
    ).toThrow(/"shared\.example".*"(sibylla|lihakauppa)".*"(lihakauppa|sibylla)"/);
    // A configured host may not take another site's <id>.localhost name either.
    expect(() =>
      createSiteResolver({
        siteHosts: { export: ['sibylla.localhost'] },
        defaultSite: 'konsernifi',
      }),
    ).toThrow(/"sibylla\.localhost".*"(export|sibylla)".*"(sibylla|export)"/);
  });

  it('allows a site to list its own host twice', () => {
    const resolver = createSiteResolver({
      siteHosts: { sibylla: ['x.example', 'x.example', 'sibylla.localhost'] },
      defaultSite: 'konsernifi',
    });
    expect(resolver.byHost('x.example').id).toBe('sibylla');
  });

  it('refuses an unknown site id in SITE_HOSTS', () => {
    expect(() =>
      createSiteResolver({ siteHosts: { nosuchsite: ['x.example'] }, defaultSite: 'konsernifi' }),
    ).toThrow(/SITE_HOSTS names an unknown site "nosuchsite"/);
  });
});

describe('resolveLocale', () => {
  const englishSites = sites.filter((s) => (s.languages as readonly string[]).includes('en'));
  const nonEnglishSites = sites.filter((s) => !(s.languages as readonly string[]).includes('en'));

  it('knows which sites have English', () => {
    expect(englishSites.map((s) => s.id).sort()).toEqual([
      'export',
      'koncernse',
      'konsernifi',
      'sibylla',
    ]);
  });

  it.each(englishSites.filter((s) => s.languages[0] !== 'en').map((s) => s.id))(
    'reads /en/... as English on %s',
    (id) => {
      expect(resolveLocale(site(id), '/en/products/x')).toEqual({
        lang: 'en',
        prefix: '/en',
        rest: '/products/x',
      });
      expect(resolveLocale(site(id), '/en/')).toEqual({ lang: 'en', prefix: '/en', rest: '/' });
    },
  );

  it('reads /en exactly as the English home', () => {
    expect(resolveLocale(site('sibylla'), '/en')).toEqual({ lang: 'en', prefix: '/en', rest: '/' });
  });

  it.each(nonEnglishSites.map((s) => s.id))('keeps /en/... in the default language on %s', (id) => {
    const s = site(id);
    expect(resolveLocale(s, '/en/products')).toEqual({
      lang: s.languages[0],
      prefix: '',
      rest: '/en/products',
    });
  });

  it('on export, English is the default and /en/ is not a prefix', () => {
    expect(resolveLocale(site('export'), '/en/x')).toEqual({
      lang: 'en',
      prefix: '',
      rest: '/en/x',
    });
    expect(resolveLocale(site('export'), '/x')).toEqual({ lang: 'en', prefix: '', rest: '/x' });
  });

  it('reads /sv/ as Swedish on sibylla', () => {
    expect(resolveLocale(site('sibylla'), '/sv/')).toEqual({
      lang: 'sv',
      prefix: '/sv',
      rest: '/',
    });
    expect(resolveLocale(site('sibylla'), '/sv/meny')).toEqual({
      lang: 'sv',
      prefix: '/sv',
      rest: '/meny',
    });
  });

  it('does not read /sv/ as Swedish on a Finnish site without Swedish', () => {
    expect(resolveLocale(site('lihakauppa'), '/sv/')).toEqual({
      lang: 'fi',
      prefix: '',
      rest: '/sv/',
    });
  });

  it('serves other paths in Finnish on a Finnish-first site', () => {
    for (const path of ['/', '/tuotteet', '/english', '/enx/y', '/fi/', '/EN/']) {
      expect(resolveLocale(site('sibylla'), path)).toEqual({ lang: 'fi', prefix: '', rest: path });
    }
    expect(resolveLocale(site('konsernifi'), '')).toEqual({ lang: 'fi', prefix: '', rest: '/' });
  });

  it('serves a Swedish site in Swedish by default', () => {
    expect(resolveLocale(site('lithellsse'), '/')).toEqual({ lang: 'sv', prefix: '', rest: '/' });
    expect(resolveLocale(site('koncernse'), '/om-oss')).toEqual({
      lang: 'sv',
      prefix: '',
      rest: '/om-oss',
    });
    expect(resolveLocale(site('koncernse'), '/en/about')).toEqual({
      lang: 'en',
      prefix: '/en',
      rest: '/about',
    });
    // The default language never takes a prefix.
    expect(resolveLocale(site('koncernse'), '/sv/x')).toEqual({
      lang: 'sv',
      prefix: '',
      rest: '/sv/x',
    });
  });
});

describe('langPrefix and homePath', () => {
  it('gives the default language no prefix and the others their code', () => {
    const sibylla = site('sibylla');
    expect(langPrefix(sibylla, 'fi')).toBe('');
    expect(langPrefix(sibylla, 'sv')).toBe('/sv');
    expect(langPrefix(sibylla, 'en')).toBe('/en');
    expect(homePath(sibylla, 'fi')).toBe('/');
    expect(homePath(sibylla, 'sv')).toBe('/sv/');
    expect(homePath(sibylla, 'en')).toBe('/en/');

    expect(homePath(site('koncernse'), 'sv')).toBe('/');
    expect(homePath(site('koncernse'), 'en')).toBe('/en/');
    expect(homePath(site('export'), 'en')).toBe('/');
  });

  it.each(sites.map((s) => s.id))('round-trips every language home of %s', (id) => {
    const s = site(id);
    for (const lang of s.languages) {
      const locale = resolveLocale(s, homePath(s, lang));
      expect(locale).toEqual({ lang, prefix: langPrefix(s, lang), rest: '/' });
    }
  });
});
