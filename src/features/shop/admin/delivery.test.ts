import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import {
  auditCount,
  auditOf,
  type Enrolled,
  enrolledStaff,
  json,
} from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { weekdayOf } from '../dates.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  held,
  hold,
  order,
  pathOf,
  testBank,
} from '../orders/checkout.test-support.ts';
import { CHECKOUT_HOLD_API, orderAnswerSchema } from '../orders/schemas.ts';
import {
  deliveryAreaPostalCodes,
  deliveryCalendarSlots,
  deliveryClosedDates,
  deliverySlotBookings,
  orders,
} from '../tables.ts';
import {
  type AreaRow,
  type BookedOrder,
  type ClosedAnswer,
  DELIVERY_API,
  type DeliveryList,
  type SlotRow,
} from './delivery-schemas.ts';

/**
 * Delivery in the back office as shop staff use it (decision 142): shoppers order through the
 * real checkout and test bank, then staff change the slots and close days. A change never breaks
 * a booked order's slot: a capacity below the places sold is refused with the count and writes
 * nothing; closing a day with orders lists them and writes nothing until confirmed with the same
 * orders. Every write leaves exactly one audit row; every refusal none.
 */

let t: TestApp;
let staff: Enrolled;
let areaId = 0;
const AREAS = `${DELIVERY_API}/areas`;
/** Three paid orders on DATE, one on the same weekday a week later. */
const DATE = deliveryDate(4);
const WEEK_LATER = deliveryDate(11);
/** One order waiting for its payment. */
const UNPAID_DATE = deliveryDate(5);
const onDate: { id: string; number: number }[] = [];
let unpaid: { id: string; number: number };

async function placed(shopper: Visitor, date: string) {
  await addToCart(shopper, CODES.plain, 1);
  const res = await order(shopper, await held(shopper, date));
  expect(res.statusCode, res.body).toBe(200);
  const answer = orderAnswerSchema.parse(res.json());
  return { id: answer.orderId, number: answer.orderNumber, next: answer.next, shopper };
}

async function paid(date: string) {
  const { id, number, next, shopper } = await placed(await buyer(t.app), date);
  const back = await testBank(shopper, next, 'ok');
  expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
  return { id, number };
}

