import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImage,
  createPage,
  createProduct,
  createShopProducts,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { Visitor } from '../../../tests/helpers/visitor.ts';
import { fi } from '../../i18n/fi.ts';
import { SESSION_COOKIE } from '../../server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../../server/plugins/xsrf.ts';
import { sessions } from '../../server/tables.ts';
import { products } from '../content/tables.ts';
import { CART_API, type Cart, cartSchema } from './schemas.ts';
import { cartLineItems, carts } from './tables.ts';

const HOST = 'lihakauppa.localhost';
let t: TestApp;
const code = {
  steak: '5100001',
  mince: '5100002',
  soldOut: '5100003',
  few: '5100004',
  gift: '5100005',
  retired: '5100006',
  brandOnly: '5100007',
};
let steakId = 0;
let steakImage = 0;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const image = await createImage(db);
  steakImage = image.id;
  const [steak] = await createShopProducts(db, [
    {
      path: '/tuotteet/naudan-ulkofilepihvi',
      code: code.steak,
      name: 'Naudan ulkofilepihvi 400 g',
      productGroup: 'Naudanliha',
      imageIds: [image.id],
      priceCents: 1290,
      stock: null,
    },
    {
      path: '/tuotteet/jauheliha',
      code: code.mince,
      name: 'Naudan jauheliha 10 % 1 kg',
      productGroup: 'Jauhelihat',
      priceCents: 1149,
      stock: 40,
    },
    { path: '/tuotteet/loppunut', code: code.soldOut, priceCents: 990, stock: 0 },
    { path: '/tuotteet/vahissa', code: code.few, priceCents: 2490, stock: 3 },
    {
      path: '/lahjakortit/lahjakortti-50',
      code: code.gift,
      name: 'Lahjakortti 50 €',
      priceCents: 5000,
      isGiftCard: true,
    },
    { path: '/tuotteet/poistuva', code: code.retired, priceCents: 500 },
  ]);
  if (!steak) throw new Error('no steak');
  steakId = steak.id;
  // The same code on a brand site, without a price: not the shop's product.
  await createProduct(db, { siteId: 'jyvabroiler', path: '/tuotteet/x', code: code.brandOnly });
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
  await createPage(db, { siteId: 'jyvabroiler', path: '/', type: 'home', title: 'Jyväbroileri' });
});

afterAll(async () => {
  await t?.close();
});

/** A shop customer's browser (see `Visitor`), with the cart calls the shop's widgets make. */
class Shopper extends Visitor {
  constructor() {
    super(t.app, { host: HOST });
  }

  async cart(response: LightMyRequestResponse): Promise<Cart> {
    expect(response.statusCode, response.body).toBe(200);
    return cartSchema.parse(response.json());
  }

  load() {
    return this.get(`${CART_API}/load?language=fi`).then((r) => this.cart(r));
  }

  add(productCode: string, quantity = 1) {
    return this.post(`${CART_API}/add?language=fi&code=${productCode}&quantity=${quantity}`);
  }

  change(productCode: string, quantity: number) {
    return this.post(
      `${CART_API}/changequantity?language=fi&code=${productCode}&quantity=${quantity}`,
    );
  }

  /** A visitor who has looked at a page: session and anti-forgery cookies, nothing stored. */
  static async arrive(): Promise<Shopper> {
    const visitor = new Shopper();
    await visitor.load();
    expect(visitor.xsrfToken).toBeTruthy();
    return visitor;
  }
}

const quantities = (cart: Cart) =>
  Object.fromEntries(cart.lineItems.map((item) => [item.code, item.quantity]));

function expectProblem(response: LightMyRequestResponse, status: number) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  return response.json() as { type: string; errors?: Record<string, string> };
}

