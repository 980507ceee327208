import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createProduct } from '../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';
import { registerWithAddress } from '../../tests/helpers/shop-customer.ts';
import { arrive, fromAddress, pageVisitorData, type Visitor } from '../../tests/helpers/visitor.ts';
import { pages } from '../features/content/tables.ts';
import { ACCOUNT_API } from '../features/shop/customer/schemas.ts';
import { CART_API } from '../features/shop/schemas.ts';
import { SESSION_COOKIE } from '../server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../server/plugins/xsrf.ts';
import { createShopPages } from './page-cache.test-support.ts';

/**
 * Decision 157: a shared page with the visitor's holes filled per request. Three visitors — a
 * guest, a shopper with a cart line, a logged-in customer with a cart — on the same pages: each
 * sees only their own cart count, account link and visitor data, from the cache or not, and a
 * page kept while one of them asked first never shows their part to another. In the parity suite:
 * on PGlite and on PostgreSQL.
 */

const SHOP = { host: 'lihakauppa.localhost' };
let t: TestApp;
let shopper: Visitor;
let customer: Visitor;
const PATHS = ['/', '/toimitukset', '/tuotteet/pihvi'];

const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';
const guest = (url: string) => t.app.inject({ url, headers: SHOP });

/** What a page shows of its visitor: header cart count, account link, visitor data. */
function shown(html: string) {
  const cart = /<a data-hole="header-cart"[^>]*data-cart-count="(\d+)"/.exec(html)?.[1];
  const account = /<a data-hole="header-account"[^>]*href="([^"]+)"/.exec(html)?.[1];
  return {
    lineItemCount: Number(cart),
    account,
    visitor: pageVisitorData(html),
  };
}

const GUEST = {
  lineItemCount: 0,
  account: '/kirjaudu',
  visitor: { lineItemCount: 0, loggedIn: false },
};
const SHOPPER = {
  lineItemCount: 1,
  account: '/kirjaudu',
  visitor: { lineItemCount: 1, loggedIn: false },
};
const CUSTOMER = {
  lineItemCount: 2,
  account: '/oma-tili',
  visitor: { lineItemCount: 2, loggedIn: true },
};

/** Voids every kept page: a content change (decision 033). */
async function emptyCache() {
  await t.app.db.update(pages).set({ updatedAt: new Date() });
}

/** The tokens a visitor's cookies carry: none may stand in a page another visitor gets. */
function tokensOf(v: Visitor): string[] {
  return [v.jar.get(SESSION_COOKIE), v.jar.get(XSRF_COOKIE)].filter(
    (token): token is string => token !== undefined && token !== '',
  );
}

