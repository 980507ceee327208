import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { sites } from '../../../sites/registry.ts';
import { newsReleases, pages, products, recipes } from '../tables.ts';
import { robotsTxt } from './robots.ts';
import { seoRoutes } from './routes.server.ts';

let t: TestApp;

const SIBYLLA = 'http://sibylla.localhost:3000';
const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await createTestApp({
    config: { siteHosts: { sibylla: ['www.sibylla.example'] } },
    extend(app) {
      // The same routes with tiny sitemap files, to see the index and its parts.
      app.register(seoRoutes, { prefix: '/small', sitemapPartSize: 2 });
    },
  });
  const db = t.database.db;
  const page = { siteId: 'sibylla', type: 'content', title: 'Sivu' };
  await db.insert(pages).values([
    {
      ...page,
      lang: 'fi',
      path: '/',
      type: 'home',
      translationKey: 'home',
      updatedAt: at('2024-01-01T00:00:00Z'),
    },
    {
      ...page,
      lang: 'sv',
      path: '/',
      type: 'home',
      translationKey: 'home',
      updatedAt: at('2024-01-02T00:00:00Z'),
    },
    {
      ...page,
      lang: 'en',
      path: '/',
      type: 'home',
      translationKey: 'home',
      updatedAt: at('2024-01-03T00:00:00Z'),
    },
    {
      ...page,
      lang: 'fi',
      path: '/reseptit',
      translationKey: 'recipes',
      updatedAt: at('2024-02-01T00:00:00Z'),
    },
    {
      ...page,
      lang: 'sv',
      path: '/recept',
      translationKey: 'recipes',
      updatedAt: at('2024-02-02T00:00:00Z'),
    },
    { ...page, lang: 'fi', path: '/kampanja', translationKey: 'shared-key' },
    {
      ...page,
      lang: 'fi',
      path: '/kauppa',
      translationKey: 'shop-link',
      isExternal: true,
      externalUrl: 'https://shop.example/',
    },
    {
      siteId: 'lihakauppa',
      lang: 'fi',
      path: '/',
      type: 'home',
      title: 'Etusivu',
      translationKey: 'home',
    },
  ]);
  const product = { siteId: 'sibylla', kind: 'retail-product', code: '1', name: 'Tuote' };
  await db.insert(products).values([
    {
      ...product,
      lang: 'fi',
      path: '/tuotteet/grilli',
      translationKey: 'p1',
      updatedAt: at('2024-03-01T12:30:45.678Z'),
    },
    { ...product, lang: 'en', path: '/products/grill', translationKey: 'p1' },
    { ...product, lang: 'fi', path: '/tuotteet/a&b<c>"d\'', translationKey: 'p2' },
    { ...product, lang: 'fi', path: '/tuotteet/kääre', translationKey: 'p3' },
    // Versions in the other languages only: no x-default.
    { ...product, lang: 'sv', path: '/produkter/korv', translationKey: 'p4' },
    { ...product, lang: 'en', path: '/products/sausage', translationKey: 'p4' },
    // The same key as a page: a different thing, not a language version of it.
    { ...product, lang: 'sv', path: '/produkter/kampanj', translationKey: 'shared-key' },
    // The shop has Finnish only: an English row is not part of the site.
    {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      code: '2',
      name: 'Pihvi',
      lang: 'en',
      path: '/products/steak',
      translationKey: 'steak',
    },
  ]);
  const recipe = {
    siteId: 'sibylla',
    title: 'Resepti',
    yield: 4,
    totalTimeMinutes: 30,
    translationKey: 'r1',
  };
  await db.insert(recipes).values([
    { ...recipe, lang: 'fi', path: '/reseptit/nakkikastike' },
    { ...recipe, lang: 'sv', path: '/recept/korvsas' },
    { ...recipe, lang: 'en', path: '/recipes/sausage-sauce' },
  ]);
  await db.insert(newsReleases).values([
    {
      siteId: 'sibylla',
      lang: 'fi',
      path: '/uutiset/uusi-makkara',
      title: 'Uusi makkara',
      publishDate: at('2024-04-01T06:00:00Z'),
      kind: 'cision',
      translationKey: 'n1',
      updatedAt: at('2024-04-01T06:00:00Z'),
    },
  ]);
});

afterAll(() => t.close());