describe('load', () => {
  it('answers an empty cart in the contract shape, without storing anything', async () => {
    const before = await t.app.db.select().from(sessions);
    const visitor = new Shopper();
    const response = await visitor.get(`${CART_API}/load?language=fi`);
    expect(response.headers['cache-control']).toBe('no-store');
    const cart = await visitor.cart(response);
    expect(cart).toMatchObject({
      lineItemCount: 0,
      lineItems: [],
      total: '0,00',
      subTotal: '0,00',
      currency: 'EUR',
      currencySymbol: '€',
      hasGiftCardsOnly: false,
      isEditable: true,
    });
    expect(await t.app.db.select().from(sessions)).toHaveLength(before.length);
  });

  it('takes Finnish when no language is given', async () => {
    const response = await new Shopper().get(`${CART_API}/load`);
    expect(response.statusCode).toBe(200);
  });
});

describe('add', () => {
  it('adds a line with prices as strings with a decimal comma, and load shows it', async () => {
    const visitor = await Shopper.arrive();
    const tokenBefore = visitor.jar.get(SESSION_COOKIE);
    const cart = await visitor.cart(await visitor.add(code.steak, 2));
    expect(cart.lineItemCount).toBe(1);
    expect(cart.lineItems).toEqual([
      {
        code: code.steak,
        productId: steakId,
        name: 'Naudan ulkofilepihvi 400 g',
        category: 'Naudanliha',
        quantity: 2,
        linePrice: '25,80',
        linePriceWithoutDiscounts: '25,80',
        imageUrl: `/images/${steakImage}/naudan-ulkofilepihvi-400-g.jpg?preset=product-thumbnail-medium`,
        isGiftCard: false,
        url: '/tuotteet/naudan-ulkofilepihvi',
        unitPrice: '12,90',
        maxQuantity: 99,
        vatPercent: 13.5,
      },
    ]);
    expect(cart.total).toBe('25,80');
    // The first store gives the visitor a fresh session token (no data on a planted token).
    expect(visitor.jar.get(SESSION_COOKIE)).not.toBe(tokenBefore);
    expect(await visitor.load()).toEqual(cart);
  });

  it('sums the quantities of the same code, one after the other', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.mince, 1);
    const cart = await visitor.cart(await visitor.add(code.mince, 3));
    expect(cart.lineItemCount).toBe(1);
    expect(quantities(cart)).toEqual({ [code.mince]: 4 });
    expect(cart.total).toBe('45,96');
  });

  it('sums a double click: two adds at once make one line with both quantities', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.steak, 1);
    const [a, b] = await Promise.all([visitor.add(code.mince, 2), visitor.add(code.mince, 2)]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    const cart = await visitor.load();
    expect(quantities(cart)).toEqual({ [code.steak]: 1, [code.mince]: 4 });
    const rows = await t.app.db
      .select()
      .from(cartLineItems)
      .innerJoin(carts, eq(carts.id, cartLineItems.cartId))
      .where(eq(cartLineItems.code, code.mince));
    const sessionIds = new Set(rows.map((r) => r.carts.sessionId));
    expect(rows.length).toBe(sessionIds.size);
  });

  it('adds 1 when no quantity is given', async () => {
    const visitor = await Shopper.arrive();
    const response = await visitor.post(`${CART_API}/add?code=${code.steak}`);
    expect(quantities(await visitor.cart(response))).toEqual({ [code.steak]: 1 });
  });

  it('refuses more than the limit of 99 in one line, and leaves the line as it was', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.steak, 60);
    const problem = expectProblem(await visitor.add(code.steak, 40), 409);
    expect(problem).toMatchObject({ type: '/problems/quantity', maxQuantity: 99 });
    expect(quantities(await visitor.load())).toEqual({ [code.steak]: 60 });
    expect(quantities(await visitor.cart(await visitor.add(code.steak, 39)))).toEqual({
      [code.steak]: 99,
    });
  });

  it('refuses a sold-out product and more than the stock', async () => {
    const visitor = await Shopper.arrive();
    expect(expectProblem(await visitor.add(code.soldOut), 409)).toMatchObject({ maxQuantity: 0 });
    await visitor.add(code.few, 2);
    expect(expectProblem(await visitor.add(code.few, 2), 409)).toMatchObject({ maxQuantity: 3 });
    const cart = await visitor.load();
    expect(quantities(cart)).toEqual({ [code.few]: 2 });
    expect(cart.lineItems[0]?.maxQuantity).toBe(3);
  });

  it('answers 404 problem+json for a code the shop does not sell', async () => {
    const visitor = await Shopper.arrive();
    expect(expectProblem(await visitor.add('9999999'), 404).type).toBe('/problems/not-found');
    expectProblem(await visitor.add(code.brandOnly), 404);
    expect((await visitor.load()).lineItemCount).toBe(0);
  });

  it('tells a cart of gift cards only', async () => {
    const visitor = await Shopper.arrive();
    const gifts = await visitor.cart(await visitor.add(code.gift, 2));
    expect(gifts).toMatchObject({ hasGiftCardsOnly: true, total: '100,00' });
    expect(gifts.lineItems[0]?.isGiftCard).toBe(true);
    const mixed = await visitor.cart(await visitor.add(code.steak));
    expect(mixed).toMatchObject({ hasGiftCardsOnly: false, total: '112,90', lineItemCount: 2 });
  });
});

