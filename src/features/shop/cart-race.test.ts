import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { Visitor } from '../../../tests/helpers/visitor.ts';
import { CART_API, cartSchema, centsOfMoney } from './schemas.ts';
import { coupons } from './tables.ts';

/**
 * Many changes to one cart at once, on a real PostgreSQL server (several connections, real row
 * locks): runs only when DATABASE_URL is set (CI's .ci/run does); PGlite has one connection, so
 * nothing would race there.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const HOST = 'lihakauppa.localhost';
const SAME = '5300000';
const others = Array.from({ length: 25 }, (_, i) => String(5300001 + i));
let t: TestApp;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  const db = t.app.db;
  const shop = { siteId: 'lihakauppa', kind: 'shop-product' } as const;
  await createProduct(db, { ...shop, path: '/tuotteet/sama', code: SAME, priceCents: 1290 });
  for (const [i, code] of others.entries()) {
    await createProduct(db, {
      ...shop,
      path: `/tuotteet/muu-${i}`,
      code,
      priceCents: 101 + i * 37,
      taxClass: i % 3 === 0 ? 'standard' : 'food',
    });
  }
  await db.insert(coupons).values({ siteId: 'lihakauppa', code: 'RACE7', percentOff: 7 });
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('one cart, many changes at once (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    '50 parallel adds, same and different codes: exact sums, no lost line, no 5xx',
    async () => {
      const visitor = new Visitor(t.app, { host: HOST });
      await visitor.get(`${CART_API}/load?language=fi`);
      // The first change stores the session; the rest race on the stored cart.
      expect(
        (await visitor.post(`${CART_API}/add?language=fi&code=${SAME}&quantity=1`)).statusCode,
      ).toBe(200);
      expect(
        (await visitor.post(`${CART_API}/addcouponcode?language=fi&code=RACE7`)).statusCode,
      ).toBe(200);
      const calls = [
        ...Array.from({ length: 25 }, () => `code=${SAME}&quantity=1`),
        ...others.map((code) => `code=${code}&quantity=2`),
      ];
      const started = performance.now();
      const answers = await Promise.all(
        calls.map((query) => visitor.post(`${CART_API}/add?language=fi&${query}`)),
      );
      const millis = Math.round(performance.now() - started);
      const statuses = answers.map((answer) => answer.statusCode);
      expect(
        statuses.filter((status) => status !== 200),
        JSON.stringify(statuses),
      ).toEqual([]);
      const cart = cartSchema.parse((await visitor.get(`${CART_API}/load?language=fi`)).json());
      expect(cart.lineItemCount).toBe(26);
      const quantities = Object.fromEntries(cart.lineItems.map((l) => [l.code, l.quantity]));
      expect(quantities[SAME]).toBe(26);
      for (const code of others) expect(quantities[code]).toBe(2);
      const gross = 26 * 1290 + others.reduce((sum, _, i) => sum + 2 * (101 + i * 37), 0);
      const sumLines = cart.lineItems.reduce(
        (sum, l) => sum + (centsOfMoney(l.linePriceWithoutDiscounts) ?? NaN),
        0,
      );
      expect(sumLines).toBe(gross);
      const discount = Math.floor((2 * gross * 7 + 100) / 200);
      expect(cart.couponCodes).toEqual(['RACE7']);
      expect(centsOfMoney(cart.orderDiscount)).toBe(discount);
      expect(centsOfMoney(cart.total)).toBe(gross - discount);
      const vat = cart.vatBreakdown.reduce((sum, line) => sum + (centsOfMoney(line.vat) ?? NaN), 0);
      expect(centsOfMoney(cart.vatTotal)).toBe(vat);
      const charged = cart.vatBreakdown.reduce(
        (sum, line) => sum + (centsOfMoney(line.gross) ?? NaN),
        0,
      );
      expect(charged).toBe(gross - discount);
      console.info(
        `cart race: 50 parallel adds in ${millis} ms; 26 lines, total ${cart.total}, VAT ${cart.vatTotal}`,
      );
    },
    120_000,
  );

  it.runIf(onPostgres)('the same code entered 10 times at once is in the cart once', async () => {
    const visitor = new Visitor(t.app, { host: HOST });
    await visitor.get(`${CART_API}/load?language=fi`);
    await visitor.post(`${CART_API}/add?language=fi&code=${SAME}&quantity=1`);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        visitor.post(`${CART_API}/addcouponcode?language=fi&code=RACE7`),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const cart = cartSchema.parse((await visitor.get(`${CART_API}/load?language=fi`)).json());
    expect(cart.couponCodes).toEqual(['RACE7']);
  });
});
