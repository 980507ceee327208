import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  held,
  order,
  stockOf,
} from '../orders/checkout.test-support.ts';
import { CART_API, cartSchema } from '../schemas.ts';
import { orderLines, productDateStock } from '../tables.ts';
import { CATALOGUE_API, type CatalogueList } from './catalogue-schemas.ts';

/**
 * The shop's catalogue in the back office (decision 141): stock set only on the value the staff
 * member saw, a date's capacity never below what is sold, weekly quantities, and a price that
 * carts take at once while placed orders keep theirs. Every change leaves its audit row.
 */
let t: TestApp;
let staff: Enrolled;
const on = (code: string, what: string) => `${CATALOGUE_API}/products/${code}/${what}`;

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
  staff = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function listed(code: string) {
  const res = await staff.visitor.get(`${CATALOGUE_API}/products?q=${code}`);
  expect(res.statusCode, res.body).toBe(200);
  const product = (res.json() as CatalogueList).products.find((p) => p.code === code);
  if (!product) throw new Error(`${code} not listed`);
  return product;
}

describe('the catalogue in the back office', () => {
  it('lists the shop’s products with price, VAT, stock and weekly quantities', async () => {
    const res = await staff.visitor.get(`${CATALOGUE_API}/products`);
    const list = res.json() as CatalogueList;
    expect(list.total).toBe(5);
    expect(await listed(CODES.stocked)).toMatchObject({
      name: 'Varastotuote',
      priceCents: 700,
      taxClass: 'food',
      vatBasisPoints: 1350,
      stock: 5,
    });
    expect((await listed(CODES.perDate)).weekly).toEqual([10, 10, 10, 10, 10, 10, 10]);
    expect((await listed(CODES.gift)).vatBasisPoints).toBe(0);
  });

  it('sets the stock only from the value seen; a stale one is 409 and nothing changes', async () => {
    const ok = await staff.visitor.post(
      on(CODES.stocked, 'stock'),
      json({ stock: 8, expected: 5 }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(8);
    const stale = await staff.visitor.post(
      on(CODES.stocked, 'stock'),
      json({ stock: 2, expected: 5 }),
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().detail).toContain('8');
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(8);
    expect(await auditOf(t.app, 'catalogue.stock')).toHaveLength(1);
    const unlimited = await staff.visitor.post(
      on(CODES.stocked, 'stock'),
      json({ stock: null, expected: 8 }),
    );
    expect(unlimited.statusCode).toBe(200);
    expect(await stockOf(t.app.db, CODES.stocked)).toBeNull();
    const back = await staff.visitor.post(
      on(CODES.stocked, 'stock'),
      json({ stock: 5, expected: null }),
    );
    expect(back.statusCode).toBe(200);
    const negative = await staff.visitor.post(
      on(CODES.stocked, 'stock'),
      json({ stock: -1, expected: 5 }),
    );
    expect(negative.statusCode).toBe(400);
    expect(
      (await staff.visitor.post(on('EIOLE', 'stock'), json({ stock: 1, expected: 1 }))).statusCode,
    ).toBe(404);
  });

  it('refuses a date’s capacity below what is sold, with the count', async () => {
    const date = deliveryDate(5);
    const v = await buyer(t.app);
    await addToCart(v, CODES.perDate, 3);
    const placed = await order(v, await held(v, date));
    expect(placed.statusCode, placed.body).toBe(200);
    const low = await staff.visitor.post(
      on(CODES.perDate, 'date-stock'),
      json({ date, capacity: 2 }),
    );
    expect(low.statusCode).toBe(409);
    expect(low.json().detail).toContain('3 are already sold');
    const ok = await staff.visitor.post(
      on(CODES.perDate, 'date-stock'),
      json({ date, capacity: 4 }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const [row] = await t.app.db
      .select()
      .from(productDateStock)
      .where(and(eq(productDateStock.code, CODES.perDate), eq(productDateStock.date, date)));
    expect(row).toMatchObject({ capacity: 4, sold: 3 });
    expect((await listed(CODES.perDate)).dates).toContainEqual({ date, capacity: 4, sold: 3 });
    // A date with nothing sold yet gets its own row.
    const later = deliveryDate(12);
    expect(
      (
        await staff.visitor.post(
          on(CODES.perDate, 'date-stock'),
          json({ date: later, capacity: 0 }),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('replaces the weekly quantities; seven values, Monday first', async () => {
    const seen = (await listed(CODES.perDate)).weekly;
    const quantities = [5, 5, 5, 5, 8, null, null];
    const res = await staff.visitor.post(on(CODES.perDate, 'weekly'), json({ quantities }));
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(CODES.perDate)).weekly).toEqual(quantities);
    expect(
      (await staff.visitor.post(on(CODES.perDate, 'weekly'), json({ quantities: [1, 2] })))
        .statusCode,
    ).toBe(400);
    // The quantities seen before are put back, as staff would, for the tests that list them.
    const back = await staff.visitor.post(on(CODES.perDate, 'weekly'), json({ quantities: seen }));
    expect(back.statusCode, back.body).toBe(200);
    expect((await listed(CODES.perDate)).weekly).toEqual(seen);
  });

  it('changes a price: carts price with it at once, a placed order keeps its own', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 1);
    const placed = await order(v, await held(v));
    expect(placed.statusCode).toBe(200);
    const orderId = placed.json().orderId as string;
    const res = await staff.visitor.post(
      on(CODES.plain, 'price'),
      json({
        priceCents: 650,
        taxClass: 'standard',
        expected: { priceCents: 500, taxClass: 'food' },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await listed(CODES.plain)).toMatchObject({ priceCents: 650, vatBasisPoints: 2550 });
    const shopper = await buyer(t.app);
    await addToCart(shopper, CODES.plain, 2);
    const cart = cartSchema.parse((await shopper.get(`${CART_API}/load?language=fi`)).json());
    expect(cart.total).toBe('13,00');
    const [line] = await t.app.db
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.orderId, orderId), eq(orderLines.code, CODES.plain)));
    expect(line?.unitPriceCents).toBe(500);
    const stale = await staff.visitor.post(
      on(CODES.plain, 'price'),
      json({ priceCents: 1, taxClass: 'food', expected: { priceCents: 500, taxClass: 'food' } }),
    );
    expect(stale.statusCode).toBe(409);
    expect((await auditOf(t.app, 'catalogue.price'))[0]).toMatchObject({
      changes: {
        priceCents: { before: 500, after: 650 },
        taxClass: { before: 'food', after: 'standard' },
      },
    });
  });

  it('is closed to staff without shop.manage', async () => {
    const reader = await enrolledStaff(t.app, [
      { role: 'customer-service', sites: ['lihakauppa'], langs: null },
    ]);
    expect((await reader.visitor.get(`${CATALOGUE_API}/products`)).statusCode).toBe(403);
    expect(
      (await reader.visitor.post(on(CODES.stocked, 'stock'), json({ stock: 0, expected: 5 })))
        .statusCode,
    ).toBe(403);
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(5);
  });
});