describe('changequantity', () => {
  it('sets the quantity, and 0 removes the line', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.steak, 1);
    await visitor.add(code.mince, 1);
    const changed = await visitor.cart(await visitor.change(code.steak, 5));
    expect(quantities(changed)).toEqual({ [code.steak]: 5, [code.mince]: 1 });
    expect(changed.total).toBe('75,99');
    const removed = await visitor.cart(await visitor.change(code.steak, 0));
    expect(quantities(removed)).toEqual({ [code.mince]: 1 });
    expect(removed.lineItemCount).toBe(1);
    // Removing what is not there is not an error.
    expect((await visitor.cart(await visitor.change(code.steak, 0))).lineItemCount).toBe(1);
  });

  it('puts a line back when set on a code the cart lacks, within the stock', async () => {
    const visitor = await Shopper.arrive();
    expect(quantities(await visitor.cart(await visitor.change(code.few, 3)))).toEqual({
      [code.few]: 3,
    });
    expectProblem(await visitor.change(code.soldOut, 1), 409);
    expectProblem(await visitor.change('9999999', 1), 404);
  });

  it('sets more than there is to what there is, and the warnings say so (decision 100)', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.mince, 1);
    const capped = await visitor.cart(await visitor.change(code.mince, 150));
    expect(quantities(capped)).toEqual({ [code.mince]: 40 });
    expect(capped.warnings).toEqual([
      fi['shop.cart.quantityCapped']
        .replace('{name}', 'Naudan jauheliha 10 % 1 kg')
        .replaceAll('{max}', '40'),
    ]);
    // Without a stock the line's limit of 99 caps it.
    const steak = await visitor.cart(await visitor.change(code.steak, 120));
    expect(quantities(steak)[code.steak]).toBe(99);
    expect(steak.warnings).toHaveLength(1);
    expect(steak.warnings[0]).toContain('99');
    // Within the limit nothing is said, and the next answer has no warning left over.
    const within = await visitor.cart(await visitor.change(code.mince, 12));
    expect(quantities(within)[code.mince]).toBe(12);
    expect(within.warnings).toEqual([]);
    expect((await visitor.load()).warnings).toEqual([]);
  });

  it('drops a product taken off sale from the answer and the count; 0 still removes it', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.retired, 1);
    await visitor.add(code.steak, 1);
    await t.app.db
      .update(products)
      .set({ priceCents: null })
      .where(eq(products.code, code.retired));
    try {
      const cart = await visitor.load();
      expect(quantities(cart)).toEqual({ [code.steak]: 1 });
      expect(cart.lineItemCount).toBe(1);
      await visitor.change(code.retired, 0);
      const rows = await t.app.db
        .select()
        .from(cartLineItems)
        .where(eq(cartLineItems.code, code.retired));
      expect(rows).toHaveLength(0);
    } finally {
      await t.app.db
        .update(products)
        .set({ priceCents: 500 })
        .where(eq(products.code, code.retired));
    }
  });
});

