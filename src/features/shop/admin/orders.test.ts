import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import {
  auditOf,
  type Enrolled,
  enrolledStaff,
  json,
  reauth,
} from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { staffSessions } from '../../staff/tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  emailOf,
  held,
  order,
  pathOf,
  stockOf,
  testBank,
} from '../orders/checkout.test-support.ts';
import { orderAnswerSchema } from '../orders/schemas.ts';
import { CART_API } from '../schemas.ts';
import {
  coupons,
  deliverySlotBookings,
  orderRefunds,
  orders,
  testBankPayments,
} from '../tables.ts';
import {
  ORDERS_API,
  type OrderDetail,
  type OrdersList,
  PICK_LIST_API,
  type PickList,
} from './schemas.ts';

/**
 * The back office's order routes as shop staff use them (decision 141): five shoppers order for
 * the same slot through the real checkout and test bank; the pick list sums their lines; one of
 * them is refunded by a line, once however often it is pressed, and never above what was paid.
 * Orders move packed → out for delivery → delivered in bulk, and one is cancelled (slot place,
 * stock and coupon use come back, its payment is refunded): those tests place orders of their own
 * on dates of their own, so the five stay as placed and no test depends on another having run.
 * Every change leaves its audit row.
 */

let t: TestApp;
let staff: Enrolled;
const COUPON = 'PAKKAAMO10';
const DATE = deliveryDate(4);
/** The delivery dates of the orders the fulfilment test and the cancellation test place. */
const MOVES_DATE = deliveryDate(5);
const CANCEL_DATE = deliveryDate(6);
type Placed = { id: string; number: number; shopper: Visitor };
/** The five orders, in the order they were placed. */
const placed: Placed[] = [];

/** Orders a stocked and two plain products for `date` (the five's slot unless given), and pays. */
async function pay(
  shopper: Visitor,
  { couponCode, date = DATE }: { couponCode?: string; date?: string } = {},
): Promise<Placed> {
  await addToCart(shopper, CODES.stocked, 1);
  await addToCart(shopper, CODES.plain, 2);
  if (couponCode) {
    const added = await shopper.post(`${CART_API}/addcouponcode?language=fi&code=${couponCode}`);
    expect(added.statusCode, added.body).toBe(200);
  }
  const res = await order(shopper, await held(shopper, date));
  expect(res.statusCode, res.body).toBe(200);
  const answer = orderAnswerSchema.parse(res.json());
  const back = await testBank(shopper, answer.next, 'ok');
  expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
  return { id: answer.orderId, number: answer.orderNumber, shopper };
}

