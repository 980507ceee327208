import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../../tests/factories/index.ts';
import { cookieHeader, createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { pageVisitorData } from '../../../../tests/helpers/visitor.ts';

/**
 * The shop's side of cart sync on the server: the `/cart-sync` page the brand sites frame, the
 * origins it answers, its cookies (partitioned in a frame under another site), the header's cart
 * summary on the shop and on a brand site that sells through it.
 */

let t: TestApp;
const CODE = '7770001';

beforeAll(async () => {
  t = await createTestApp({ config: { siteHosts: { jyvabroiler: ['www.jyva.example'] } } });
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/broilerin-fileet',
    code: CODE,
    name: 'Broilerin fileet 400 g',
    priceCents: 695,
    stock: null,
  });
});
afterAll(() => t.close());

function islandProps(html: string, name: string): Record<string, unknown> {
  const match = new RegExp(`<k-island[^>]*data-name="${name}"[^>]*data-props="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no ${name} island`);
  return JSON.parse((match[1] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
}

describe('the shop’s /cart-sync page', () => {
  it('answers on the shop with the frame’s script and the selling sites’ origins only', async () => {
    const res = await t.app.inject({
      url: '/cart-sync',
      headers: { host: 'lihakauppa.localhost:3000' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/private|no-store/);
    const origins = /<div id="cart-sync" data-allowed-origins="([^"]*)"/.exec(res.body)?.[1] ?? '';
    expect(JSON.parse(origins.replaceAll('&quot;', '"').replaceAll('&amp;', '&'))).toEqual([
      'http://www.jyva.example',
      'http://jyvabroiler.localhost:3000',
      'http://mestariforsmanfi.localhost:3000',
    ]);
    // No header, no islands, no styles: the frame's own script only (decision 061), and the
    // selling sites may frame it (decision 012).
    expect(res.body).not.toContain('<k-island');
    expect(res.body).not.toContain('rel="stylesheet"');
    expect(res.body).toContain('<script type="module" src="/assets/frame-entry.ts">');
    expect(res.headers['content-security-policy']).toMatch(
      /frame-ancestors[^;]*jyvabroiler\.localhost:\*/,
    );
  });

  it('is not on the other sites', async () => {
    const res = await t.app.inject({ url: '/cart-sync', headers: { host: 'sibylla.localhost' } });
    expect(res.statusCode).toBe(404);
  });

  it('sets the session cookies partitioned when framed by another site, Lax otherwise', async () => {
    const framed = await t.app.inject({
      url: '/cart-sync',
      headers: {
        host: 'lihakauppa.localhost:3000',
        'sec-fetch-dest': 'iframe',
        'sec-fetch-site': 'cross-site',
      },
    });
    const setCookies = ([] as string[]).concat(framed.headers['set-cookie'] ?? []);
    expect(setCookies).toHaveLength(2);
    for (const cookie of setCookies) {
      expect(cookie).toMatch(/; SameSite=None/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Partitioned/);
    }
    const top = await t.app.inject({ url: '/', headers: { host: 'lihakauppa.localhost:3000' } });
    for (const cookie of ([] as string[]).concat(top.headers['set-cookie'] ?? [])) {
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/Partitioned|Secure/);
    }
  });

  it('keeps the frame’s session partitioned through the first add, which rotates its token', async () => {
    const page = await t.app.inject({
      url: '/cart-sync',
      headers: {
        host: 'lihakauppa.localhost',
        'sec-fetch-dest': 'iframe',
        'sec-fetch-site': 'cross-site',
      },
    });
    const xsrf = page.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/v1/lihakauppa/shoppingcart/add?language=fi&code=${CODE}&quantity=2`,
      headers: {
        host: 'lihakauppa.localhost',
        cookie: cookieHeader(page),
        'x-xsrf-token': xsrf,
        'x-kattaus-frame': 'cart-sync',
      },
    });
    expect(add.statusCode).toBe(200);
    const session = ([] as string[])
      .concat(add.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('kattaus_session='));
    expect(session).toMatch(/; SameSite=None.*; Partitioned|; Partitioned.*; SameSite=None/);
  });
});

describe('the header’s cart summary', () => {
  it('on the shop: count, total, not loading, the delivery street address (none here)', async () => {
    const first = await t.app.inject({ url: '/', headers: { host: 'lihakauppa.localhost' } });
    const cookie = cookieHeader(first);
    const xsrf = first.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
    const add = await t.app.inject({
      method: 'POST',
      url: `/api/v1/lihakauppa/shoppingcart/add?language=fi&code=${CODE}&quantity=3`,
      headers: { host: 'lihakauppa.localhost', cookie, 'x-xsrf-token': xsrf },
    });
    expect(add.statusCode).toBe(200);
    const page = await t.app.inject({
      url: '/',
      headers: { host: 'lihakauppa.localhost', cookie: cookieHeader(add) },
    });
    const { cart } = islandProps(page.body, 'site-header') as { cart: Record<string, unknown> };
    // The page's shared part (decision 157): the link and whether it is loading.
    expect(cart).toEqual({ href: '/ostoskori#tuotteet', loading: false, sync: null });
    // The visitor's part stands apart: the line items of their cart (not the sum of quantities).
    expect(pageVisitorData(page.body)).toEqual({ lineItemCount: 1, loggedIn: false });
  });

  it('on a selling brand site: an empty loading cart, the shop’s cart link and frame', async () => {
    const page = await t.app.inject({ url: '/', headers: { host: 'jyvabroiler.localhost:3000' } });
    // The header that syncs the cart through the shop's frame (decision 160).
    const { cart } = islandProps(page.body, 'site-header-synced') as {
      cart: Record<string, unknown>;
    };
    expect(pageVisitorData(page.body)).toEqual({ lineItemCount: 0, loggedIn: false });
    expect(cart).toEqual({
      href: 'http://lihakauppa.localhost:3000/ostoskori#tuotteet',
      loading: true,
      sync: {
        frameUrl: 'http://lihakauppa.localhost:3000/cart-sync',
        shopOrigin: 'http://lihakauppa.localhost:3000',
        frameTitle: 'Ostoskori',
      },
    });
    // A site that does not sell through the shop has no cart at all.
    const other = await t.app.inject({ url: '/', headers: { host: 'sibylla.localhost' } });
    expect(islandProps(other.body, 'site-header').cart).toBeNull();
  });
});