describe('bad requests', () => {
  it.each([
    ['add', 'language=fi&quantity=1', 'code', 'validation.required'],
    ['add', `code=${code.steak}&quantity=0`, 'quantity', 'validation.invalid'],
    ['add', `code=${code.steak}&quantity=100`, 'quantity', 'validation.invalid'],
    ['add', `code=${code.steak}&quantity=1.5`, 'quantity', 'validation.invalid'],
    ['add', `code=${code.steak}&quantity=abc`, 'quantity', 'validation.invalid'],
    ['add', `code=${code.steak}&quantity=1&quantity=2`, 'quantity', 'validation.invalid'],
    ['add', 'code=%27%3B--&quantity=1', 'code', 'validation.invalid'],
    ['add', `code=${code.steak}&code=${code.mince}`, 'code', 'validation.invalid'],
    ['add', `code=${code.steak}&quantity=1e1`, 'quantity', 'validation.invalid'],
    ['add', `code=${code.steak}&language=de`, 'language', 'validation.invalid'],
    ['add', `code=${code.steak}&language=sv`, 'language', 'validation.invalid'],
    ['changequantity', `code=${code.steak}`, 'quantity', 'validation.required'],
    ['changequantity', `code=${code.steak}&quantity=-1`, 'quantity', 'validation.invalid'],
    ['changequantity', `code=${code.steak}&quantity=1000`, 'quantity', 'validation.invalid'],
  ])('%s?%s → 400 naming %s', async (call, query, field, message) => {
    const visitor = await Shopper.arrive();
    const problem = expectProblem(await visitor.post(`${CART_API}/${call}?${query}`), 400);
    expect(problem.type).toBe('/problems/validation');
    expect(problem.errors).toEqual({ [field]: message });
    expect((await visitor.load()).lineItemCount).toBe(0);
  });

  it('load with an unknown language → 400', async () => {
    const problem = expectProblem(await new Shopper().get(`${CART_API}/load?language=xx`), 400);
    expect(problem.errors).toEqual({ language: 'validation.invalid' });
  });

  it('refuses a change without the anti-forgery header (403) and stores nothing', async () => {
    const visitor = await Shopper.arrive();
    const before = (await t.app.db.select({ n: sql<number>`count(*)::int` }).from(carts))[0]?.n;
    for (const call of [
      visitor.post(`${CART_API}/add?code=${code.steak}`, { xsrf: false }),
      visitor.post(`${CART_API}/changequantity?code=${code.steak}&quantity=2`, {
        xsrf: false,
      }),
    ]) {
      expect(expectProblem(await call, 403).type).toBe('/problems/xsrf');
    }
    const after = (await t.app.db.select({ n: sql<number>`count(*)::int` }).from(carts))[0]?.n;
    expect(after).toBe(before);
    expect((await visitor.load()).lineItemCount).toBe(0);
  });

  it('refuses an anti-forgery token of another session', async () => {
    const a = await Shopper.arrive();
    const b = await Shopper.arrive();
    a.jar.set(XSRF_COOKIE, b.xsrfToken ?? '');
    expectProblem(await a.add(code.steak), 403);
  });
});

describe('sessions', () => {
  it('gives each session its own cart', async () => {
    const a = await Shopper.arrive();
    const b = await Shopper.arrive();
    await a.add(code.steak, 2);
    expect((await b.load()).lineItemCount).toBe(0);
    await b.add(code.mince, 1);
    await b.add(code.gift, 1);
    expect(quantities(await a.load())).toEqual({ [code.steak]: 2 });
    expect(quantities(await b.load())).toEqual({ [code.mince]: 1, [code.gift]: 1 });
  });

  it('shows no cart once the session has expired', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.steak);
    const token = visitor.jar.get(SESSION_COOKIE) ?? '';
    const { createHash } = await import('node:crypto');
    const id = createHash('sha256').update(token).digest('hex');
    await t.app.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, id));
    expect((await visitor.load()).lineItemCount).toBe(0);
    // A change after expiry starts a new session and cart rather than reviving the old one.
    expect(quantities(await visitor.cart(await visitor.add(code.mince)))).toEqual({
      [code.mince]: 1,
    });
    await t.app.db.delete(sessions).where(eq(sessions.id, id));
    const orphan = await t.app.db.select().from(carts).where(eq(carts.sessionId, id));
    expect(orphan).toHaveLength(0);
  });
});

