import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { verifyEmail } from '../../../../tests/helpers/shop-customer.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { CART_API } from '../schemas.ts';
import { couponCustomerUses, coupons, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
  order,
} from './checkout.test-support.ts';
import { releaseOrder } from './lifecycle.server.ts';
import { orderAnswerSchema } from './schemas.ts';

/**
 * "One per customer" (decision 082) on PGlite and PostgreSQL: a coupon limited per customer counts
 * only for an account whose e-mail address is verified, and once per mailbox and per delivery
 * address, whatever account asks; a cancelled order gives its uses back under every key. Each test
 * uses homes and mailboxes of its own, so no test depends on what another one's orders counted.
 */

let t: TestApp;
const COUPON = 'KERRAN15';
const mailbox = `maija.kerran-${Date.now()}`;

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
  await t.app.db.insert(coupons).values({
    siteId: 'lihakauppa',
    code: COUPON,
    percentOff: 15,
    maxUses: 100,
    maxUsesPerCustomer: 1,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Fills the cart (20,00 before the coupon), enters the coupon, holds, confirms. */
async function orderWithCoupon(v: Visitor) {
  await addToCart(v, CODES.plain, 4);
  const entered = await v.post(`${CART_API}/addcouponcode?language=fi&code=${COUPON}`);
  expect(entered.statusCode, entered.body).toBe(200);
  const checkoutId = await held(v);
  return { checkoutId, res: await order(v, checkoutId) };
}

/**
 * A verified account at `streetAddress` (with `email`, or an address of its own) that orders with
 * the coupon: the first use of that home and mailbox, which is allowed. Answers the order's id.
 */
async function firstUse(streetAddress: string, email?: string): Promise<string> {
  const v = await buyer(t.app, { streetAddress, verified: true, ...(email ? { email } : {}) });
  const { res } = await orderWithCoupon(v);
  expect(res.statusCode, res.body).toBe(200);
  return orderAnswerSchema.parse(res.json()).orderId;
}

const emptyCart = (v: Visitor) =>
  v.post(`${CART_API}/changequantity?language=fi&code=${CODES.plain}&quantity=0`);

describe('a coupon once per customer', () => {
  it('is refused to an account whose e-mail address is not verified; verified, it is used', async () => {
    const email = `${mailbox}@example.fi`;
    const v = await buyer(t.app, { email, streetAddress: 'Lihakuja 3 A 5', verified: false });
    const { res: refused } = await orderWithCoupon(v);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errors).toEqual({
      couponCodes: 'shop.checkout.couponNeedsVerifiedEmail',
    });
    await verifyEmail(v, email);
    const placed = await order(v, await held(v));
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = orderAnswerSchema.parse(placed.json()).orderId;
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ couponCodes: [COUPON], discountCents: 300, totalCents: 1700 });
  });

  it('a new account at the same home, its address written another way, gets it no second time', async () => {
    await firstUse('Lihakuja 3 B 7');
    const v = await buyer(t.app, { streetAddress: 'lihakuja 3b as. 7', verified: true });
    const { res } = await orderWithCoupon(v);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errors).toEqual({ couponCodes: 'shop.checkout.couponUsedByCustomer' });
    await emptyCart(v);
  });

  it('a new account on the same mailbox (a +alias) at another address gets it no second time', async () => {
    const own = `matti.kerran-${Date.now()}`;
    await firstUse('Toinen katu 3', `${own}@example.fi`);
    const v = await buyer(t.app, {
      email: `${own}+toinen@Example.fi`,
      streetAddress: 'Toinen katu 9',
      verified: true,
    });
    const { res } = await orderWithCoupon(v);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errors).toEqual({ couponCodes: 'shop.checkout.couponUsedByCustomer' });
    await emptyCart(v);
  });

  it('another home and mailbox gets it; a cancelled order gives the uses back under every key', async () => {
    const [coupon] = await t.app.db.select().from(coupons).where(eq(coupons.code, COUPON));
    const counted = async () =>
      (
        await t.app.db
          .select({ uses: couponCustomerUses.uses })
          .from(couponCustomerUses)
          .where(eq(couponCustomerUses.couponId, coupon?.id ?? 0))
      ).reduce((sum, row) => sum + row.uses, 0);
    // The other tests' orders count too: this test compares with what was counted before it.
    const before = { used: coupon?.usedCount ?? 0, counted: await counted() };
    const cancelled = await firstUse('Kolmas katu 1');
    const elsewhere = await buyer(t.app, { streetAddress: 'Neljäs katu 4', verified: true });
    expect((await orderWithCoupon(elsewhere)).res.statusCode).toBe(200);
    const [used] = await t.app.db.select().from(coupons).where(eq(coupons.code, COUPON));
    expect(used?.usedCount).toBe(before.used + 2);
    // Two orders, each counted under the account, its mailbox and its home.
    expect(await counted()).toBe(before.counted + 6);
    expect(await t.app.db.transaction((tx) => releaseOrder(tx, cancelled, 'cancelled'))).toBe(true);
    expect(await counted()).toBe(before.counted + 3);
    // The home of the cancelled order may use it again.
    const sameHome = await buyer(t.app, { streetAddress: 'Kolmas katu 1', verified: true });
    expect((await orderWithCoupon(sameHome)).res.statusCode).toBe(200);
  });
});
