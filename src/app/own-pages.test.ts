import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPage } from '../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { arrive, fromAddress, type Visitor } from '../../tests/helpers/visitor.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  HOST,
  hold,
  POSTAL_CODE,
} from '../features/shop/orders/checkout.test-support.ts';
import { deliverySlotBookings } from '../features/shop/tables.ts';
import { OWN_PAGE_MS } from '../render/page-cache.ts';
import { SESSION_COOKIE } from '../server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../server/plugins/xsrf.ts';

/**
 * Decision 163: a visitor's own page — the cart page, the checkout — answers that visitor again
 * from memory for a moment, as it was made for them, until anything of any visitor's or of the
 * content changes. Another session never gets it; a page with a notice, a held cart page and a
 * page of a refused post are never kept. In the parity suite: on PGlite and on PostgreSQL.
 */

let t: TestApp;
const CHECKOUT = `/kassa?postinumero=${POSTAL_CODE}`;

const own = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'own';
/** The cart page's lines as its island's props name them. */
const cartCodes = (html: string) =>
  [...html.matchAll(/&quot;code&quot;:&quot;(\d+)&quot;/g)].map((m) => m[1]);

function tokensOf(v: Visitor): string[] {
  return [v.jar.get(SESSION_COOKIE), v.jar.get(XSRF_COOKIE)].filter(
    (token): token is string => token !== undefined && token !== '',
  );
}

let shoppers = 0;
async function shopper(): Promise<Visitor> {
  shoppers += 1;
  return fromAddress(await arrive(t.app, '/', { host: HOST }), `10.9.0.${shoppers}`);
}

beforeAll(async () => {
  t = await createTestApp({ pageCacheBytes: 4_000_000 });
  await createCheckoutShop(t.app.db, { slotCapacity: 1000 });
  await createPage(t.app.db, {
    siteId: 'lihakauppa',
    path: '/ostoskori',
    type: 'cart',
    title: 'Ostoskori',
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the cart page', () => {
  it('answers its visitor again from memory, the same bytes, and nobody else', async () => {
    const a = await shopper();
    const b = await shopper();
    await addToCart(a, CODES.plain, 2);
    await addToCart(b, CODES.box);
    const first = await a.get('/ostoskori');
    expect(first.statusCode).toBe(200);
    expect(own(first)).toBe(false);
    const again = await a.get('/ostoskori');
    expect(own(again)).toBe(true);
    expect(again.body).toBe(first.body);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(cartCodes(again.body)).toContain(CODES.plain);

    // Another session asks for the same address: made for them, with their lines and tokens.
    const other = await b.get('/ostoskori');
    expect(own(other)).toBe(false);
    expect(cartCodes(other.body)).toContain(CODES.box);
    expect(cartCodes(other.body)).not.toContain(CODES.plain);
    for (const token of tokensOf(a)) expect(other.body).not.toContain(token);
    expect(own(await b.get('/ostoskori'))).toBe(true);
    expect(cartCodes((await a.get('/ostoskori')).body)).not.toContain(CODES.box);
  });

  it('is made afresh after a change to any cart, and for a guest never kept', async () => {
    const a = await shopper();
    await addToCart(a, CODES.plain);
    await a.get('/ostoskori');
    expect(own(await a.get('/ostoskori'))).toBe(true);
    await addToCart(a, CODES.box);
    const changed = await a.get('/ostoskori');
    expect(own(changed)).toBe(false);
    expect(cartCodes(changed.body)).toEqual(expect.arrayContaining([CODES.plain, CODES.box]));

    // Another visitor's cart changing voids it as well: what was kept of any visitor is void.
    expect(own(await a.get('/ostoskori'))).toBe(true);
    await addToCart(await shopper(), CODES.plain);
    expect(own(await a.get('/ostoskori'))).toBe(false);

    const guest = () => t.app.inject({ url: '/ostoskori', headers: { host: HOST } });
    await guest();
    expect(own(await guest())).toBe(false);
  });

  it('is kept for a moment only', async () => {
    const a = await shopper();
    await addToCart(a, CODES.plain);
    await a.get('/ostoskori');
    expect(own(await a.get('/ostoskori'))).toBe(true);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + OWN_PAGE_MS });
    expect(own(await a.get('/ostoskori'))).toBe(false);
  });

  it('is not kept with the notice of a plain form post, nor while a delivery time is held', async () => {
    const a = await buyer(t.app);
    await addToCart(a, CODES.plain);
    // A refused quantity: the answer goes back to the cart page, which shows the notice once.
    const refused = await a.post('/ostoskori', {
      payload: new URLSearchParams({
        _xsrf: a.xsrfToken ?? '',
        [`quantity.${CODES.plain}`]: '100',
        action: 'update',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refused.statusCode).toBe(303);
    const withNotice = await a.get('/ostoskori');
    expect(own(withNotice)).toBe(false);
    expect(own(await a.get('/ostoskori'))).toBe(false);
    expect(own(await a.get('/ostoskori'))).toBe(true);

    expect((await hold(a)).statusCode).toBe(200);
    await a.get('/ostoskori');
    expect(own(await a.get('/ostoskori'))).toBe(false);
  });
});

describe('the checkout', () => {
  it('answers its customer again, is void after a booking of a delivery time, ends at logout', async () => {
    const a = await buyer(t.app);
    await addToCart(a, CODES.plain);
    const first = await a.get(CHECKOUT);
    expect(first.statusCode, first.body).toBe(200);
    const again = await a.get(CHECKOUT);
    expect(own(again)).toBe(true);
    expect(again.body).toBe(first.body);
    expect(again.headers['cache-control']).toBe('no-store');

    // Someone else's order books a delivery time: the slots the page shows may have changed.
    await t.app.db.update(deliverySlotBookings).set({ sold: deliverySlotBookings.sold });
    expect(own(await a.get(CHECKOUT))).toBe(false);
    expect(own(await a.get(CHECKOUT))).toBe(true);

    const b = await buyer(t.app);
    await addToCart(b, CODES.box);
    const other = await b.get(CHECKOUT);
    expect(own(other)).toBe(false);
    for (const token of tokensOf(a)) expect(other.body).not.toContain(token);

    expect((await a.post('/api/lk/account/logout?language=fi')).statusCode).toBeLessThan(300);
    const out = await a.get(CHECKOUT);
    expect(out.statusCode).toBe(303);
  });
});