beforeAll(async () => {
  t = await createTestApp();
  // Enough stock for the five and for the orders the tests place of their own.
  await createCheckoutShop(t.app.db, { slotCapacity: 50, stock: 20 });
  await t.app.db.insert(coupons).values({
    siteId: 'lihakauppa',
    code: COUPON,
    percentOff: 10,
    maxUses: 10,
  });
  for (let i = 0; i < 5; i++)
    placed.push(await pay(await buyer(t.app), i === 0 ? { couponCode: COUPON } : {}));
  staff = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const at = (i: number, list = placed) => list[i] as Placed;

async function detail(id: string): Promise<OrderDetail> {
  const res = await staff.visitor.get(`${ORDERS_API}/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as OrderDetail;
}

async function bookedInSlot(date: string): Promise<number> {
  const [row] = await t.app.db
    .select({ sold: deliverySlotBookings.sold })
    .from(deliverySlotBookings)
    .where(and(eq(deliverySlotBookings.date, date), eq(deliverySlotBookings.startTime, '08:00')));
  return row?.sold ?? 0;
}

async function couponUses(): Promise<number> {
  const [row] = await t.app.db
    .select({ used: coupons.usedCount })
    .from(coupons)
    .where(eq(coupons.code, COUPON));
  return row?.used ?? -1;
}

describe('orders in the back office', () => {
  it('lists the slot’s orders and finds one by number and by e-mail address', async () => {
    const res = await staff.visitor.get(`${ORDERS_API}?deliveryDate=${DATE}&slot=08:00`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as OrdersList;
    expect(list.total).toBe(5);
    expect(list.orders.every((o) => o.status === 'paid' && o.payment === 'ok')).toBe(true);
    const byNumber = (await staff.visitor.get(`${ORDERS_API}?q=${at(2).number}`)).json();
    expect(byNumber.orders.map((o: { id: string }) => o.id)).toEqual([at(2).id]);
    const email = emailOf.get(at(3).shopper) ?? '';
    const byEmail = (
      await staff.visitor.get(`${ORDERS_API}?q=${encodeURIComponent(email.slice(0, 12))}`)
    ).json();
    expect(byEmail.orders.map((o: { id: string }) => o.id)).toEqual([at(3).id]);
    // A pattern's own characters are literal: `%` matches nothing here.
    expect((await staff.visitor.get(`${ORDERS_API}?q=%25`)).json().total).toBe(0);
    expect((await staff.visitor.get(`${ORDERS_API}?status=nonsense`)).statusCode).toBe(400);
    expect(await auditOf(t.app, 'order.list')).not.toHaveLength(0);
  });

  it('sums the slot’s products on the pick list, then lists each order', async () => {
    const res = await staff.visitor.get(`${PICK_LIST_API}?date=${DATE}&slot=08:00`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as PickList;
    expect(list.slots).toEqual([{ startTime: '08:00', endTime: '12:00', orders: 5 }]);
    expect(list.products.map((p) => [p.code, p.quantity])).toEqual([
      [CODES.plain, 10],
      [CODES.stocked, 5],
    ]);
    expect(list.orders.map((o) => o.number)).toEqual(placed.map((p) => p.number));
    expect(list.orders[0]?.lines).toEqual([
      { code: CODES.plain, name: 'Perustuote', quantity: 2 },
      { code: CODES.stocked, name: 'Varastotuote', quantity: 1 },
    ]);
    const other = (await staff.visitor.get(`${PICK_LIST_API}?date=${deliveryDate(9)}`)).json();
    expect(other.orders).toEqual([]);
  });

  it('moves orders packed, out for delivery and delivered in bulk; a repeat and a stale step change nothing', async () => {
    // Four orders of its own, for a date of their own.
    const own: Placed[] = [];
    for (let i = 0; i < 4; i++) own.push(await pay(await buyer(t.app), { date: MOVES_DATE }));
    const all = own.map((p) => ({ id: p.id, from: 'unfulfilled' }));
    const packed = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: all, to: 'packed' }),
    );
    expect(packed.statusCode, packed.body).toBe(200);
    expect(packed.json().moved.sort()).toEqual(own.map((p) => p.id).sort());
    const audits = (await auditOf(t.app, 'order.fulfilment')).length;
    // Pressed again: the same answer, nothing written.
    const again = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: all, to: 'packed' }),
    );
    expect(again.json().stale).toEqual([]);
    expect((await auditOf(t.app, 'order.fulfilment')).length).toBe(audits);

    const rest = own.slice(1).map((p) => ({ id: p.id, from: 'packed' }));
    const out = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: rest, to: 'out_for_delivery' }),
    );
    expect(out.json().moved).toHaveLength(3);
    // Someone else's view: the order is no longer where this one saw it.
    const stale = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: [{ id: at(1, own).id, from: 'unfulfilled' }], to: 'packed' }),
    );
    expect(stale.json()).toEqual({ moved: [], stale: [at(1, own).id] });
    const delivered = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({
        orders: own.slice(2).map((p) => ({ id: p.id, from: 'out_for_delivery' })),
        to: 'delivered',
      }),
    );
    expect(delivered.json().moved).toHaveLength(2);
    // Skipping a step is not a move.
    const skip = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: [{ id: at(0, own).id, from: 'packed' }], to: 'delivered' }),
    );
    expect(skip.statusCode).toBe(400);
    const shown = await detail(at(2, own).id);
    expect(shown.fulfilment).toBe('delivered');
    expect(shown.nextFulfilment).toEqual(['out_for_delivery']);
    expect(shown.timeline.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['placed', 'paid', 'payment', 'fulfilment', 'mail']),
    );
    // Leaving for delivery mailed each of its shoppers once, and the one still packed not at all.
    const mails = await t.app.db
      .select({ to: mailOutbox.recipients })
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} like '%on matkalla%'`);
    const mailsTo = (p: Placed) => mails.filter((m) => m.to === emailOf.get(p.shopper)).length;
    expect(own.map(mailsTo)).toEqual([0, 1, 1, 1]);
  });

  it('cancels a packed order after re-authentication: slot place, stock and coupon use come back, the payment is refunded', async () => {
    // Orders of its own, for a date of their own: one with the coupon, packed, and one that has
    // left for delivery, both moved there as staff move them.
    const mine = await pay(await buyer(t.app), { couponCode: COUPON, date: CANCEL_DATE });
    const leaving = await pay(await buyer(t.app), { date: CANCEL_DATE });
    const packed = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({
        orders: [mine, leaving].map((p) => ({ id: p.id, from: 'unfulfilled' })),
        to: 'packed',
      }),
    );
    expect(packed.statusCode, packed.body).toBe(200);
    const out = await staff.visitor.post(
      `${ORDERS_API}/fulfilment`,
      json({ orders: [{ id: leaving.id, from: 'packed' }], to: 'out_for_delivery' }),
    );
    expect(out.json().moved).toEqual([leaving.id]);
    const before = {
      stock: await stockOf(t.app.db, CODES.stocked),
      slot: await bookedInSlot(CANCEL_DATE),
      coupon: await couponUses(),
    };
    const id = mine.id;
    const shown = await detail(id);
    expect(shown.fulfilment).toBe('packed');
    expect(shown.cancellable).toBe(true);
    expect(shown.couponCodes).toEqual([COUPON]);
    // Signed in more than 5 minutes ago: money moves only after the password again.
    await t.app.db
      .update(staffSessions)
      .set({ verifiedAt: new Date(Date.now() - 6 * 60 * 1000) })
      .where(eq(staffSessions.staffId, staff.id));
    const refused = await staff.visitor.post(
      `${ORDERS_API}/${id}/cancel`,
      json({ reason: 'Tuote loppui' }),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().type).toBe('/problems/reauth');
    await reauth(staff.visitor, staff);
    const res = await staff.visitor.post(
      `${ORDERS_API}/${id}/cancel`,
      json({ reason: 'Tuote loppui' }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const cancelled = res.json() as OrderDetail;
    expect(cancelled).toMatchObject({ status: 'cancelled', fulfilment: 'unfulfilled' });
    expect(cancelled.refunds).toEqual([
      expect.objectContaining({ amountCents: shown.totalCents, status: 'ok' }),
    ]);
    expect(cancelled.refundableCents).toBe(0);
    expect(await stockOf(t.app.db, CODES.stocked)).toBe((before.stock ?? 0) + 1);
    expect(await bookedInSlot(CANCEL_DATE)).toBe(before.slot - 1);
    expect(await couponUses()).toBe(before.coupon - 1);
    const [bank] = await t.app.db
      .select({ refunded: testBankPayments.refundedCents })
      .from(testBankPayments)
      .where(eq(testBankPayments.reference, String(mine.number)));
    expect(bank?.refunded).toBe(shown.totalCents);
    // A second press: the same order, nothing more written or refunded.
    const audits = (await auditOf(t.app, 'order.cancel')).length;
    const again = await staff.visitor.post(`${ORDERS_API}/${id}/cancel`, json({ reason: '' }));
    expect(again.statusCode).toBe(200);
    expect((again.json() as OrderDetail).refunds).toHaveLength(1);
    expect((await auditOf(t.app, 'order.cancel')).length).toBe(audits);
    expect(await stockOf(t.app.db, CODES.stocked)).toBe((before.stock ?? 0) + 1);
    // Out for delivery: too late to cancel.
    const late = await staff.visitor.post(`${ORDERS_API}/${leaving.id}/cancel`, json({}));
    expect(late.statusCode).toBe(409);
    expect((await detail(leaving.id)).status).toBe('paid');
  });

  it('refunds a line once however often pressed, and never above what was paid', async () => {
    const id = at(3).id;
    const shown = await detail(id);
    const line = shown.lines.find((l) => l.code === CODES.plain);
    await reauth(staff.visitor, staff);
    const key = randomUUID();
    const body = { key, lines: [{ code: CODES.plain, quantity: 1 }] };
    const [first, second] = await Promise.all([
      staff.visitor.post(`${ORDERS_API}/${id}/refunds`, json(body)),
      staff.visitor.post(`${ORDERS_API}/${id}/refunds`, json(body)),
    ]);
    expect(first?.statusCode, first?.body).toBe(200);
    expect(second?.statusCode, second?.body).toBe(200);
    const refunded = await detail(id);
    expect(refunded.refunds).toEqual([
      expect.objectContaining({ amountCents: (line?.chargedCents ?? 0) / 2, status: 'ok' }),
    ]);
    expect(refunded.lines.find((l) => l.code === CODES.plain)?.refundedQuantity).toBe(1);
    expect(refunded.refundableCents).toBe(shown.totalCents - (line?.chargedCents ?? 0) / 2);
    expect(await auditOf(t.app, 'order.refund')).toHaveLength(1);
    // More than is left: 409, nothing written.
    const above = await staff.visitor.post(
      `${ORDERS_API}/${id}/refunds`,
      json({ key: randomUUID(), amountCents: refunded.refundableCents + 1 }),
    );
    expect(above.statusCode).toBe(409);
    const rows = await t.app.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, id));
    expect(rows).toHaveLength(1);
    const [bank] = await t.app.db
      .select({ refunded: testBankPayments.refundedCents })
      .from(testBankPayments)
      .where(eq(testBankPayments.reference, String(at(3).number)));
    expect(bank?.refunded).toBe(rows[0]?.amountCents);
    const mails = await t.app.db
      .select({ to: mailOutbox.recipients })
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} like ${`Palautus tilauksesta ${at(3).number}%`}`);
    expect(mails).toEqual([{ to: emailOf.get(at(3).shopper) }]);
  });

  it('keeps notes as text, refuses a NUL byte and a 20 MB body without writing', async () => {
    const id = at(4).id;
    const note = await staff.visitor.post(
      `${ORDERS_API}/${id}/notes`,
      json({ text: '<script>alert(1)</script> soitettu' }),
    );
    expect(note.statusCode, note.body).toBe(200);
    const entry = (note.json() as OrderDetail).timeline.find((e) => e.kind === 'note');
    expect(entry).toMatchObject({
      text: '<script>alert(1)</script> soitettu',
      staff: expect.any(String),
    });
    const count = (await detail(id)).timeline.length;
    const nul = await staff.visitor.post(`${ORDERS_API}/${id}/notes`, json({ text: 'a\u0000b' }));
    expect(nul.statusCode).toBe(400);
    const huge = await staff.visitor.post(
      `${ORDERS_API}/${id}/notes`,
      json({ text: 'x'.repeat(20 * 1024 * 1024) }),
    );
    expect(huge.statusCode).toBe(413);
    expect((await detail(id)).timeline.length).toBe(count);
    const empty = await staff.visitor.post(`${ORDERS_API}/${id}/notes`, json({ text: '  ' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual({ text: 'admin.error.required' });
  });

  it('keeps a customer-service member without orders.manage to reading', async () => {
    const reader = await enrolledStaff(t.app, [
      { role: 'customer-service', sites: ['lihakauppa'], langs: null },
    ]);
    expect((await reader.visitor.get(`${ORDERS_API}/${at(4).id}`)).statusCode).toBe(200);
    const write = await reader.visitor.post(
      `${ORDERS_API}/${at(4).id}/notes`,
      json({ text: 'Ei saa' }),
    );
    expect(write.statusCode).toBe(403);
    const [row] = await t.app.db
      .select()
      .from(orders)
      .where(eq(orders.id, at(4).id));
    expect(row?.status).toBe('paid');
  });
});
