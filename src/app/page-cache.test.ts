import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProduct } from '../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { registerWithAddress } from '../../tests/helpers/shop-customer.ts';
import { arrive, fromAddress, Visitor } from '../../tests/helpers/visitor.ts';
import { COUNTS_STALE_MS } from '../db/content-changes.ts';
import { LIKED_COOKIE } from '../features/content/likes/routes.server.ts';
import { LIKE_API } from '../features/content/likes/schemas.ts';
import { pages, products } from '../features/content/tables.ts';
import { CART_API } from '../features/shop/schemas.ts';
import { SESSION_COOKIE } from '../server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../server/plugins/xsrf.ts';
import { createCachedPage, createShopPages } from './page-cache.test-support.ts';

/** Decision 033: the rules of the page cache, through the whole app. */

const SHOP = { host: 'lihakauppa.localhost' };
const BRAND = { host: 'sibylla.localhost' };
const CAP = 400_000;
let t: TestApp;
let brandPageId = 0;
let steakId = 0;

const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';
const anonymous = (url: string, headers: Record<string, string> = SHOP) =>
  t.app.inject({ url, headers });

beforeAll(async () => {
  t = await createTestApp({ pageCacheBytes: CAP });
  const db = t.app.db;
  await createShopPages(db, 'Toimitamme tuoreena. '.repeat(400));
  const steak = await createProduct(db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/pihvi',
    code: '5100001',
    name: 'Naudan ulkofilepihvi 400 g',
    priceCents: 1290,
    stock: 40,
  });
  steakId = steak.id;
  brandPageId = (await createCachedPage(db, 'Yritys ennen')).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('anonymous visitors share a page', () => {
  it('answers the second request from the cache, the same page, with cookies of its own', async () => {
    // An empty cache, whichever tests ran before: a content change voids every kept page.
    await t.app.db.update(pages).set({ title: 'Yritys' }).where(eq(pages.id, brandPageId));
    const first = await anonymous('/toimitukset');
    const second = await anonymous('/toimitukset');
    expect(first.statusCode).toBe(200);
    expect(hit(first)).toBe(false);
    expect(hit(second)).toBe(true);
    expect(second.body).toBe(first.body);
    // Each visitor gets a session and an anti-forgery token of their own, never in the page.
    const token = (r: LightMyRequestResponse, name: string) =>
      r.cookies.find((c) => c.name === name)?.value ?? '';
    expect(token(second, SESSION_COOKIE)).not.toBe(token(first, SESSION_COOKIE));
    for (const r of [first, second]) {
      expect(token(r, XSRF_COOKIE)).not.toBe('');
      expect(second.body).not.toContain(token(r, SESSION_COOKIE));
      expect(second.body).not.toContain(token(r, XSRF_COOKIE));
    }
    expect(second.headers['cache-control']).toContain('private');
  });

  it('sends the page compressed once it is kept compressed', async () => {
    await anonymous('/toimitukset');
    // The compressed forms are made in the background just after the page is kept.
    await new Promise((r) => setTimeout(r, 200));
    const br = await t.app.inject({
      url: '/toimitukset',
      headers: { ...SHOP, 'accept-encoding': 'br, gzip' },
    });
    expect(hit(br)).toBe(true);
    expect(br.headers['content-encoding']).toBe('br');
  });

  it('keeps a page per host: another site never gets it', async () => {
    await anonymous('/', BRAND);
    const shop = await anonymous('/');
    expect(shop.body).toContain('data-site="lihakauppa"');
    expect(shop.body).not.toContain('data-site="sibylla"');
  });
});

describe('a content change shows on the next request', () => {
  it('after a page is edited', async () => {
    await anonymous('/yritys', BRAND);
    expect(hit(await anonymous('/yritys', BRAND))).toBe(true);
    await t.app.db.update(pages).set({ title: 'Yritys nyt' }).where(eq(pages.id, brandPageId));
    const next = await anonymous('/yritys', BRAND);
    expect(hit(next)).toBe(false);
    expect(next.body).toContain('Yritys nyt');
    expect(next.body).not.toContain('Yritys ennen');
  });

  it('after a product’s stock changes (a shop write, not the page tree)', async () => {
    const before = await anonymous('/tuotteet/pihvi');
    expect(before.statusCode).toBe(200);
    expect(hit(await anonymous('/tuotteet/pihvi'))).toBe(true);
    await t.app.db
      .update(products)
      .set({ name: 'Naudan ulkofilepihvi 500 g' })
      .where(eq(products.id, steakId));
    const next = await anonymous('/tuotteet/pihvi');
    expect(hit(next)).toBe(false);
    expect(next.body).toContain('Naudan ulkofilepihvi 500 g');
  });

  it('after a change inside a transaction, once it commits', async () => {
    await anonymous('/yritys', BRAND);
    await t.app.db.transaction(async (tx) => {
      await tx.update(pages).set({ title: 'Yritys tänään' }).where(eq(pages.id, brandPageId));
    });
    expect((await anonymous('/yritys', BRAND)).body).toContain('Yritys tänään');
  });
});

describe('a like is not a content change (decision 053)', () => {
  it('keeps serving pages after a like, and remakes those made before it once they are a minute old', async () => {
    await anonymous('/yritys', BRAND);
    expect(hit(await anonymous('/yritys', BRAND))).toBe(true);
    await t.app.db
      .update(products)
      .set({ likeCount: sql`${products.likeCount} + 1` })
      .where(eq(products.id, steakId));
    // Every site's pages stay: a storm of likes does not empty the cache on each one.
    expect(hit(await anonymous('/yritys', BRAND))).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + COUNTS_STALE_MS);
      const remade = await anonymous('/yritys', BRAND);
      expect(hit(remade)).toBe(false);
      // Made after the like: served again, whatever its age.
      expect(hit(await anonymous('/yritys', BRAND))).toBe(true);
      vi.setSystemTime(Date.now() + 10 * COUNTS_STALE_MS);
      expect(hit(await anonymous('/yritys', BRAND))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the visitor whose like counted gets pages of their own for that minute', async () => {
    await anonymous('/tuotteet/pihvi');
    expect(hit(await anonymous('/tuotteet/pihvi'))).toBe(true);
    const liker = fromAddress(await arrive(t.app, '/', SHOP), '10.0.0.31');
    const liked = await liker.post(`${LIKE_API}/product-${steakId}`);
    expect(liked.statusCode, liked.body).toBe(200);
    expect(liked.json()).toMatchObject({ counted: true });
    const cookie = [liked.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith(LIKED_COOKIE));
    expect(cookie).toContain(`Max-Age=${COUNTS_STALE_MS / 1000}`);
    const theirs = await t.app.inject({
      url: '/tuotteet/pihvi',
      headers: { ...SHOP, cookie: `${liker.cookie}; ${LIKED_COOKIE}=1` },
    });
    expect(hit(theirs)).toBe(false);
    expect(hit(await anonymous('/tuotteet/pihvi'))).toBe(true);
    // A like that counts nothing (the same visitor again) sets no cookie.
    const again = await liker.post(`${LIKE_API}/product-${steakId}`);
    expect(again.json()).toMatchObject({ counted: false });
    expect([again.headers['set-cookie'] ?? []].flat().some((c) => c.startsWith(LIKED_COOKIE))).toBe(
      false,
    );
  });
});

describe('a visitor’s own data is never shared', () => {
  it('a visitor with a cart gets their badge in the shared page, which keeps none of it (decision 157)', async () => {
    const shopper = fromAddress(await arrive(t.app, '/', SHOP), '10.0.0.21');
    const added = await shopper.post(`${CART_API}/add?language=fi&code=5100001&quantity=2`);
    expect(added.statusCode).toBe(200);
    // The cache is empty for this path (a content change above voided it): the shopper first.
    await t.app.db.update(pages).set({ title: 'Yritys' }).where(eq(pages.id, brandPageId));
    const theirs = await shopper.get('/toimitukset');
    expect(hit(theirs)).toBe(false);
    expect(theirs.body).toContain('data-cart-count="1"');
    // The page was kept as a guest sees it.
    const next = await anonymous('/toimitukset');
    expect(hit(next)).toBe(true);
    expect(next.body).toContain('data-cart-count="0"');
    const again = await shopper.get('/toimitukset');
    expect(hit(again)).toBe(true);
    expect(again.body).toContain('data-cart-count="1"');
    expect(again.headers['cache-control']).toContain('private');
  });

  it('a logged-in customer gets their login state in the shared page, and leaves none of it', async () => {
    const customer = fromAddress(await arrive(t.app, '/', SHOP), '10.0.0.22');
    await registerWithAddress(customer, 'cache-test@example.fi', 'a-long-password-123', '00100');
    const shared = await anonymous('/toimitukset');
    expect(shared.body).toContain('href="/kirjaudu"');
    const theirs = await customer.get('/toimitukset');
    expect(hit(theirs)).toBe(true);
    expect(theirs.body).toContain('href="/oma-tili"');
    expect(theirs.body).not.toContain('href="/kirjaudu"');
    const after = await anonymous('/toimitukset');
    expect(after.body).not.toContain('href="/oma-tili"');
    expect(after.body).not.toContain('Maija');
  });

  it('a request with another cookie (a cart notice, consent) is made for it alone', async () => {
    await anonymous('/toimitukset');
    const other = await t.app.inject({
      url: '/toimitukset',
      headers: { ...SHOP, cookie: 'kattaus_cart_notice=x' },
    });
    expect(hit(other)).toBe(false);
  });

  it('a new visitor’s first page holds no token of theirs when it is kept', async () => {
    await t.app.db.update(pages).set({ title: 'Yritys' }).where(eq(pages.id, brandPageId));
    const visitor = new Visitor(t.app, SHOP);
    const first = await visitor.get('/toimitukset');
    const kept = await anonymous('/toimitukset');
    expect(hit(kept)).toBe(true);
    expect(kept.body).not.toContain(visitor.jar.get(SESSION_COOKIE) ?? '-');
    expect(kept.body).not.toContain(visitor.jar.get(XSRF_COOKIE) ?? '-');
    expect(first.body).toBe(kept.body);
  });
});

describe('the shop’s personal pages are never kept', () => {
  it.each(['/ostoskori', '/kassa', '/kirjaudu', '/oma-tili', '/kassa/vahvistus'])(
    '%s',
    async (path) => {
      const visitor = new Visitor(t.app, SHOP);
      await visitor.get('/');
      const count = t.app.pageCache.count;
      for (let i = 0; i < 3; i++) {
        const anon = await anonymous(path);
        const own = await visitor.get(path);
        expect(hit(anon)).toBe(false);
        expect(hit(own)).toBe(false);
      }
      expect(t.app.pageCache.count).toBe(count);
    },
  );

  it('the cart page with its form token stays out even for a visitor with no cart', async () => {
    const visitor = await arrive(t.app, '/', SHOP);
    const cart = await visitor.get('/ostoskori');
    expect(cart.statusCode).toBe(200);
    expect(cart.body).toContain(visitor.xsrfToken ?? '-');
    expect(hit(await anonymous('/ostoskori'))).toBe(false);
  });
});

describe('memory', () => {
  it('stays under its cap however many pages are asked for', async () => {
    for (let i = 0; i < 40; i++) await anonymous(`/toimitukset?v=${i}`);
    // Let the background compression of the last pages finish.
    await new Promise((r) => setTimeout(r, 300));
    expect(t.app.pageCache.size).toBeLessThanOrEqual(CAP);
    expect(t.app.pageCache.count).toBeLessThan(40);
    expect(t.app.pageCache.count).toBeGreaterThan(1);
  });
});
