import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
  order,
} from '../orders/checkout.test-support.ts';
import { GIFT_CARD_ADD_API } from '../orders/schemas.ts';
import { CART_API } from '../schemas.ts';
import { coupons, giftCards } from '../tables.ts';
import {
  COUPONS_API,
  type CouponRow,
  GIFT_CARDS_API,
  type GiftCard,
} from './promotions-schemas.ts';

/**
 * Coupons and gift cards in the back office (decision 144): a coupon made, used, and edited only
 * on the version seen and never below its uses; a gift card issued by hand (its code shown once),
 * found by code, used by an order and adjusted with a reason, its history telling all of it.
 */
let t: TestApp;
let staff: Enrolled;

const coupon = (code: string, over: Record<string, unknown> = {}) => ({
  code,
  description: 'Joulu',
  percentOff: 10,
  amountOffCents: null,
  productGroup: null,
  minOrderCents: 0,
  validFrom: null,
  validTo: null,
  maxUses: 3,
  maxUsesPerCustomer: null,
  combinable: true,
  active: true,
  ...over,
});

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
  staff = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('coupons in the back office', () => {
  it('makes a coupon shoppers can use, and counts its uses', async () => {
    const made = await staff.visitor.post(COUPONS_API, json(coupon('joulu10')));
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json()).toMatchObject({ code: 'JOULU10', usedCount: 0, version: 0 });
    const again = await staff.visitor.post(COUPONS_API, json(coupon('JOULU10')));
    expect(again.statusCode).toBe(409);
    const both = await staff.visitor.post(
      COUPONS_API,
      json(coupon('KAKSI', { amountOffCents: 500 })),
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual({ percentOff: 'admin.error.couponKind' });
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    expect((await v.post(`${CART_API}/addcouponcode?language=fi&code=joulu10`)).statusCode).toBe(
      200,
    );
    expect((await order(v, await held(v))).statusCode).toBe(200);
    const list = (await staff.visitor.get(`${COUPONS_API}?q=joulu`)).json() as {
      coupons: CouponRow[];
    };
    expect(list.coupons.map((c) => [c.code, c.usedCount])).toEqual([['JOULU10', 1]]);
  });

  it('edits on the version seen; a limit below the uses is refused with the count', async () => {
    // A coupon of its own, made as staff make one: its versions and uses are this test's alone.
    const made = await staff.visitor.post(COUPONS_API, json(coupon('TALVI10')));
    expect(made.statusCode, made.body).toBe(200);
    const id = (made.json() as CouponRow).id;
    const below = await staff.visitor.request(
      'PUT',
      `${COUPONS_API}/${id}`,
      json({ coupon: coupon('TALVI10', { maxUses: 0 }), version: 0 }),
    );
    expect(below.statusCode).toBe(400);
    const zero = await t.app.db.select().from(coupons).where(eq(coupons.id, id));
    expect(zero[0]?.maxUses).toBe(3);
    await t.app.db.update(coupons).set({ maxUses: 5 }).where(eq(coupons.id, id));
    const res = await staff.visitor.request(
      'PUT',
      `${COUPONS_API}/${id}`,
      json({ coupon: coupon('TALVI10', { percentOff: 15, maxUses: 2 }), version: 0 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ percentOff: 15, maxUses: 2, version: 1 });
    const stale = await staff.visitor.request(
      'PUT',
      `${COUPONS_API}/${id}`,
      json({ coupon: coupon('TALVI10', { percentOff: 50 }), version: 0 }),
    );
    expect(stale.statusCode).toBe(409);
    await t.app.db.update(coupons).set({ usedCount: 2 }).where(eq(coupons.id, id));
    const tooLow = await staff.visitor.request(
      'PUT',
      `${COUPONS_API}/${id}`,
      json({ coupon: coupon('TALVI10', { percentOff: 15, maxUses: 1 }), version: 1 }),
    );
    expect(tooLow.statusCode).toBe(409);
    expect(tooLow.json().detail).toContain('used 2 times');
    const [after] = await t.app.db.select().from(coupons).where(eq(coupons.id, id));
    expect(after).toMatchObject({ percentOff: 15, maxUses: 2, version: 1 });
    // The audit rows of this coupon: the one edit made, the refused ones wrote none.
    const edits = (await auditOf(t.app, 'coupon.edit')).filter((e) => e.subjectId === String(id));
    expect(edits.map((e) => e.changes)).toEqual([
      {
        percentOff: { before: 10, after: 15 },
        maxUses: { before: 5, after: 2 },
      },
    ]);
  });
});

describe('gift cards in the back office', () => {
  it('issues a card whose code is shown once, finds it, and keeps its history with reasons', async () => {
    const issued = await staff.visitor.post(
      GIFT_CARDS_API,
      json({ amountCents: 3000, validTo: '2030-06-30', reason: 'Reklamaatio 123' }),
    );
    expect(issued.statusCode, issued.body).toBe(200);
    const { code, card } = issued.json() as { code: string; card: GiftCard };
    expect(card).toMatchObject({ initialCents: 3000, balanceCents: 3000 });
    expect(card.validTo?.startsWith('2030-06-30T21:00')).toBe(true);
    const [stored] = await t.app.db.select().from(giftCards).where(eq(giftCards.id, card.id));
    expect(JSON.stringify(stored)).not.toContain(code);

    // A shopper pays 10,00 of an order with it.
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    expect((await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${code}`)).statusCode).toBe(200);
    expect((await order(v, await held(v))).statusCode).toBe(200);

    const found = await staff.visitor.post(
      `${GIFT_CARDS_API}/find`,
      json({ code: code.toLowerCase() }),
    );
    expect(found.statusCode, found.body).toBe(200);
    const seen = found.json() as GiftCard;
    expect(seen.balanceCents).toBe(2000);
    expect(seen.history.map((h) => [h.kind, h.deltaCents, h.reason])).toEqual([
      ['adjustment', 3000, 'Reklamaatio 123'],
      ['order', -1000, null],
    ]);
    expect(await auditOf(t.app, 'gift-card.find')).toHaveLength(1);

    const stale = await staff.visitor.post(
      `${GIFT_CARDS_API}/${card.id}/adjust`,
      json({ deltaCents: -500, expectedBalanceCents: 3000, reason: 'Väärä' }),
    );
    expect(stale.statusCode).toBe(409);
    const lowered = await staff.visitor.post(
      `${GIFT_CARDS_API}/${card.id}/adjust`,
      json({ deltaCents: -500, expectedBalanceCents: 2000, reason: 'Korjaus' }),
    );
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect((lowered.json() as GiftCard).balanceCents).toBe(1500);
    const below = await staff.visitor.post(
      `${GIFT_CARDS_API}/${card.id}/adjust`,
      json({ deltaCents: -2000, expectedBalanceCents: 1500, reason: 'Liikaa' }),
    );
    expect(below.statusCode).toBe(409);
    const topUp = await staff.visitor.post(
      `${GIFT_CARDS_API}/${card.id}/adjust`,
      json({ deltaCents: 2500, expectedBalanceCents: 1500, reason: 'Lisäys' }),
    );
    expect(topUp.json() as GiftCard).toMatchObject({ balanceCents: 4000, initialCents: 4000 });
    const noReason = await staff.visitor.post(
      `${GIFT_CARDS_API}/${card.id}/adjust`,
      json({ deltaCents: 1, expectedBalanceCents: 4000, reason: ' ' }),
    );
    expect(noReason.statusCode).toBe(400);
    const unknown = await staff.visitor.post(
      `${GIFT_CARDS_API}/find`,
      json({ code: 'EIOLE-1234' }),
    );
    expect(unknown.statusCode).toBe(404);
  });
});