function get(url: string, host: string) {
  return t.app.inject({ url, headers: { host } });
}

/**
 * A minimal well-formedness check: after the XML declaration, only tags with quoted attributes and
 * text without `<` or a stray `&`, tags balanced and one root element.
 */
function expectWellFormed(xml: string): void {
  const prolog = '<?xml version="1.0" encoding="UTF-8"?>\n';
  expect(xml.startsWith(prolog)).toBe(true);
  const strayAmp = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i;
  const token = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[A-Za-z_][\w:.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const stack: string[] = [];
  let roots = 0;
  let pos = prolog.length;
  while (pos < xml.length) {
    token.lastIndex = pos;
    const m = token.exec(xml);
    if (!m) throw new Error(`not well-formed at ${pos}: ${xml.slice(pos, pos + 60)}`);
    pos = token.lastIndex;
    const [, closing, name, attributes = '', selfClosing, text] = m;
    if (text !== undefined) {
      expect(strayAmp.test(text), `text ${text}`).toBe(false);
      if (stack.length === 0) expect(text.trim()).toBe('');
      continue;
    }
    expect(strayAmp.test(attributes), `attributes ${attributes}`).toBe(false);
    const names = [...attributes.matchAll(/([\w:.-]+)=/g)].map((a) => a[1]);
    expect(new Set(names).size, `repeated attribute in <${name}>`).toBe(names.length);
    if (closing) {
      expect(stack.pop(), `</${name}> closes the open element`).toBe(name);
    } else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name ?? '');
    } else if (stack.length === 0) {
      roots++;
    }
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

interface UrlEntry {
  loc: string;
  lastmod: string;
  alternates: Record<string, string>;
}

function urlsOf(xml: string): UrlEntry[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => {
    const body = m[1] ?? '';
    return {
      loc: decode(/<loc>([^<]*)<\/loc>/.exec(body)?.[1] ?? ''),
      lastmod: /<lastmod>([^<]*)<\/lastmod>/.exec(body)?.[1] ?? '',
      alternates: Object.fromEntries(
        [...body.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
          (a) => [a[1] ?? '', decode(a[2] ?? '')],
        ),
      ),
    };
  });
}

