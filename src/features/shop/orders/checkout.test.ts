import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { shownTotals } from '../../../../tests/helpers/shop.ts';
import { arrive } from '../../../../tests/helpers/visitor.ts';
import { products } from '../../content/tables.ts';
import { ACCOUNT_API } from '../customer/schemas.ts';
import {
  CART_API,
  CHECKOUT_API,
  cartSchema,
  deliveryDatesSchema,
  productAvailabilitySchema,
} from '../schemas.ts';
import {
  checkoutHolds,
  coupons,
  customers,
  deliverySlotBookings,
  giftCards,
  orderLines,
  orders,
  productDateStock,
} from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  emailOf,
  HOST,
  held,
  hold,
  json,
  order,
  PASSWORD,
  POSTAL_CODE,
  stockOf,
} from './checkout.test-support.ts';
import { giftCardCodeHash } from './gift-cards.server.ts';
import { deleteExpiredHolds } from './holds.server.ts';
import { releaseOrder } from './lifecycle.server.ts';
import {
  CHECKOUT_HOLD_API,
  CHECKOUT_ORDER_API,
  checkoutSchema,
  GIFT_CARD_ADD_API,
  GIFT_CARD_REMOVE_API,
  orderAnswerSchema,
} from './schemas.ts';

/**
 * The checkout on PGlite (decision 027): holds, placement and gift cards through the API, with
 * the bad input each route must refuse. The races are in checkout-race.test.ts (PostgreSQL).
 */

let t: TestApp;
let perDateId = 0;
let areaId = 0;
const GIFT_CODE = 'TEST-GIFT-0001';