beforeAll(async () => {
  t = await createTestApp();
  ({ areaId } = await createCheckoutShop(t.app.db, { slotCapacity: 10 }));
  for (let i = 0; i < 3; i++) onDate.push(await paid(DATE));
  await paid(WEEK_LATER);
  const waiting = await placed(await buyer(t.app), UNPAID_DATE);
  unpaid = { id: waiting.id, number: waiting.number };
  staff = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const put = (v: Visitor, url: string, body: unknown) => v.request('PUT', url, json(body));

async function list(): Promise<DeliveryList> {
  const res = await staff.visitor.get(DELIVERY_API);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DeliveryList;
}

async function area(id = areaId): Promise<AreaRow> {
  const found = (await list()).areas.find((a) => a.id === id);
  if (!found) throw new Error(`no area ${id}`);
  return found;
}

/** The weekly slot the orders on `date` are in. */
async function slotOf(date: string): Promise<SlotRow> {
  const slot = (await area()).slots.find((s) => s.weekday === weekdayOf(date));
  if (!slot) throw new Error(`no slot on ${date}`);
  return slot;
}

const slotBody = (slot: SlotRow, change: Partial<SlotRow> = {}) => {
  const { weekday, startTime, endTime, capacity, cutoffDaysBefore, cutoffTime } = {
    ...slot,
    ...change,
  };
  return { weekday, startTime, endTime, capacity, cutoffDaysBefore, cutoffTime };
};

async function capacityOn(date: string): Promise<number | undefined> {
  const [row] = await t.app.db
    .select({ capacity: deliverySlotBookings.capacity })
    .from(deliverySlotBookings)
    .where(
      and(
        eq(deliverySlotBookings.areaId, areaId),
        eq(deliverySlotBookings.date, date),
        eq(deliverySlotBookings.startTime, '08:00'),
      ),
    );
  return row?.capacity;
}

/** Runs a write that must succeed and leave exactly one audit row, by the staff member. */
async function once<T>(send: () => Promise<{ statusCode: number; body: string }>): Promise<T> {
  const before = await auditCount(t.app);
  const res = await send();
  expect(res.statusCode, res.body).toBe(200);
  expect(await auditCount(t.app)).toBe(before + 1);
  return JSON.parse(res.body) as T;
}

/** Runs a request that must be refused with `status` and write nothing, not even an audit row. */
async function refused(status: number, send: () => Promise<{ statusCode: number; body: string }>) {
  const before = await auditCount(t.app);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expect(await auditCount(t.app)).toBe(before);
  return JSON.parse(res.body) as Record<string, unknown>;
}

describe('delivery in the back office', () => {
  it('lists the areas with their codes, slots, booked dates and upcoming closed dates', async () => {
    const res = await staff.visitor.get(DELIVERY_API);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const shown = await area();
    expect(shown).toMatchObject({ name: 'Testi', active: true, postalCodes: ['00100'] });
    expect(shown.slots).toHaveLength(7);
    expect((await slotOf(DATE)).booked).toEqual([
      { date: DATE, sold: 3 },
      { date: WEEK_LATER, sold: 1 },
    ]);
    expect(shown.closedDates).toEqual([]);
  });

  it('refuses a capacity below the orders booked with their count and dates, and changes nothing', async () => {
    const slot = await slotOf(DATE);
    const problem = await refused(409, () =>
      put(staff.visitor, `${AREAS}/${areaId}/slots/${slot.id}`, slotBody(slot, { capacity: 2 })),
    );
    expect(problem).toMatchObject({
      type: '/problems/slot-booked',
      booked: 3,
      affected: [{ date: DATE, sold: 3 }],
    });
    expect(problem.detail).toContain('3 orders are booked');
    expect(problem.detail).toContain(DATE);
    const [row] = await t.app.db
      .select()
      .from(deliveryCalendarSlots)
      .where(eq(deliveryCalendarSlots.id, slot.id));
    expect(row?.capacity).toBe(10);
    expect(await capacityOn(DATE)).toBe(10);
    // Removing the slot, or moving its time, would take the orders' slot away too.
    const gone = await refused(409, () =>
      staff.visitor.delete(`${AREAS}/${areaId}/slots/${slot.id}`),
    );
    expect(gone.affected).toEqual([
      { date: DATE, sold: 3 },
      { date: WEEK_LATER, sold: 1 },
    ]);
    const moved = await refused(409, () =>
      put(
        staff.visitor,
        `${AREAS}/${areaId}/slots/${slot.id}`,
        slotBody(slot, { startTime: '09:00' }),
      ),
    );
    expect(moved.booked).toBe(4);
    await refused(409, () =>
      put(
        staff.visitor,
        `${AREAS}/${areaId}/slots/${slot.id}`,
        slotBody(slot, { endTime: '13:00' }),
      ),
    );
    expect((await slotOf(DATE)).endTime).toBe('12:00');
  });

  it('changes the calendar and the upcoming dated slots together when the capacity covers the orders', async () => {
    const slot = await slotOf(DATE);
    const other = await slotOf(UNPAID_DATE);
    const updated = await once<AreaRow>(() =>
      put(
        staff.visitor,
        `${AREAS}/${areaId}/slots/${slot.id}`,
        slotBody(slot, { capacity: 3, cutoffTime: '18:00' }),
      ),
    );
    expect(updated.slots.find((s) => s.id === slot.id)).toMatchObject({
      capacity: 3,
      cutoffTime: '18:00',
    });
    expect(await capacityOn(DATE)).toBe(3);
    expect(await capacityOn(WEEK_LATER)).toBe(3);
    // The same weekday's dates without orders yet carry the new capacity too.
    expect(await capacityOn(deliveryDate(18))).toBe(3);
    // Another weekday's slot is its own.
    expect(await capacityOn(UNPAID_DATE)).toBe(10);
    expect(other.capacity).toBe(10);
    const audit = (await auditOf(t.app, 'delivery.slot.update'))
      .filter((row) => row.subjectId === String(areaId))
      .at(-1);
    expect(audit).toMatchObject({
      staffId: staff.id,
      subjectType: 'delivery-area',
      subjectId: String(areaId),
      siteId: 'lihakauppa',
    });
    expect(audit?.changes).toMatchObject({
      capacity: { before: 10, after: 3 },
      cutoffTime: { before: '23:59', after: '18:00' },
    });
    // The date is full now: a fourth shopper cannot hold it; the week after still has room.
    const late = await buyer(t.app);
    await addToCart(late, CODES.plain, 1);
    const full = await hold(late, DATE);
    expect(full.statusCode, full.body).toBe(409);
    expect((await hold(late, WEEK_LATER)).statusCode).toBe(200);

    // Put back as the other tests find it: the hold let go, the capacity 10 again.
    expect((await late.delete(CHECKOUT_HOLD_API)).statusCode).toBe(204);
    await once(() =>
      put(staff.visitor, `${AREAS}/${areaId}/slots/${slot.id}`, slotBody(slot, { capacity: 10 })),
    );
    expect(await capacityOn(DATE)).toBe(10);
  });

  it('lists the orders of a day before closing it, writes nothing, and closes it when confirmed with the same orders', async () => {
    const url = `${AREAS}/${areaId}/closed-dates`;
    const problem = await refused(409, () => staff.visitor.post(url, json({ date: DATE })));
    expect(problem.type).toBe('/problems/orders-on-date');
    expect(problem.detail).toContain('3 orders');
    const listed = problem.orders as BookedOrder[];
    expect(listed.map((o) => o.number)).toEqual(onDate.map((o) => o.number));
    expect(listed[0]).toMatchObject({
      status: 'paid',
      deliveryDate: DATE,
      startTime: '08:00',
      endTime: '12:00',
      name: expect.any(String),
      email: expect.stringContaining('@'),
    });
    expect(await t.app.db.select().from(deliveryClosedDates)).toEqual([]);
    // Confirmed with a list that is not what is on the date now: shown again.
    await refused(409, () =>
      staff.visitor.post(
        url,
        json({ date: DATE, confirm: true, orderIds: listed.slice(1).map((o) => o.id) }),
      ),
    );
    const closed = await once<ClosedAnswer>(() =>
      staff.visitor.post(
        url,
        json({ date: DATE, confirm: true, orderIds: listed.map((o) => o.id) }),
      ),
    );
    expect(closed.orders.map((o) => o.id)).toEqual(listed.map((o) => o.id));
    expect(closed.area.closedDates).toEqual([{ date: DATE, orders: 3 }]);
    // The orders keep their slot.
    for (const { id } of onDate) {
      const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
      expect(row).toMatchObject({ status: 'paid', deliveryDate: DATE, startTime: '08:00' });
    }
    const audit = (await auditOf(t.app, 'delivery.closed-date.add')).find(
      (row) => (row.changes as { closedDate?: { after: string } }).closedDate?.after === DATE,
    );
    expect(audit?.changes).toMatchObject({
      closedDate: { after: DATE },
      ordersOnDate: { after: onDate.map((o) => o.number) },
    });
    // Again: the same answer, nothing more written.
    const before = await auditCount(t.app);
    const again = await staff.visitor.post(url, json({ date: DATE }));
    expect(again.statusCode, again.body).toBe(200);
    expect(await auditCount(t.app)).toBe(before);
    // An order waiting for its payment counts as booked too.
    const waiting = await refused(409, () => staff.visitor.post(url, json({ date: UNPAID_DATE })));
    expect((waiting.orders as BookedOrder[]).map((o) => [o.number, o.status])).toEqual([
      [unpaid.number, 'pending_payment'],
    ]);
    // A past date cannot be closed.
    const past = await refused(400, () =>
      staff.visitor.post(url, json({ date: deliveryDate(-1) })),
    );
    expect(past.errors).toEqual({ date: 'admin.delivery.error.pastDate' });

    // Opened again, as the other tests find it.
    await once(() => staff.visitor.delete(`${url}/${DATE}`));
  });

  it('refuses the order of a shopper who held a date that was closed meanwhile', async () => {
    const date = deliveryDate(6);
    const closedBefore = (await area()).closedDates;
    const shopper = await buyer(t.app);
    await addToCart(shopper, CODES.plain, 1);
    const checkoutId = await held(shopper, date);
    await once<ClosedAnswer>(() =>
      staff.visitor.post(`${AREAS}/${areaId}/closed-dates`, json({ date })),
    );
    const res = await order(shopper, checkoutId);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().errors).toEqual({ time: 'shop.checkout.timeInvalid' });
    expect(await t.app.db.select().from(orders).where(eq(orders.deliveryDate, date))).toEqual([]);
    // Opened again, it is offered again.
    const reopened = await once<AreaRow>(() =>
      staff.visitor.delete(`${AREAS}/${areaId}/closed-dates/${date}`),
    );
    expect(reopened.closedDates).toEqual(closedBefore);
  });

  it('lists the upcoming orders before an area is turned off or their postal code removed, writes nothing, goes through when confirmed, and refuses an order held before', async () => {
    const url = `${AREAS}/${areaId}`;
    const upcoming = (
      await t.app.db
        .select()
        .from(orders)
        .where(and(eq(orders.areaId, areaId), inArray(orders.status, ['paid', 'pending_payment'])))
    )
      .sort(
        (a, b) =>
          String(a.deliveryDate).localeCompare(String(b.deliveryDate)) || a.number - b.number,
      )
      .map((o) => o.number);
    expect(upcoming).toHaveLength(5);
    const heldBefore = async () => {
      const shopper = await buyer(t.app);
      await addToCart(shopper, CODES.plain, 1);
      return { shopper, checkoutId: await held(shopper, deliveryDate(6)) };
    };
    const refusedOrder = async (holder: { shopper: Visitor; checkoutId: string }) => {
      const res = await order(holder.shopper, holder.checkoutId);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().errors).toEqual({ deliveryAddress: 'shop.delivery.notAvailable' });
    };
    const soldOn = async (date: string) =>
      (await t.app.db.select().from(deliverySlotBookings))
        .filter((row) => row.areaId === areaId && row.date === date)
        .reduce((sum, row) => sum + row.sold, 0);

    // Turned off: the orders listed, nothing written until confirmed with the same orders.
    const holder = await heldBefore();
    const problem = await refused(409, () => put(staff.visitor, url, { active: false }));
    expect(problem.type).toBe('/problems/orders-in-area');
    expect(problem.detail).toContain('5 orders');
    const listed = problem.orders as BookedOrder[];
    expect(listed.map((o) => o.number)).toEqual(upcoming);
    expect((await area()).active).toBe(true);
    await refused(409, () =>
      put(staff.visitor, url, {
        active: false,
        confirm: true,
        orderIds: listed.slice(1).map((o) => o.id),
      }),
    );
    const off = await once<AreaRow>(() =>
      put(staff.visitor, url, { active: false, confirm: true, orderIds: listed.map((o) => o.id) }),
    );
    expect(off.active).toBe(false);
    const offRows = (await auditOf(t.app, 'delivery.area.update')).filter(
      (row) =>
        row.subjectId === String(areaId) &&
        (row.changes as { active?: { after: boolean } }).active?.after === false,
    );
    expect(offRows.map((row) => row.changes)).toEqual([
      {
        active: { before: true, after: false },
        ordersInArea: { before: null, after: upcoming },
      },
    ]);
    // The shopper who held a time before is refused at the order, and the slot's place is free.
    const sold = await soldOn(deliveryDate(6));
    await refusedOrder(holder);
    expect(await soldOn(deliveryDate(6))).toBe(sold);
    // The orders keep their slot.
    for (const { id } of onDate) {
      const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
      expect(row).toMatchObject({ status: 'paid', deliveryDate: DATE, startTime: '08:00' });
    }
    await once(() => put(staff.visitor, url, { active: true }));

    // The postal code the orders go to, removed: the same.
    const codes = `${url}/postal-codes`;
    const before = (await area()).postalCodes;
    await once(() => put(staff.visitor, codes, { postalCodes: [...before, '00990'] }));
    // A code nobody orders to goes without asking.
    await once(() => put(staff.visitor, codes, { postalCodes: before }));
    const second = await heldBefore();
    const without = before.filter((code) => code !== '00100');
    const removing = await refused(409, () => put(staff.visitor, codes, { postalCodes: without }));
    expect(removing.type).toBe('/problems/orders-in-postal-codes');
    expect((removing.orders as BookedOrder[]).map((o) => o.number)).toEqual(upcoming);
    expect((await area()).postalCodes).toEqual(before);
    await once(() =>
      put(staff.visitor, codes, {
        postalCodes: without,
        confirm: true,
        orderIds: (removing.orders as BookedOrder[]).map((o) => o.id),
      }),
    );
    await refusedOrder(second);
    expect(await soldOn(deliveryDate(6))).toBe(sold);
    await once(() => put(staff.visitor, codes, { postalCodes: before }));
  });

  it('keeps a postal code in one area: another area’s code is refused naming the area', async () => {
    const made = await once<AreaRow>(() =>
      staff.visitor.post(AREAS, json({ name: '<script>alert(1)</script> Espoo' })),
    );
    expect(made).toMatchObject({ name: '<script>alert(1)</script> Espoo', active: true });
    const codes = `${AREAS}/${made.id}/postal-codes`;
    const taken = await refused(409, () =>
      put(staff.visitor, codes, { postalCodes: ['02100', '00 100'] }),
    );
    expect(taken).toMatchObject({
      type: '/problems/postal-code-taken',
      taken: [{ postalCode: '00100', areaId, areaName: 'Testi' }],
    });
    expect(taken.detail).toContain('Testi');
    expect(
      await t.app.db
        .select()
        .from(deliveryAreaPostalCodes)
        .where(eq(deliveryAreaPostalCodes.areaId, made.id)),
    ).toEqual([]);
    const set = await once<AreaRow>(() =>
      put(staff.visitor, codes, { postalCodes: [' 02 100', 'fi-02200', '02100'] }),
    );
    expect(set.postalCodes).toEqual(['02100', 'FI-02200']);
    const renamed = await once<AreaRow>(() =>
      put(staff.visitor, `${AREAS}/${made.id}`, { name: 'Espoo', active: false }),
    );
    expect(renamed).toMatchObject({ name: 'Espoo', active: false });
    const added = await once<AreaRow>(() =>
      staff.visitor.post(
        `${AREAS}/${made.id}/slots`,
        json({
          weekday: 2,
          startTime: '16:00',
          endTime: '20:00',
          capacity: 5,
          cutoffDaysBefore: 1,
          cutoffTime: '12:00',
        }),
      ),
    );
    const slot = added.slots[0] as SlotRow;
    expect(slot).toMatchObject({ weekday: 2, startTime: '16:00', capacity: 5, booked: [] });
    // The same weekday and start time again: one slot each.
    await refused(409, () =>
      staff.visitor.post(`${AREAS}/${made.id}/slots`, json(slotBody(slot, { capacity: 9 }))),
    );
    // No orders: its time may move, and it may go.
    await once(() =>
      put(
        staff.visitor,
        `${AREAS}/${made.id}/slots/${slot.id}`,
        slotBody(slot, { startTime: '15:00' }),
      ),
    );
    const emptied = await once<AreaRow>(() =>
      staff.visitor.delete(`${AREAS}/${made.id}/slots/${slot.id}`),
    );
    expect(emptied.slots).toEqual([]);
    const ofMade = (await auditOf(t.app, 'delivery.postal-codes')).filter(
      (row) => row.subjectId === String(made.id),
    );
    expect(ofMade[0]?.changes).toEqual({
      postalCodes: { before: [], after: ['02100', 'FI-02200'] },
    });
  });

  it('refuses bad input without writing: a NUL byte, a 20 MB body, a time backwards, a slot of another area', async () => {
    const nul = await refused(400, () => staff.visitor.post(AREAS, json({ name: 'a\u0000b' })));
    expect(nul.type).toBe('/problems/validation');
    await refused(413, () =>
      staff.visitor.post(AREAS, json({ name: 'x'.repeat(20 * 1024 * 1024) })),
    );
    const slot = await slotOf(DATE);
    const backwards = await refused(400, () =>
      put(
        staff.visitor,
        `${AREAS}/${areaId}/slots/${slot.id}`,
        slotBody(slot, { startTime: '12:00', endTime: '08:00' }),
      ),
    );
    expect(backwards.errors).toEqual({ endTime: 'admin.error.invalid' });
    await refused(400, () =>
      put(staff.visitor, `${AREAS}/${areaId}/slots/${slot.id}`, { ...slotBody(slot), extra: 1 }),
    );
    await refused(400, () =>
      put(staff.visitor, `${AREAS}/${areaId}/slots/${slot.id}`, slotBody(slot, { capacity: -1 })),
    );
    await refused(400, () => staff.visitor.post(AREAS, json({ name: '   ' })));
    await refused(400, () =>
      put(staff.visitor, `${AREAS}/${areaId}/postal-codes`, { postalCodes: ['<b>'] }),
    );
    await refused(404, () => put(staff.visitor, `${AREAS}/999999`, { name: 'Ei ole' }));
    const made = await once<AreaRow>(() => staff.visitor.post(AREAS, json({ name: 'Vantaa' })));
    await refused(404, () =>
      put(staff.visitor, `${AREAS}/${made.id}/slots/${slot.id}`, slotBody(slot)),
    );
  });

  it('refuses staff without shop.manage, or with it only for another site', async () => {
    const reader = await enrolledStaff(t.app, [
      { role: 'customer-service', sites: ['lihakauppa'], langs: null },
    ]);
    expect((await reader.visitor.get(DELIVERY_API)).statusCode).toBe(403);
    await refused(403, () => reader.visitor.post(AREAS, json({ name: 'Ei saa' })));
    const elsewhere = await enrolledStaff(t.app, [
      { role: 'shop-staff', sites: ['jyvabroiler'], langs: null },
    ]);
    expect((await elsewhere.visitor.get(DELIVERY_API)).statusCode).toBe(403);
    const slot = await slotOf(DATE);
    const capacity = slot.capacity;
    await refused(403, () =>
      put(
        elsewhere.visitor,
        `${AREAS}/${areaId}/slots/${slot.id}`,
        slotBody(slot, { capacity: 99 }),
      ),
    );
    await refused(403, () =>
      elsewhere.visitor.post(`${AREAS}/${areaId}/closed-dates`, json({ date: deliveryDate(8) })),
    );
    expect((await slotOf(DATE)).capacity).toBe(capacity);
  });
});