describe('robots.txt', () => {
  it.each(sites.map((s) => s.id).filter((id) => id !== 'koncernse'))(
    '%s points at its own sitemap',
    async (id) => {
      const res = await get('/robots.txt', `${id}.localhost:3000`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toBe(
        [
          'User-agent: *',
          'Allow: /',
          'Disallow: /api/',
          'Disallow: /*?q=',
          'Disallow: /*&q=',
          'Disallow: /*?facetTags=',
          'Disallow: /*&facetTags=',
          '',
          `Sitemap: http://${id}.localhost:3000/sitemap.xml`,
          '',
        ].join('\n'),
      );
    },
  );

  it('lets crawlers fetch the plain query of each search page, not its facets (decision 050)', async () => {
    // koncernse: Swedish without a prefix, English under /en; a search page in each, an
    // external link typed as a search page (not a page of the site) and another site's.
    const page = { siteId: 'koncernse', type: 'search', title: 'Sök' };
    const added = await t.database.db
      .insert(pages)
      .values([
        { ...page, lang: 'sv', path: '/sok', translationKey: 'search' },
        { ...page, lang: 'en', path: '/search', translationKey: 'search' },
        {
          ...page,
          lang: 'sv',
          path: '/extern',
          translationKey: 'external',
          isExternal: true,
          externalUrl: 'https://example.com/',
        },
        { ...page, siteId: 'delise', lang: 'sv', path: '/hitta', translationKey: 'search' },
      ])
      .returning({ id: pages.id });
    // Taken away again at the end: the other sites' robots.txt tests expect no search page.
    onTestFinished(async () => {
      await t.database.db.delete(pages).where(
        inArray(
          pages.id,
          added.map((row) => row.id),
        ),
      );
    });
    const res = await get('/robots.txt', 'koncernse.localhost:3000');
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Allow: /en/search?q=',
        'Allow: /sok?q=',
        'Disallow: /api/',
        'Disallow: /*?q=',
        'Disallow: /*&q=',
        'Disallow: /*?facetTags=',
        'Disallow: /*&facetTags=',
        '',
        'Sitemap: http://koncernse.localhost:3000/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('writes a search path as a literal rule', () => {
    expect(robotsTxt('http://x', ['/sök', '/a*b$'])).toContain(
      'Allow: /a%2Ab%24?q=\nAllow: /s%C3%B6k?q=\n',
    );
  });

  it('names the configured public host', async () => {
    const res = await get('/robots.txt', 'www.sibylla.example');
    expect(res.body).toContain('Sitemap: http://www.sibylla.example/sitemap.xml\n');
  });

  it('never names a Host header no site owns', async () => {
    const res = await t.app.inject({
      url: '/robots.txt',
      headers: { host: 'evil.example:3000', 'x-forwarded-host': 'evil.example' },
    });
    // Unknown hosts get the default site, on its own host name.
    expect(res.body).toContain('Sitemap: http://konsernifi.localhost:3000/sitemap.xml\n');
    expect(res.body).not.toContain('evil');
  });
});

describe('sitemap.xml', () => {
  it('lists every page, product, recipe and release of the site in all its languages', async () => {
    const res = await get('/sitemap.xml', 'sibylla.localhost:3000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['set-cookie']).toBeUndefined();
    expectWellFormed(res.body);
    expect(res.body).toContain(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    );
    const urls = urlsOf(res.body);
    expect(urls.map((u) => u.loc)).toEqual([
      // Pages, then products, recipes and releases; each by path, then language, in byte order.
      `${SIBYLLA}/en/`,
      `${SIBYLLA}/`,
      `${SIBYLLA}/sv/`,
      `${SIBYLLA}/kampanja`,
      `${SIBYLLA}/sv/recept`,
      `${SIBYLLA}/reseptit`,
      `${SIBYLLA}/en/products/grill`,
      `${SIBYLLA}/en/products/sausage`,
      `${SIBYLLA}/sv/produkter/kampanj`,
      `${SIBYLLA}/sv/produkter/korv`,
      `${SIBYLLA}/tuotteet/a&b%3Cc%3E%22d'`,
      `${SIBYLLA}/tuotteet/grilli`,
      `${SIBYLLA}/tuotteet/k%C3%A4%C3%A4re`,
      `${SIBYLLA}/sv/recept/korvsas`,
      `${SIBYLLA}/en/recipes/sausage-sauce`,
      `${SIBYLLA}/reseptit/nakkikastike`,
      `${SIBYLLA}/uutiset/uusi-makkara`,
    ]);
    // External menu links and other sites' rows are not there.
    expect(res.body).not.toContain('/kauppa');
    expect(res.body).not.toContain('steak');
  });

  it('gives each URL its lastmod and the full set of language versions', async () => {
    const urls = urlsOf((await get('/sitemap.xml', 'sibylla.localhost:3000')).body);
    const byLoc = new Map(urls.map((u) => [u.loc, u]));
    const home = {
      fi: `${SIBYLLA}/`,
      sv: `${SIBYLLA}/sv/`,
      en: `${SIBYLLA}/en/`,
      'x-default': `${SIBYLLA}/`,
    };
    for (const loc of [home.fi, home.sv, home.en]) {
      expect(byLoc.get(loc)?.alternates).toEqual(home);
    }
    expect(byLoc.get(`${SIBYLLA}/`)?.lastmod).toBe('2024-01-01T00:00:00Z');
    expect(byLoc.get(`${SIBYLLA}/en/`)?.lastmod).toBe('2024-01-03T00:00:00Z');
    expect(byLoc.get(`${SIBYLLA}/tuotteet/grilli`)?.lastmod).toBe('2024-03-01T12:30:45Z');
    expect(byLoc.get(`${SIBYLLA}/sv/recept`)?.alternates).toEqual({
      fi: `${SIBYLLA}/reseptit`,
      sv: `${SIBYLLA}/sv/recept`,
      'x-default': `${SIBYLLA}/reseptit`,
    });
    expect(byLoc.get(`${SIBYLLA}/tuotteet/grilli`)?.alternates).toEqual({
      fi: `${SIBYLLA}/tuotteet/grilli`,
      en: `${SIBYLLA}/en/products/grill`,
      'x-default': `${SIBYLLA}/tuotteet/grilli`,
    });
    // Without a default-language version there is no x-default.
    expect(byLoc.get(`${SIBYLLA}/sv/produkter/korv`)?.alternates).toEqual({
      sv: `${SIBYLLA}/sv/produkter/korv`,
      en: `${SIBYLLA}/en/products/sausage`,
    });
    expect(byLoc.get(`${SIBYLLA}/reseptit/nakkikastike`)?.alternates).toEqual({
      fi: `${SIBYLLA}/reseptit/nakkikastike`,
      sv: `${SIBYLLA}/sv/recept/korvsas`,
      en: `${SIBYLLA}/en/recipes/sausage-sauce`,
      'x-default': `${SIBYLLA}/reseptit/nakkikastike`,
    });
    // One language only, or a key shared with another table: no alternates.
    for (const loc of [
      `${SIBYLLA}/uutiset/uusi-makkara`,
      `${SIBYLLA}/kampanja`,
      `${SIBYLLA}/sv/produkter/kampanj`,
    ]) {
      expect(byLoc.get(loc)?.alternates).toEqual({});
    }
  });

  it('XML-escapes what it writes', async () => {
    const { body } = await get('/sitemap.xml', 'sibylla.localhost:3000');
    expect(body).toContain(`<loc>${SIBYLLA}/tuotteet/a&amp;b%3Cc%3E%22d&apos;</loc>`);
  });

  it('serves a site’s own rows in its own languages only', async () => {
    const res = await get('/sitemap.xml', 'lihakauppa.localhost');
    expectWellFormed(res.body);
    expect(urlsOf(res.body).map((u) => u.loc)).toEqual(['http://lihakauppa.localhost/']);
  });

  it('is an empty, valid urlset for a site without content', async () => {
    const res = await get('/sitemap.xml', 'export.localhost');
    expect(res.statusCode).toBe(200);
    expectWellFormed(res.body);
    expect(urlsOf(res.body)).toEqual([]);
  });

  it('uses the configured host as received, and the canonical one for a foreign Host', async () => {
    const own = await get('/sitemap.xml', 'www.sibylla.example');
    expect(urlsOf(own.body)[1]?.loc).toBe('http://www.sibylla.example/');
    const forged = await t.app.inject({
      url: '/sitemap.xml',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(forged.body).not.toContain('evil');
  });

  it('has no parts while one file holds the site', async () => {
    expect((await get('/sitemap-1.xml', 'sibylla.localhost')).statusCode).toBe(404);
  });
});

describe('sitemap index', () => {
  it('splits a large site into parts that together list every URL once', async () => {
    const full = urlsOf((await get('/sitemap.xml', 'sibylla.localhost:3000')).body);
    const res = await get('/small/sitemap.xml', 'sibylla.localhost:3000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['set-cookie']).toBeUndefined();
    expectWellFormed(res.body);
    expect(res.body).toContain(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    );
    const parts = [
      ...res.body.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>/g),
    ];
    expect(parts.map((p) => p[1])).toEqual(
      Array.from(
        { length: Math.ceil(full.length / 2) },
        (_, i) => `${SIBYLLA}/small/sitemap-${i + 1}.xml`,
      ),
    );
    const listed: UrlEntry[] = [];
    for (const [, loc, lastmod] of parts) {
      const part = await get(new URL(loc ?? '').pathname, 'sibylla.localhost:3000');
      expect(part.statusCode).toBe(200);
      expect(part.headers['cache-control']).toBe('public, max-age=3600');
      expectWellFormed(part.body);
      const urls = urlsOf(part.body);
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(2);
      // The part's lastmod in the index is its newest URL's.
      expect(lastmod).toBe(
        urls
          .map((u) => u.lastmod)
          .sort()
          .at(-1),
      );
      listed.push(...urls);
    }
    expect(listed).toEqual(full);
  });

  it('answers 404 for parts that do not exist', async () => {
    const urls = urlsOf((await get('/sitemap.xml', 'sibylla.localhost:3000')).body).length;
    const past = String(Math.ceil(urls / 2) + 1);
    expect(
      (await get(`/small/sitemap-${Number(past) - 1}.xml`, 'sibylla.localhost')).statusCode,
    ).toBe(200);
    for (const part of ['0', past, '999999', '1000000', '01', 'x', '1-2', '']) {
      const res = await get(`/small/sitemap-${part}.xml`, 'sibylla.localhost:3000');
      expect(res.statusCode, part).toBe(404);
    }
  });
});
