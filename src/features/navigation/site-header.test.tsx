import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createPage } from '../../../tests/factories/index.ts';
import { cookieHeader, createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { pageVisitorData } from '../../../tests/helpers/visitor.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { IslandRoot } from '../../render/island-root.tsx';
import type { Lang } from '../../sites/types.ts';
import type { HeaderVisitor, SiteHeaderProps } from './header-props.ts';
import { letterGlyph } from './letter-glyphs.ts';
import { loadDeferredParts, SiteHeader } from './site-header.tsx';

let t: TestApp;

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&#x27;': "'",
};
const decode = (v: string) => v.replace(/&(?:quot|amp|lt|gt|#x27);/g, (e) => ENTITIES[e] ?? e);

/** The page's `site-header` island: props, prefix, language and the server's markup. */
function headerIsland(html: string) {
  const match = /<k-island((?:\s+[\w-]+="[^"]*")*)>(.*?)<\/k-island>/s.exec(html);
  if (!match) throw new Error('no island');
  const attrs = Object.fromEntries(
    [...(match[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], decode(m[2] ?? '')]),
  );
  // On a site that sells through the shop, the header that syncs its cart (decision 160).
  expect(attrs['data-name']).toMatch(/^site-header(-synced)?$/);
  // The visitor's part is not in the island's JSON: the page's visitor data stands apart.
  expect(attrs['data-visitor']).toBe('');
  return {
    props: {
      ...(JSON.parse(attrs['data-props'] ?? '{}') as Omit<SiteHeaderProps, 'visitor'>),
      visitor: pageVisitorData(html) as HeaderVisitor,
    },
    prefix: attrs['data-prefix'] ?? '',
    lang: attrs['data-lang'] as Lang,
    inner: match[2] ?? '',
  };
}

/** The header as the browser's hydration renders it from the island's props and visitor data. */
function standalone(island: ReturnType<typeof headerIsland>): string {
  return renderToString(
    <IslandRoot lang={island.lang} t={serverT(island.lang)}>
      <SiteHeader {...island.props} />
    </IslandRoot>,
    { identifierPrefix: island.prefix },
  );
}

async function page(host: string, url = '/', cookie?: string) {
  const res = await t.app.inject({ url, headers: { host, ...(cookie ? { cookie } : {}) } });
  return { status: res.statusCode, html: res.body };
}

/** The desktop account link of the shop's header: where it goes and what it says. */
function accountLink(html: string): { href: string; text: string } | undefined {
  const match =
    /<a data-hole="header-account" class="[^"]*toolLink[^"]*" href="([^"]+)">.*?<span>([^<]*)<\/span><\/a>/s.exec(
      headerIsland(html).inner,
    );
  return match ? { href: match[1] ?? '', text: match[2] ?? '' } : undefined;
}

beforeAll(async () => {
  // The standalone renders below need the deferred parts' code, as the island registry loads it.
  await loadDeferredParts();
  t = await createTestApp({
    extend(app) {
      // Stands in for the shop's login, which stores the customer in the session.
      app.get('/api/test/customer', async (request) => {
        const { loggedIn } = request.query as { loggedIn?: string };
        await request.session.set({ customer: { loggedIn: loggedIn === 'true' } });
        return { ok: true };
      });
    },
  });
  const db = t.app.db;
  const image = await createImage(db);
  for (const siteId of ['sibylla', 'lihakauppa', 'mestariforsmanfi', 'konsernifi']) {
    const home = await createPage(db, { siteId, path: '/', type: 'home', title: 'Etusivu' });
    const products = await createPage(db, {
      siteId,
      path: '/tuotteet',
      title: 'Tuotteet',
      parentId: home.id,
      sortOrder: 1,
      teaserImageId: image.id,
    });
    await createPage(db, {
      siteId,
      path: '/tuotteet/makkarat',
      title: 'Makkarat',
      parentId: products.id,
    });
    await createPage(db, {
      siteId,
      path: '/reseptit',
      title: 'Reseptit',
      parentId: home.id,
      sortOrder: 2,
    });
    await createPage(db, {
      siteId,
      path: '/yhteystiedot',
      title: 'Yhteystiedot',
      parentId: home.id,
      navArea: 'top',
      icon: 'mail',
    });
  }
});

afterAll(() => t.close());