beforeAll(async () => {
  t = await createTestApp();
  ({ areaId } = await createCheckoutShop(t.app.db, { weeklyQuantity: 10 }));
  const [row] = await t.app.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, CODES.perDate));
  perDateId = row?.id ?? 0;
  await t.app.db.insert(giftCards).values({
    siteId: 'lihakauppa',
    codeHash: giftCardCodeHash(GIFT_CODE),
    initialCents: 5000,
    balanceCents: 5000,
  });
  await t.app.db.insert(coupons).values([
    { siteId: 'lihakauppa', code: 'ONCE', percentOff: 10, maxUses: 1 },
    { siteId: 'lihakauppa', code: 'AGAIN', percentOff: 5 },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function leftOnDate(v: Awaited<ReturnType<typeof buyer>>, date = deliveryDate()) {
  const res = await v.get(
    `${CHECKOUT_API}/delivery-availability?productId=${perDateId}&postalCode=${POSTAL_CODE}`,
  );
  const answer = productAvailabilitySchema.parse(res.json());
  return answer.deliveryTimes.find((time) => time.date === date)?.stock ?? 0;
}

describe('the checkout API', () => {
  it('is 401 for a visitor, 403 without the anti-forgery header', async () => {
    const v = await arrive(t.app, '/', { host: HOST });
    expect((await v.get(`${CHECKOUT_API}?language=fi`)).statusCode).toBe(401);
    const res = await hold(v);
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect((await v.delete(CHECKOUT_HOLD_API)).statusCode).toBe(401);
    expect((await order(v, crypto.randomUUID())).statusCode).toBe(401);
    const b = await buyer(t.app);
    const noHeader = await b.request('POST', CHECKOUT_ORDER_API, {
      ...json({ checkoutId: crypto.randomUUID(), PaymentMethodCode: 'FI50' }),
      xsrf: false,
    });
    expect(noHeader.statusCode).toBe(403);
  });

  it('refuses bad bodies with problem+json naming the field', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain);
    const bad = await b.post(
      CHECKOUT_HOLD_API,
      json({ postalCode: 'x', date: '2026-13-45', time: '8-12', extra: 1 }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    const nul = await order(b, crypto.randomUUID(), 'FI50\u0000');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().errors).toHaveProperty('PaymentMethodCode');
    const notUuid = await order(b, 'abc');
    expect(notUuid.json().errors).toHaveProperty('checkoutId');
    const huge = await b.post(
      CHECKOUT_ORDER_API,
      json({ checkoutId: crypto.randomUUID(), PaymentMethodCode: 'x'.repeat(100_000) }),
    );
    expect(huge.statusCode).toBe(413);
    // What the checkout showed is part of the order (decision 080): missing or malformed, 400.
    const unshown = await b.post(
      CHECKOUT_ORDER_API,
      json({ checkoutId: crypto.randomUUID(), PaymentMethodCode: 'FI50' }),
    );
    expect(unshown.statusCode).toBe(400);
    expect(unshown.json().errors).toEqual({
      total: 'validation.required',
      usedGiftCardAmount: 'validation.required',
    });
    const malformed = await b.post(
      CHECKOUT_ORDER_API,
      json({
        checkoutId: crypto.randomUUID(),
        PaymentMethodCode: 'FI50',
        total: '5.00',
        usedGiftCardAmount: '-1,00',
      }),
    );
    expect(malformed.json().errors).toEqual({
      total: 'validation.invalid',
      usedGiftCardAmount: 'validation.invalid',
    });
    const badTime = await hold(b, deliveryDate(), '07:00-09:00');
    expect(badTime.statusCode).toBe(409);
    expect(badTime.json().errors).toEqual({ time: 'shop.checkout.timeInvalid' });
    const past = await hold(b, deliveryDate(-1));
    expect(past.statusCode).toBe(409);
  });

  it('holds a time: GET shows it, the own hold is not counted, another cart sees it taken', async () => {
    const a = await buyer(t.app);
    const b = await buyer(t.app);
    await addToCart(a, CODES.perDate, 4);
    const before = await leftOnDate(b);
    const id = await held(a);
    const checkout = checkoutSchema.parse((await a.get(`${CHECKOUT_API}?language=fi`)).json());
    expect(checkout.hold).toMatchObject({
      checkoutId: id,
      postalCode: POSTAL_CODE,
      date: deliveryDate(),
      time: '08:00-12:00',
      useDeliveryAddressForBilling: true,
    });
    expect(checkout.hold?.label).toContain('klo 8.00–12.00');
    expect(await leftOnDate(a)).toBe(before);
    expect(await leftOnDate(b)).toBe(before - 4);
    // Too many for what is left besides a's hold.
    await addToCart(b, CODES.perDate, before - 3);
    const refused = await hold(b);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors).toEqual({ [CODES.perDate]: 'shop.stock.soldOut' });
    // A cart change lets a's hold go; then b can hold.
    await addToCart(a, CODES.plain);
    expect(checkoutSchema.parse((await a.get(`${CHECKOUT_API}?language=fi`)).json()).hold).toBe(
      null,
    );
    await held(b);
    expect((await b.delete(CHECKOUT_HOLD_API)).statusCode).toBe(204);
    expect(await leftOnDate(a)).toBe(before);
  });

  it('an empty cart holds nothing', async () => {
    const b = await buyer(t.app);
    const res = await hold(b);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual({ cart: 'shop.cart.empty' });
  });

  it('places the order once, takes the stock, empties the cart; a second submit gets the same', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.stocked, 2);
    await addToCart(b, CODES.perDate, 1);
    const id = await held(b);
    const first = await order(b, id);
    expect(first.statusCode, first.body).toBe(200);
    const answer = orderAnswerSchema.parse(first.json());
    expect(answer.status).toBe('pending_payment');
    expect(answer.orderNumber).toBeGreaterThan(100000);
    const again = await order(b, id);
    expect(again.json()).toEqual(first.json());
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, answer.orderId));
    expect(row).toMatchObject({
      totalCents: 2 * 700 + 1000,
      checkoutId: id,
      phoneNumber: '+358401234567',
      deliveryAddress: { streetAddress: 'Lihakuja 3', postalCode: POSTAL_CODE },
      billingAddress: { streetAddress: 'Lihakuja 3' },
      deliveryDate: deliveryDate(),
      startTime: '08:00',
      endTime: '12:00',
      paymentMethodCode: 'FI50',
    });
    expect(row?.expiresAt).not.toBeNull();
    const lines = await t.app.db
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, answer.orderId));
    expect(lines.map((l) => [l.code, l.quantity, l.tookDateStock]).sort()).toEqual(
      [
        [CODES.perDate, 1, true],
        [CODES.stocked, 2, false],
      ].sort(),
    );
    const [stocked] = await t.app.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.code, CODES.stocked));
    expect(stocked?.stock).toBe(3);
    const cart = cartSchema.parse((await b.get(`${CART_API}/load?language=fi`)).json());
    expect(cart.lineItemCount).toBe(0);
    expect(await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, id))).toEqual([]);

    // Releasing gives it all back, once.
    const sold = async () =>
      (
        await t.app.db
          .select({ sold: productDateStock.sold })
          .from(productDateStock)
          .where(
            and(
              eq(productDateStock.code, CODES.perDate),
              eq(productDateStock.date, deliveryDate()),
            ),
          )
      )[0]?.sold;
    const soldBefore = await sold();
    expect(await t.app.db.transaction((tx) => releaseOrder(tx, answer.orderId))).toBe(true);
    expect(await t.app.db.transaction((tx) => releaseOrder(tx, answer.orderId))).toBe(false);
    expect(await sold()).toBe((soldBefore ?? 0) - 1);
    const [back] = await t.app.db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.code, CODES.stocked));
    expect(back?.stock).toBe(5);
  });

  it("refuses an expired hold and another cart's hold, naming checkoutId", async () => {
    const a = await buyer(t.app);
    const b = await buyer(t.app);
    await addToCart(a, CODES.plain);
    await addToCart(b, CODES.plain);
    const idA = await held(a);
    const foreign = await order(b, idA);
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().errors).toEqual({ checkoutId: 'shop.checkout.holdGone' });
    await t.app.db
      .update(checkoutHolds)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(checkoutHolds.id, idA));
    const expired = await order(a, idA);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().errors).toEqual({ checkoutId: 'shop.checkout.holdGone' });
    expect(checkoutSchema.parse((await a.get(`${CHECKOUT_API}?language=fi`)).json()).hold).toBe(
      null,
    );
    expect(await t.app.db.select().from(orders).where(eq(orders.checkoutId, idA))).toEqual([]);
  });

  it('a coupon used up since it was entered refuses the order and writes nothing', async () => {
    const a = await buyer(t.app);
    const b = await buyer(t.app);
    for (const v of [a, b]) {
      await addToCart(v, CODES.plain, 2);
      expect((await v.post(`${CART_API}/addcouponcode?language=fi&code=ONCE`)).statusCode).toBe(
        200,
      );
    }
    const idA = await held(a);
    const idB = await held(b);
    expect((await order(a, idA)).statusCode).toBe(200);
    const refused = await order(b, idB);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors).toEqual({ couponCodes: 'shop.checkout.couponUsedUp' });
    expect(await t.app.db.select().from(orders).where(eq(orders.checkoutId, idB))).toEqual([]);
    // The hold is still there: nothing of the failed placement was written.
    expect(
      (await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, idB))).length,
    ).toBe(1);
  });

  it('a gift card another order spent since the checkout showed it refuses the order naming giftCards; confirmed again, the order charges the new total', async () => {
    const code = `SHARED-${Date.now()}`;
    await t.app.db.insert(giftCards).values({
      siteId: 'lihakauppa',
      codeHash: giftCardCodeHash(code),
      initialCents: 2000,
      balanceCents: 2000,
    });
    const first = await buyer(t.app);
    const second = await buyer(t.app);
    const ids: string[] = [];
    for (const v of [first, second]) {
      await addToCart(v, CODES.box);
      const added = await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${code}`);
      expect(added.statusCode, added.body).toBe(200);
      ids.push(await held(v));
    }
    // Both checkouts show 60,79 of which the card pays 20,00: 40,79 to pay.
    const shown = await shownTotals(second);
    expect(shown).toEqual({ total: '60,79', usedGiftCardAmount: '20,00' });
    expect((await order(first, ids[0] as string)).statusCode).toBe(200);
    const refused = await order(second, ids[1] as string, 'FI50', shown);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().errors).toEqual({ giftCards: 'shop.checkout.giftCardChanged' });
    expect(
      await t.app.db
        .select()
        .from(orders)
        .where(eq(orders.checkoutId, ids[1] as string)),
    ).toEqual([]);
    // The cart shows the card spent; the hold stays, and what the shopper now confirms is charged.
    const now = checkoutSchema.parse((await second.get(`${CHECKOUT_API}?language=fi`)).json());
    expect(now.hold?.checkoutId).toBe(ids[1]);
    expect(now.cart).toMatchObject({ total: '60,79', usedGiftCardAmount: '0,00', giftCards: [] });
    const placed = await order(second, ids[1] as string);
    expect(placed.statusCode, placed.body).toBe(200);
  });

  it('a price changed since the checkout showed it refuses the order naming total; confirmed again, the new total is charged', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.stocked, 1);
    const id = await held(b);
    const shown = await shownTotals(b);
    expect(shown.total).toBe('7,00');
    await t.app.db
      .update(products)
      .set({ priceCents: 750 })
      .where(eq(products.code, CODES.stocked));
    try {
      const refused = await order(b, id, 'FI50', shown);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().errors).toEqual({ total: 'shop.checkout.totalChanged' });
      expect(refused.json().detail).toContain('the total is 7,50 now, not 7,00');
      expect(await stockOf(t.app.db, CODES.stocked)).toBe(5);
      const placed = await order(b, id);
      expect(placed.statusCode, placed.body).toBe(200);
      await t.app.db.transaction((tx) =>
        releaseOrder(tx, orderAnswerSchema.parse(placed.json()).orderId),
      );
    } finally {
      await t.app.db
        .update(products)
        .set({ priceCents: 700 })
        .where(eq(products.code, CODES.stocked));
    }
  });

  it('gift cards: entered by code in any case, pay up to the total; a fully paid order is paid at once', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain, 3);
    const wrong = await b.post(`${GIFT_CARD_ADD_API}?language=fi&code=NOPE-0000`);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ code: 'shop.giftCard.invalid' });
    const added = await b.post(`${GIFT_CARD_ADD_API}?language=fi&code=${GIFT_CODE.toLowerCase()}`);
    expect(added.statusCode, added.body).toBe(200);
    expect(cartSchema.parse(added.json()).usedGiftCardAmount).toBe('15,00');
    const id = await held(b);
    const placed = orderAnswerSchema.parse((await order(b, id)).json());
    expect(placed.status).toBe('paid');
    expect(placed.next).toContain(`/kassa/vahvistus?tilaus=${placed.orderId}`);
    const [card] = await t.app.db
      .select()
      .from(giftCards)
      .where(eq(giftCards.codeHash, giftCardCodeHash(GIFT_CODE)));
    expect(card?.balanceCents).toBe(3500);
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(row).toMatchObject({ usedGiftCardCents: 1500, totalCents: 0, status: 'paid' });
    expect(row?.paidAt).not.toBeNull();
    // Removing: the cart answer no longer counts it.
    await addToCart(b, CODES.plain, 1);
    await b.post(`${GIFT_CARD_ADD_API}?language=fi&code=${GIFT_CODE}`);
    const removed = await b.post(`${GIFT_CARD_REMOVE_API}?language=fi&code=${GIFT_CODE}`);
    expect(cartSchema.parse(removed.json()).usedGiftCardAmount).toBe('0,00');
    // The cart lists the card by id (no code), and removes it by that id.
    const again = cartSchema.parse(
      (await b.post(`${GIFT_CARD_ADD_API}?language=fi&code=${GIFT_CODE}`)).json(),
    );
    expect(again.giftCards).toEqual([{ id: card?.id, balance: '35,00', amount: '5,00' }]);
    expect(JSON.stringify(again)).not.toContain(GIFT_CODE);
    const neither = await b.post(`${GIFT_CARD_REMOVE_API}?language=fi`);
    expect(neither.statusCode).toBe(400);
    expect(neither.json().errors).toEqual({ code: 'shop.giftCard.empty' });
    const byId = cartSchema.parse(
      (await b.post(`${GIFT_CARD_REMOVE_API}?language=fi&giftCardId=${card?.id}`)).json(),
    );
    expect(byId.giftCards).toEqual([]);
    expect(byId.usedGiftCardAmount).toBe('0,00');
  });

  it('a full slot: other carts no longer see the date, the holder does; the next hold is 409 on time', async () => {
    const date = deliveryDate(7);
    await t.app.db
      .insert(deliverySlotBookings)
      .values({ areaId, date, startTime: '08:00', capacity: 1 });
    const a = await buyer(t.app);
    const b = await buyer(t.app);
    await addToCart(a, CODES.plain);
    await addToCart(b, CODES.plain);
    const dates = async (v: typeof a) =>
      deliveryDatesSchema
        .parse(
          (await v.get(`${CHECKOUT_API}/delivery?postalCode=${POSTAL_CODE}&language=fi`)).json(),
        )
        .dates.map((d) => d.value);
    expect(await dates(b)).toContain(date);
    await held(a, date);
    expect(await dates(a)).toContain(date);
    expect(await dates(b)).not.toContain(date);
    const full = await hold(b, date);
    expect(full.statusCode).toBe(409);
    expect(full.json().errors).toEqual({ time: 'shop.checkout.slotFull' });
  });

  it('every kind of cart change lets the hold go', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain, 2);
    const holdOf = async () =>
      checkoutSchema.parse((await b.get(`${CHECKOUT_API}?language=fi`)).json()).hold;
    const changes = [
      `${CART_API}/changequantity?language=fi&code=${CODES.plain}&quantity=3`,
      `${CART_API}/addcouponcode?language=fi&code=AGAIN`,
      `${CART_API}/removecouponcode?language=fi&code=AGAIN`,
      `${GIFT_CARD_ADD_API}?language=fi&code=${GIFT_CODE}`,
      `${GIFT_CARD_REMOVE_API}?language=fi&code=${GIFT_CODE}`,
      `${CART_API}/changequantity?language=fi&code=${CODES.plain}&quantity=0`,
    ];
    for (const change of changes) {
      await addToCart(b, CODES.plain, 1);
      await held(b);
      expect(await holdOf()).not.toBe(null);
      const res = await b.post(change);
      expect(res.statusCode, `${change}: ${res.body}`).toBe(200);
      expect(await holdOf(), change).toBe(null);
    }
  });

  it('deletes expired holds only (tidying)', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain);
    const id = await held(b);
    await deleteExpiredHolds(t.app.db);
    expect(
      await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, id)),
    ).toHaveLength(1);
    await t.app.db
      .update(checkoutHolds)
      .set({ expiresAt: sql`now() - interval '2 minutes'` })
      .where(eq(checkoutHolds.id, id));
    expect(await deleteExpiredHolds(t.app.db)).toBeGreaterThanOrEqual(1);
    expect(await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, id))).toEqual([]);
  });

  it("a login that merges a guest cart into the saved cart lets the saved cart's hold go", async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain);
    const id = await held(b);
    expect((await b.post(`${ACCOUNT_API}/logout`, json({}))).statusCode).toBe(200);
    await addToCart(b, CODES.stocked);
    const login = await b.post(
      `${ACCOUNT_API}/login`,
      json({ email: emailOf.get(b), password: PASSWORD }),
    );
    expect(login.statusCode, login.body).toBe(200);
    const checkout = checkoutSchema.parse((await b.get(`${CHECKOUT_API}?language=fi`)).json());
    expect(checkout.cart.lineItems.map((l) => l.code).sort()).toEqual(
      [CODES.plain, CODES.stocked].sort(),
    );
    expect(checkout.hold).toBe(null);
    expect(await t.app.db.select().from(checkoutHolds).where(eq(checkoutHolds.id, id))).toEqual([]);
  });

  it('refuses an order whose delivery address is outside the area of the held time', async () => {
    const b = await buyer(t.app);
    await addToCart(b, CODES.plain);
    const id = await held(b);
    await t.app.db
      .update(customers)
      .set({
        deliveryAddress: {
          firstName: 'Maija',
          lastName: 'Meikäläinen',
          streetAddress: 'Kaukotie 1',
          postalCode: '99999',
          city: 'Inari',
        },
      })
      .where(eq(customers.email, emailOf.get(b) ?? ''));
    const refused = await order(b, id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors).toEqual({ deliveryAddress: 'shop.delivery.notAvailable' });
    expect(await t.app.db.select().from(orders).where(eq(orders.checkoutId, id))).toEqual([]);
  });
});