describe('a refused change stores nothing', () => {
  /** Every session row with its expiry, and every cart and line: what a refusal must not touch. */
  async function everything() {
    return {
      sessions: await t.app.db
        .select({ id: sessions.id, expiresAt: sessions.expiresAt, data: sessions.data })
        .from(sessions)
        .orderBy(sessions.id),
      carts: await t.app.db.select().from(carts).orderBy(carts.id),
      lines: await t.app.db.select().from(cartLineItems).orderBy(cartLineItems.code),
    };
  }

  const refusals: [string, (v: Shopper) => Promise<LightMyRequestResponse>, number][] = [
    ['an unknown code', (v) => v.add('9999999'), 404],
    ['a code of another site', (v) => v.add(code.brandOnly), 404],
    ['a sold-out product', (v) => v.add(code.soldOut), 409],
    ['more than the stock', (v) => v.add(code.few, 4), 409],
    ['setting a sold-out product', (v) => v.change(code.soldOut, 2), 409],
    ['setting an unknown code', (v) => v.change('9999999', 2), 404],
    ['removing from an empty cart', (v) => v.change(code.steak, 0), 200],
  ];

  it.each(refusals)('for a new visitor: %s', async (_name, refuse, status) => {
    const visitor = await Shopper.arrive();
    const before = await everything();
    const res = await refuse(visitor);
    expect(res.statusCode, res.body).toBe(status);
    if (status === 200) expect((await visitor.cart(res)).lineItemCount).toBe(0);
    expect(await everything()).toEqual(before);
    // No session cookie was handed out for a session that was never stored.
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it.each(refusals)('for a visitor with a cart: %s', async (_name, refuse, status) => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.few, 3);
    const before = await everything();
    const res = await refuse(visitor);
    expect(res.statusCode, res.body).toBe(status === 200 ? 200 : status);
    expect(await everything()).toEqual(before);
  });

  it('adding more of a line than the stock leaves the line and the session as they were', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.few, 2);
    const before = await everything();
    expectProblem(await visitor.add(code.few, 2), 409);
    expect(await everything()).toEqual(before);
  });
});

describe('the header', () => {
  const badgeLabel = /aria-label="Ostoskori, (\d+) tuotetta"/;

  it('shows the number of line items (not the sum of quantities), privately cached', async () => {
    const visitor = await Shopper.arrive();
    const empty = await visitor.get('/');
    expect(empty.statusCode).toBe(200);
    expect(empty.body).not.toMatch(badgeLabel);
    expect(empty.body).toContain('href="/ostoskori#tuotteet"');
    expect(empty.headers['cache-control']).toBe('private, no-cache');

    await visitor.add(code.steak, 3);
    await visitor.add(code.mince, 2);
    const full = await visitor.get('/');
    expect(full.body.match(badgeLabel)?.[1]).toBe('2');
    expect(full.headers['cache-control']).toBe('private, no-cache');

    // Another visitor's page shows their own (empty) cart.
    const other = await new Shopper().get('/');
    expect(other.body).not.toMatch(badgeLabel);
  });

  it('leaves the pages of sites that do not sell through the shop as they were', async () => {
    const visitor = new Shopper();
    const first = await visitor.get('/', { headers: { host: 'sibylla.localhost' } });
    // The first view sets the session's cookies, which alone keeps it out of shared caches.
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const response = await visitor.get('/', { headers: { host: 'sibylla.localhost' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).not.toContain('/ostoskori#tuotteet');
  });

  it('counts only the visitor’s live cart on the shop site', async () => {
    const visitor = await Shopper.arrive();
    await visitor.add(code.gift);
    const rows = await t.app.db
      .select({ siteId: carts.siteId })
      .from(carts)
      .innerJoin(cartLineItems, eq(cartLineItems.cartId, carts.id))
      .where(eq(cartLineItems.code, code.gift));
    expect(new Set(rows.map((r) => r.siteId))).toEqual(new Set(['lihakauppa']));
    expect((await visitor.get('/')).body.match(badgeLabel)?.[1]).toBe('1');
  });
});