describe('the site header', () => {
  it('renders from the same navigation the API answers', async () => {
    const { html } = await page('sibylla.localhost', '/tuotteet/makkarat');
    const island = headerIsland(html);
    const api = (url: string) =>
      t.app.inject({ url, headers: { host: 'sibylla.localhost' } }).then((r) => r.json());
    expect(island.props.desktop).toEqual(await api('/api/nav/desktop?languageId=fi'));
    const mobile = island.props.mobile;
    expect(mobile.navAccordions.map((a) => [a.label, a.expanded])).toEqual([
      ['Tuotteet', true],
      ['Reseptit', false],
    ]);
    expect(island.props).toMatchObject({
      variant: 'brand',
      stickyThreshold: 200,
      searchAction: '/haku',
      currentPath: '/tuotteet/makkarat',
      cart: null,
      account: null,
    });
  });

  it('is markup the browser hydrates without a change', async () => {
    for (const [host, url] of [
      ['sibylla.localhost', '/tuotteet'],
      ['sibylla.localhost', '/en/'],
      ['lihakauppa.localhost', '/'],
      ['mestariforsmanfi.localhost', '/reseptit'],
      ['konsernifi.localhost', '/'],
      ['export.localhost', '/'],
    ] as const) {
      const island = headerIsland((await page(host, url)).html);
      expect(island.inner, `${host}${url}`).toBe(standalone(island));
    }
  });

  it('has disclosure toggles with names, states and panels, and marks the current page', async () => {
    const { html } = await page('sibylla.localhost', '/tuotteet');
    const toggle = /<button[^>]*aria-label="Näytä alavalikko: Tuotteet"[^>]*>/.exec(html)?.[0];
    expect(toggle).toContain('aria-expanded="false"');
    const controls = /aria-controls="([^"]+)"/.exec(toggle ?? '')?.[1];
    expect(html).toContain(`id="${controls}"`);
    expect(html).toMatch(/<a[^>]*href="\/tuotteet"[^>]*aria-current="page"/);
    expect(html).toContain('Näytä kaikki: Tuotteet');
    expect(html).toMatch(/src="\/images\/\d+\/tuotteet\.jpg\?preset=third"/);
    // Search: a GET form to the language's search page.
    expect(html).toMatch(/<form[^>]*role="search"[^>]*action="\/haku" method="get"/);
    expect(html).toContain('placeholder="Etsi tuote, resepti tai muuta tietoa"');
    // Sibylla has three languages: a menu under the current one.
    expect(html).toContain('aria-label="Kieli: suomi"');
  });

  it('keeps the closed side menu inert from the first HTML, its open accordion included', async () => {
    const { html } = await page('sibylla.localhost', '/tuotteet/makkarat');
    const dialog = /<div[^>]*role="dialog"[^>]*>/.exec(headerIsland(html).inner)?.[0];
    expect(dialog).toContain('inert=""');
    // The page's section is expanded in it, which showed its links through the closed menu.
    expect(html).toMatch(/aria-expanded="true"[^>]*aria-label="Näytä alavalikko: Tuotteet"/);
  });

  it('fetches no section picture for the closed side menu, only the hidden mega menu has it', async () => {
    // The closed menu sits just off screen, where `loading="lazy"` still fetches: each section's
    // picture there cost every page a download, its own section's (expanded) included.
    const { inner } = headerIsland((await page('sibylla.localhost', '/tuotteet/makkarat')).html);
    const pictures = [...inner.matchAll(/<img[^>]*src="\/images\/\d+\/tuotteet\.jpg[^"]*"/g)];
    expect(pictures).toHaveLength(1);
    // The one there is the desktop mega menu's, in a panel that is `hidden` (not rendered).
    const before = inner.slice(0, pictures[0]?.index);
    expect(before.lastIndexOf('data-panel')).toBeGreaterThan(before.lastIndexOf('role="dialog"'));
    expect(inner.slice(before.lastIndexOf('data-panel')).split('>')[0]).toContain('hidden=""');
  });

  it('shows in the logo no text but the name its link is named by (label in name)', async () => {
    const inner = headerIsland((await page('sibylla.localhost')).html).inner;
    const links = [...inner.matchAll(/<a[^>]*aria-label="Sibylla – etusivu"[^>]*>(.*?)<\/a>/gs)];
    // The header's and the side menu's.
    expect(links).toHaveLength(2);
    for (const [, logo = ''] of links) {
      // The initial is strokes cut out of the emblem (a mask); the name is the one text, and no
      // picture of the letter makes the browser load a document of its own (issue 14).
      expect([...logo.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual([
        'Sibylla',
      ]);
      expect(logo).not.toContain('<image');
      const stroke = /<mask[^>]*>.*?<path d="([^"]+)"/s.exec(logo)?.[1];
      expect(stroke).toBe(letterGlyph('S'));
    }
  });

  it('shows the shop’s cart and, to an anonymous visitor, the login link', async () => {
    const { html } = await page('lihakauppa.localhost');
    expect(html).toMatch(/<a[^>]*href="\/ostoskori#tuotteet"[^>]*aria-label="Ostoskori"/);
    const island = headerIsland(html);
    expect(island.props.stickyThreshold).toBe(130);
    expect(island.props.account).toEqual({ loginHref: '/kirjaudu', accountHref: '/oma-tili' });
    expect(island.props.visitor).toEqual({ lineItemCount: 0, loggedIn: false });
    expect(accountLink(html)).toEqual({ href: '/kirjaudu', text: 'Kirjaudu sisään' });
    expect(island.inner).not.toContain('Oma tili');
  });

  it('shows a logged-in customer of the session the shop’s account link', async () => {
    const login = async (loggedIn: boolean) => {
      const res = await t.app.inject({
        url: `/api/test/customer?loggedIn=${loggedIn}`,
        headers: { host: 'lihakauppa.localhost' },
      });
      expect(res.statusCode).toBe(200);
      return cookieHeader(res);
    };
    const customer = await login(true);
    const html = (await page('lihakauppa.localhost', '/', customer)).html;
    expect(headerIsland(html).props.visitor).toEqual({ lineItemCount: 0, loggedIn: true });
    expect(accountLink(html)).toEqual({ href: '/oma-tili', text: 'Oma tili' });
    expect(headerIsland(html).inner).not.toContain('Kirjaudu sisään');
    // The page filled for the customer is what hydration renders for them (decision 157).
    expect(headerIsland(html).inner).toBe(standalone(headerIsland(html)));
    // A customer the session holds without loggedIn: true is anonymous.
    const guest = await login(false);
    const asGuest = (await page('lihakauppa.localhost', '/', guest)).html;
    expect(accountLink(asGuest)).toEqual({ href: '/kirjaudu', text: 'Kirjaudu sisään' });
    // Other sites have no account link, logged in or not.
    const brand = (await page('sibylla.localhost', '/', customer)).html;
    expect(headerIsland(brand).props.account).toBeNull();
    expect(accountLink(brand)).toBeUndefined();
  });

  it('mounts the quick search in every search box, and hides only the shop inside a frame', async () => {
    const shop = headerIsland((await page('lihakauppa.localhost')).html);
    // Desktop box, sticky box, mobile panel and side menu: comboboxes over a listbox each.
    expect(shop.inner.match(/role="combobox"/g)).toHaveLength(4);
    expect(shop.inner.match(/role="listbox"/g)).toHaveLength(4);
    expect(shop.inner.match(/role="status"/g)).toHaveLength(4);
    expect(shop.props.hideInFrame).toBe(true);
    const brand = headerIsland((await page('sibylla.localhost')).html);
    expect(brand.props.hideInFrame).toBe(false);
  });

  it('gives the master-chef brand bottom tabs only and no side-menu search', async () => {
    const island = headerIsland((await page('mestariforsmanfi.localhost')).html);
    expect(island.props.desktop.topTabs).toHaveLength(1);
    expect(island.inner).not.toContain('Ylävalikko');
    // The desktop search box and the sticky one; none in the side menu.
    expect(island.inner.match(/role="search"/g)).toHaveLength(3);
    expect(island.inner).not.toContain('>Hae sivustolta</h3>');
  });

  it('links the language versions and searches in the page’s language', async () => {
    const en = headerIsland((await page('sibylla.localhost', '/en/')).html);
    expect(en.props.searchAction).toBe('/en/search');
    expect(en.props.desktop.languageMenu.map((l) => l.link)).toEqual(['/', '/sv/']);
    const corporate = (await page('konsernifi.localhost')).html;
    expect(corporate).toMatch(/<a[^>]*href="\/en\/"[^>]*hrefLang="en"[^>]*>.*?In English/s);
  });

  it('renders with empty menus on a site without pages, and on the error page', async () => {
    const home = await page('export.localhost');
    expect(home.status).toBe(200);
    const island = headerIsland(home.html);
    expect(island.props.desktop).toEqual({ topTabs: [], bottomTabs: [], languageMenu: [] });
    expect(island.props.searchAction).toBe('/search');
    const missing = await page('sibylla.localhost', '/ei-ole');
    expect(missing.status).toBe(404);
    expect(headerIsland(missing.html).props.desktop.bottomTabs.length).toBe(2);
  });
});
