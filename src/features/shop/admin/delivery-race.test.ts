import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { createTestDatabase, openSameDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { weekdayOf } from '../dates.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  hold,
  order,
  retryBusy,
} from '../orders/checkout.test-support.ts';
import { checkoutSchema } from '../orders/schemas.ts';
import { deliveryCalendarSlots, deliverySlotBookings, orders } from '../tables.ts';
import { DELIVERY_API } from './delivery-schemas.ts';

/**
 * A capacity decrease while shoppers hold and order the same slot, on a real PostgreSQL server
 * through two server processes (two apps, each with its own pool, on one database; decision
 * 142): whichever comes first, no dated slot ever has more orders than the capacity it was left
 * with. Accepted, the new capacity N holds for every upcoming date of the slot (also a date whose
 * dated slot a shopper's first hold was making at that moment); refused, the places sold then
 * were above N and nothing changed. PostgreSQL only (DATABASE_URL).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const POOL = 10;
const FIRST = 20;
const N = 4;
let template: DatabaseHandle;
let a: TestApp;
let b: TestApp;
const handles: DatabaseHandle[] = [];
let staff: Enrolled;
let areaId = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  template = await createTestDatabase(inject('templateDatabase'));
  for (let i = 0; i < 2; i++) handles.push(await openSameDatabase(template, POOL));
  a = await createTestApp({ database: handles[0] as DatabaseHandle });
  b = await createTestApp({ database: handles[1] as DatabaseHandle });
  ({ areaId } = await createCheckoutShop(a.app.db, { slotCapacity: FIRST }));
  staff = await enrolledStaff(a.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const handle of handles) await handle.close();
  await template?.close();
});

/** A shopper with a product in the cart, on one of the two processes. */
async function shopper(i: number): Promise<Visitor> {
  const v = await buyer(i % 2 === 0 ? a.app : b.app);
  await addToCart(v, CODES.plain, 1);
  return v;
}

/** Holds the date and orders; answers whether an order was placed. */
async function holdAndOrder(v: Visitor, date: string): Promise<boolean> {
  const held = await retryBusy(() => hold(v, date));
  if (held.statusCode !== 200) return false;
  const id = checkoutSchema.parse(held.json()).hold?.checkoutId;
  if (!id) return false;
  const placed = await retryBusy(() => order(v, id));
  return placed.statusCode === 200;
}

async function bookings(weekday: number, startTime = '08:00') {
  return a.app.db
    .select()
    .from(deliverySlotBookings)
    .where(
      and(
        eq(deliverySlotBookings.areaId, areaId),
        eq(deliverySlotBookings.startTime, startTime),
        gte(deliverySlotBookings.date, deliveryDate(0)),
        sql`extract(isodow from ${deliverySlotBookings.date})::int = ${weekday}`,
      ),
    );
}

async function ordersOn(date: string): Promise<number> {
  return a.app.db.$count(
    orders,
    and(
      eq(orders.deliveryDate, date),
      inArray(orders.status, ['pending_payment', 'paid']),
      eq(orders.startTime, '08:00'),
    ),
  );
}

describe('a capacity decrease while shoppers order (PostgreSQL, two processes)', () => {
  it.runIf(onPostgres)(
    `never leaves more than ${N} orders in a slot lowered to ${N}`,
    async () => {
      const outcomes: string[] = [];
      // Each round on a weekday of its own: its date had orders already, the week after none.
      for (const [round, days] of [2, 3, 4, 5].entries()) {
        const date = deliveryDate(days);
        const later = deliveryDate(days + 7);
        const weekday = weekdayOf(date);
        const [slot] = await a.app.db
          .select()
          .from(deliveryCalendarSlots)
          .where(
            and(
              eq(deliveryCalendarSlots.areaId, areaId),
              eq(deliveryCalendarSlots.weekday, weekday),
            ),
          );
        if (!slot) throw new Error('no slot');
        const before = round;
        for (let i = 0; i < before; i++) {
          expect(await holdAndOrder(await shopper(i), date)).toBe(true);
        }
        const shoppers = await Promise.all(Array.from({ length: 12 }, (_, i) => shopper(i)));
        const body = {
          weekday,
          startTime: slot.startTime,
          endTime: slot.endTime,
          capacity: N,
          cutoffDaysBefore: slot.cutoffDaysBefore,
          cutoffTime: slot.cutoffTime,
        };
        const [change, ...placed] = await Promise.all([
          (async () => {
            // Let some shoppers start first; later rounds wait longer.
            await new Promise((resolve) => setTimeout(resolve, [0, 250, 600, 1500][round]));
            return retryBusy(() =>
              staff.visitor.request(
                'PUT',
                `${DELIVERY_API}/areas/${areaId}/slots/${slot.id}`,
                json(body),
              ),
            );
          })(),
          ...shoppers.map((v, i) => holdAndOrder(v, i % 3 === 0 ? later : date)),
        ]);
        expect([200, 409], change?.body).toContain(change?.statusCode);
        const [calendar] = await a.app.db
          .select({ capacity: deliveryCalendarSlots.capacity })
          .from(deliveryCalendarSlots)
          .where(eq(deliveryCalendarSlots.id, slot.id));
        const rows = await bookings(weekday);
        for (const row of rows) {
          // The database's check, and the orders agree with what was sold.
          expect(row.sold).toBeLessThanOrEqual(row.capacity);
          expect(await ordersOn(row.date)).toBe(row.sold);
        }
        const soldOn = (d: string) => rows.find((r) => r.date === d)?.sold ?? 0;
        if (change?.statusCode === 200) {
          expect(calendar?.capacity).toBe(N);
          expect(rows.map((r) => r.capacity)).toEqual(rows.map(() => N));
          expect(soldOn(date)).toBeLessThanOrEqual(N);
          expect(soldOn(later)).toBeLessThanOrEqual(N);
          outcomes.push(
            `accepted with ${soldOn(date)}+${soldOn(later)} sold, ${placed.filter(Boolean).length} placed`,
          );
        } else {
          const problem = change?.json() as { affected: { sold: number }[] };
          expect(problem.affected.every((d) => d.sold > N)).toBe(true);
          expect(calendar?.capacity).toBe(FIRST);
          outcomes.push(`refused at ${problem.affected.map((d) => d.sold).join('/')} sold`);
        }
      }
      console.info(`capacity decrease vs shoppers: ${outcomes.join('; ')}`);
    },
    240_000,
  );
});