beforeAll(async () => {
  t = await createTestApp({ pageCacheBytes: 4_000_000 });
  const db = t.app.db;
  await createShopPages(db, 'Toimitamme tuoreena.');
  for (const [code, name] of [
    ['5100001', 'Naudan ulkofilepihvi 400 g'],
    ['5100002', 'Porsaan kassler 1 kg'],
  ] as const) {
    await createProduct(db, {
      siteId: 'lihakauppa',
      kind: 'shop-product',
      path: code === '5100001' ? '/tuotteet/pihvi' : '/tuotteet/kassler',
      code,
      name,
      priceCents: 1290,
      stock: 40,
    });
  }
  shopper = fromAddress(await arrive(t.app, '/', SHOP), '10.0.1.21');
  expect(
    (await shopper.post(`${CART_API}/add?language=fi&code=5100001&quantity=2`)).statusCode,
  ).toBe(200);
  customer = fromAddress(await arrive(t.app, '/', SHOP), '10.0.1.22');
  await registerWithAddress(customer, 'holes@example.fi', 'a-long-password-123', '00100');
  for (const code of ['5100001', '5100002']) {
    expect((await customer.post(`${CART_API}/add?language=fi&code=${code}`)).statusCode).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

beforeEach(emptyCache);

describe('three visitors on one shared page', () => {
  it.each(PATHS)(
    '%s: each sees their own count, link and data, from the cache too',
    async (path) => {
      for (let round = 0; round < 2; round++) {
        const answers = {
          guest: await guest(path),
          shopper: await shopper.get(path),
          customer: await customer.get(path),
        };
        expect(shown(answers.guest.body)).toEqual(GUEST);
        expect(shown(answers.shopper.body)).toEqual(SHOPPER);
        expect(shown(answers.customer.body)).toEqual(CUSTOMER);
        for (const answer of Object.values(answers)) expect(answer.statusCode).toBe(200);
        // The second round is answered from the kept page (the guest's) and its variants.
        if (round === 1)
          for (const answer of Object.values(answers)) expect(hit(answer)).toBe(true);
        // Besides its holes, the page is the same bytes for all three.
        const holesOut = (html: string) =>
          html
            .replace(/<a data-hole="[^"]+"[^>]*>.*?<\/a>/gs, '')
            .replace(/<script data-hole="visitor"[^>]*>.*?<\/script>/s, '');
        expect(holesOut(answers.shopper.body)).toBe(holesOut(answers.guest.body));
        expect(holesOut(answers.customer.body)).toBe(holesOut(answers.guest.body));
        // The visitor's answer stays theirs downstream.
        expect(answers.shopper.headers['cache-control']).toContain('private');
        expect(answers.customer.headers['cache-control']).toContain('private');
      }
    },
  );

  it.each(['shopper', 'customer'] as const)(
    'a page first made for the %s is kept as the guest sees it',
    async (who) => {
      const first = who === 'shopper' ? shopper : customer;
      const theirs = await first.get('/toimitukset');
      expect(hit(theirs)).toBe(false);
      expect(shown(theirs.body)).toEqual(who === 'shopper' ? SHOPPER : CUSTOMER);
      const next = await guest('/toimitukset');
      expect(hit(next)).toBe(true);
      expect(shown(next.body)).toEqual(GUEST);
      for (const token of tokensOf(first)) expect(next.body).not.toContain(token);
    },
  );

  it('never puts a visitor’s session or anti-forgery token into a page another gets', async () => {
    for (const path of PATHS) {
      const pagesSeen = [
        (await customer.get(path)).body,
        (await shopper.get(path)).body,
        (await guest(path)).body,
      ];
      for (const html of pagesSeen) {
        for (const token of [...tokensOf(shopper), ...tokensOf(customer)]) {
          expect(html).not.toContain(token);
        }
      }
    }
  });

  it('follows the cart: a line added shows on the next page, for that shopper only', async () => {
    const other = fromAddress(await arrive(t.app, '/', SHOP), '10.0.1.23');
    await other.post(`${CART_API}/add?language=fi&code=5100002`);
    expect(shown((await other.get('/toimitukset')).body).lineItemCount).toBe(1);
    await other.post(`${CART_API}/add?language=fi&code=5100001`);
    const after = await other.get('/toimitukset');
    expect(hit(after)).toBe(true);
    expect(shown(after.body).lineItemCount).toBe(2);
    expect(shown((await shopper.get('/toimitukset')).body)).toEqual(SHOPPER);
    expect(shown((await guest('/toimitukset')).body)).toEqual(GUEST);
  });

  it('shows a customer who logs out the guest’s header at once', async () => {
    const leaving = fromAddress(await arrive(t.app, '/', SHOP), '10.0.1.24');
    await registerWithAddress(leaving, 'holes-out@example.fi', 'a-long-password-123', '00100');
    expect(shown((await leaving.get('/toimitukset')).body).account).toBe('/oma-tili');
    const out = await leaving.post(`${ACCOUNT_API}/logout`);
    expect(out.statusCode).toBeLessThan(400);
    expect(shown((await leaving.get('/toimitukset')).body)).toEqual(GUEST);
  });
});

describe('the shop’s personal pages', () => {
  it('carry the requesting visitor’s own anti-forgery token, never another’s', async () => {
    const mine = await shopper.get('/ostoskori');
    const theirs = await customer.get('/ostoskori');
    for (const answer of [mine, theirs]) {
      expect(answer.statusCode).toBe(200);
      expect(hit(answer)).toBe(false);
    }
    expect(mine.body).toContain(`value="${shopper.xsrfToken}"`);
    expect(theirs.body).toContain(`value="${customer.xsrfToken}"`);
    expect(mine.body).not.toContain(customer.xsrfToken ?? '-');
    expect(theirs.body).not.toContain(shopper.xsrfToken ?? '-');
    expect(shown(mine.body)).toEqual(SHOPPER);
    expect(shown(theirs.body)).toEqual(CUSTOMER);
    // The account page, rendered for the customer alone, shows their header directly.
    const account = await customer.get('/oma-tili');
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain(`value="${customer.xsrfToken}"`);
    expect(shown(account.body)).toEqual(CUSTOMER);
  });
});