/**
 * Turning the area off while shoppers hold and order in it, through both processes (decision
 * 150): the staff member asks, is shown the upcoming orders, and confirms with them, again while
 * new ones arrive. When the change goes through, the area's upcoming orders are exactly those it
 * was confirmed with: an order placed meanwhile was either listed or refused.
 */
describe('turning an area off while shoppers order (PostgreSQL, two processes)', () => {
  it.runIf(onPostgres)(
    'leaves no upcoming order in the area that the confirmed list did not name',
    async () => {
      // A weekday the capacity test above left alone.
      const date = deliveryDate(8);
      const url = `${DELIVERY_API}/areas/${areaId}`;
      // Orders already there, so that turning off is asked and confirmed every time.
      for (let i = 0; i < 3; i++) expect(await holdAndOrder(await shopper(i), date)).toBe(true);
      const shoppers = await Promise.all(Array.from({ length: 12 }, (_, i) => shopper(i)));
      const turnOff = async (): Promise<string[]> => {
        await new Promise((resolve) => setTimeout(resolve, 150));
        for (let attempt = 0; attempt < 50; attempt++) {
          const asked = await retryBusy(() =>
            staff.visitor.request('PUT', url, json({ active: false })),
          );
          if (asked.statusCode === 200) return [];
          expect(asked.statusCode, asked.body).toBe(409);
          const ids = (asked.json() as { orders: { id: string }[] }).orders.map((o) => o.id);
          const confirmed = await retryBusy(() =>
            staff.visitor.request(
              'PUT',
              url,
              json({ active: false, confirm: true, orderIds: ids }),
            ),
          );
          if (confirmed.statusCode === 200) return ids;
          expect(confirmed.statusCode, confirmed.body).toBe(409);
        }
        throw new Error('the area was never turned off');
      };
      try {
        const [confirmed, ...placed] = await Promise.all([
          turnOff(),
          // The shoppers one after another, a few dozen milliseconds apart, so that some order
          // before the change, some while it is asked and confirmed, and some after.
          ...shoppers.map(async (v, i) => {
            await new Promise((resolve) => setTimeout(resolve, i * 60));
            return holdAndOrder(v, date);
          }),
        ]);
        const upcoming = await a.app.db
          .select({ id: orders.id })
          .from(orders)
          .where(
            and(
              eq(orders.areaId, areaId),
              inArray(orders.status, ['pending_payment', 'paid']),
              gte(orders.deliveryDate, deliveryDate(0)),
            ),
          );
        expect((confirmed as string[]).length).toBeGreaterThanOrEqual(3);
        expect(upcoming.map((row) => row.id).sort()).toEqual([...(confirmed as string[])].sort());
        console.info(
          `area turned off vs shoppers: ${placed.filter(Boolean).length} of ${shoppers.length} placed, ${(confirmed as string[]).length} orders confirmed`,
        );
      } finally {
        // The area is turned on again, as the other test needs it to deliver, whichever runs
        // first.
        const on = await retryBusy(() => staff.visitor.request('PUT', url, json({ active: true })));
        expect(on.statusCode, on.body).toBe(200);
      }
    },
    240_000,
  );
});
