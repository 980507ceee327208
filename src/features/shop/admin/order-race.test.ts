import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProduct } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { Visitor } from '../../../../tests/helpers/visitor.ts';
import { createTestDatabase, openSameDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { mailOutbox } from '../../forms/tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  HOST,
  held,
  hold as holdFor,
  order,
  pathOf,
  retryBusy,
  stockOf,
  testBank,
} from '../orders/checkout.test-support.ts';
import { PAYMENT_CALLBACK_PATH } from '../orders/payments.server.ts';
import { orderAnswerSchema } from '../orders/schemas.ts';
import { orderLines, orderRefunds, orders, testBankPayments } from '../tables.ts';
import { CATALOGUE_API } from './catalogue-schemas.ts';
import { ORDERS_API } from './schemas.ts';

/**
 * Staff and shoppers at the same moment on a real PostgreSQL server, through two server processes
 * (two apps, each with its own pool, on one database; decision 141): a staff cancel and the
 * shopper's payment callback end in one consistent state; two staff refunding or cancelling the
 * same order move its money once. PostgreSQL only (DATABASE_URL).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const POOL = 10;
let template: DatabaseHandle;
let a: TestApp;
let b: TestApp;
const handles: DatabaseHandle[] = [];
let staffA: Enrolled;
/** Another member of staff, signed in, talking to the second process. */
let staffB: Visitor;

beforeAll(async () => {
  if (!onPostgres) return;
  template = await createTestDatabase(inject('templateDatabase'));
  for (let i = 0; i < 2; i++) handles.push(await openSameDatabase(template, POOL));
  a = await createTestApp({ database: handles[0] as DatabaseHandle });
  b = await createTestApp({ database: handles[1] as DatabaseHandle });
  await createCheckoutShop(a.app.db, { slotCapacity: 1000 });
  const grant = [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }];
  staffA = await enrolledStaff(a.app, grant);
  const other = await enrolledStaff(a.app, grant);
  staffB = new Visitor(b.app);
  for (const [name, value] of other.visitor.jar) staffB.jar.set(name, value);
}, 180_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const handle of handles) await handle.close();
  await template?.close();
});

/** A shopper's order of one stocked product, its payment decided `ok` at the test bank. */
async function decidedAtBank() {
  const shopper = await buyer(a.app);
  await addToCart(shopper, CODES.stocked, 1);
  const res = await order(shopper, await held(shopper));
  expect(res.statusCode, res.body).toBe(200);
  const answer = orderAnswerSchema.parse(res.json());
  const back = await testBank(shopper, answer.next, 'ok');
  return { shopper, answer, back };
}

async function orderRow(id: string) {
  const [row] = await a.app.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error('no order');
  return row;
}

async function refundedAtBank(number: number) {
  const [row] = await a.app.db
    .select({ cents: testBankPayments.refundedCents })
    .from(testBankPayments)
    .where(eq(testBankPayments.reference, String(number)));
  return row?.cents ?? 0;
}

/** Requests waiting for a lock in the database. */
async function waitingForLocks(): Promise<number> {
  const result = await a.app.db.execute(
    sql`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

/**
 * Holds the order's row lock on a connection of its own while `start` sends requests; `queued(n)`
 * waits until n of them wait for the lock. Answers what `start` gave once the lock is let go.
 */
async function withOrderLocked<T>(
  orderId: string,
  start: (queued: (n: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = (handles[0] as DatabaseHandle).db.transaction(async (tx) => {
    await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for('update');
    locked();
    await released;
  });
  await isLocked;
  const queued = async (n: number) => {
    await expect.poll(waitingForLocks, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(n);
  };
  try {
    return await start(queued);
  } finally {
    release();
    await holder;
  }
}

/** The checkout id of a hold's answer. */
function checkoutIdOf(res: { json(): unknown }): string {
  const id = (res.json() as { hold?: { checkoutId?: string } }).hold?.checkoutId;
  if (!id) throw new Error('no hold in the answer');
  return id;
}

const refundsOf = (orderId: string) =>
  a.app.db.select().from(orderRefunds).where(eq(orderRefunds.orderId, orderId));

describe('staff and shoppers at once (PostgreSQL, two processes)', () => {
  it.runIf(onPostgres)(
    'a staff cancel and the payment callback at the same moment: cancelled, given back once, the money refunded or reported',
    async () => {
      const outcomes: string[] = [];
      for (let round = 0; round < 6; round++) {
        const stockBefore = await stockOf(a.app.db, CODES.stocked);
        const { answer, back } = await decidedAtBank();
        const callback = () =>
          b.app.inject({
            method: 'GET',
            url: `${PAYMENT_CALLBACK_PATH}${new URL(back).search}`,
            headers: { host: HOST },
          });
        const cancel = () =>
          staffA.visitor.post(`${ORDERS_API}/${answer.orderId}/cancel`, json({ reason: '' }));
        // Both wait on the order's row lock, held here, queued in the round's order: even
        // rounds the callback first, odd rounds the cancel; then the lock goes.
        const [first, second] = round % 2 === 0 ? [callback, cancel] : [cancel, callback];
        const answers = await withOrderLocked(answer.orderId, async (queued) => {
          const one = first();
          await queued(1);
          const two = second();
          await queued(2);
          return [one, two] as const;
        });
        const [one, two] = await Promise.all(answers);
        const [called, cancelled] = round % 2 === 0 ? [one, two] : [two, one];
        expect(called?.statusCode, called?.body).toBe(200);
        expect(cancelled?.statusCode, cancelled?.body).toBe(200);
        const row = await orderRow(answer.orderId);
        expect(row.status).toBe('cancelled');
        // What the order took came back exactly once, whichever came first.
        expect(await stockOf(a.app.db, CODES.stocked)).toBe(stockBefore);
        const refunds = await refundsOf(answer.orderId);
        if (refunds.length > 0) {
          // Paid first, then cancelled: the whole payment went back.
          expect(refunds.map((r) => [r.status, r.amountCents])).toEqual([['ok', row.totalCents]]);
          expect(await refundedAtBank(answer.orderNumber)).toBe(row.totalCents);
          outcomes.push('paid, then cancelled and refunded');
        } else {
          // Cancelled first: the money that came anyway is reported to the shop to refund.
          const late = await a.app.db
            .select({ subject: mailOutbox.subject })
            .from(mailOutbox)
            .where(sql`${mailOutbox.subject} like ${`%${answer.orderNumber}%myöhässä%`}`);
          expect(late).toHaveLength(1);
          expect(row.paidAt).toBeNull();
          outcomes.push('cancelled, then paid late');
        }
      }
      console.info(`cancel vs callback: ${outcomes.join('; ')}`);
    },
    120_000,
  );

  it.runIf(onPostgres)(
    'two staff refund the whole order at once through two processes: one refund, one refused',
    async () => {
      const { shopper, answer, back } = await decidedAtBank();
      expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
      const paid = await orderRow(answer.orderId);
      const refund = (v: Visitor) =>
        v.post(
          `${ORDERS_API}/${answer.orderId}/refunds`,
          json({ key: crypto.randomUUID(), amountCents: paid.totalCents }),
        );
      const answers = await Promise.all([refund(staffA.visitor), refund(staffB)]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await refundsOf(answer.orderId)).map((r) => r.status)).toEqual(['ok']);
      expect(await refundedAtBank(answer.orderNumber)).toBe(paid.totalCents);
    },
    60_000,
  );

  it.runIf(onPostgres)(
    'two staff cancel the same paid order at once: cancelled once, refunded once, given back once',
    async () => {
      const stockBefore = await stockOf(a.app.db, CODES.stocked);
      const { shopper, answer, back } = await decidedAtBank();
      expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
      const cancel = (v: Visitor) =>
        v.post(`${ORDERS_API}/${answer.orderId}/cancel`, json({ reason: 'Loppui' }));
      const answers = await Promise.all([cancel(staffA.visitor), cancel(staffB)]);
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
      const row = await orderRow(answer.orderId);
      expect(row.status).toBe('cancelled');
      expect(await stockOf(a.app.db, CODES.stocked)).toBe(stockBefore);
      expect((await refundsOf(answer.orderId)).map((r) => r.amountCents)).toEqual([row.totalCents]);
      expect(await refundedAtBank(answer.orderNumber)).toBe(row.totalCents);
      const cancelMails = await a.app.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            eq(mailOutbox.recipients, row.email),
            sql`${mailOutbox.subject} like ${`%${answer.orderNumber} on peruttu%`}`,
          ),
        );
      expect(cancelMails).toHaveLength(1);
    },
    60_000,
  );

  it.runIf(onPostgres)(
    'a stock decrease while shoppers check out through two processes never oversells',
    async () => {
      const code = 'KILPA-1';
      await createProduct(a.app.db, {
        siteId: 'lihakauppa',
        kind: 'shop-product',
        path: '/tuotteet/kilpa',
        code,
        name: 'Kilpatuote',
        priceCents: 500,
        stock: 20,
      });
      const shoppers = [];
      for (let i = 0; i < 16; i++) {
        const v = await buyer(i % 2 === 0 ? a.app : b.app);
        await addToCart(v, code, 1);
        shoppers.push(v);
      }
      // The staff member lowers the stock by 6 from what they see, again when an order got
      // in between (409), while every shopper holds and orders at once.
      const lower = async () => {
        for (let tries = 0; tries < 50; tries++) {
          const current = await stockOf(a.app.db, code);
          const res = await staffB.post(
            `${CATALOGUE_API}/products/${code}/stock`,
            json({ stock: Math.max(0, (current ?? 0) - 6), expected: current }),
          );
          if (res.statusCode === 200) return Math.min(6, current ?? 0);
          expect(res.statusCode, res.body).toBe(409);
        }
        throw new Error('the stock never held still');
      };
      const buy = async (v: Visitor) => {
        const hold = await retryBusy(() => holdFor(v));
        if (hold.statusCode !== 200) return hold.statusCode;
        const id = checkoutIdOf(hold);
        const res = await retryBusy(() => order(v, id));
        return res.statusCode;
      };
      const [lowered, ...codes] = await Promise.all([lower(), ...shoppers.map(buy)]);
      expect(codes.filter((c) => c >= 500)).toEqual([]);
      const sold = await a.app.db
        .select({ n: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
        .from(orderLines)
        .innerJoin(orders, eq(orders.id, orderLines.orderId))
        .where(and(eq(orderLines.code, code), eq(orders.status, 'pending_payment')));
      const left = (await stockOf(a.app.db, code)) ?? -1;
      expect(left).toBeGreaterThanOrEqual(0);
      // Every unit is either sold, taken away by the staff member, or still in stock.
      expect((sold[0]?.n ?? 0) + left + (lowered as number)).toBe(20);
      expect(codes.filter((c) => c === 200)).toHaveLength(sold[0]?.n ?? -1);
    },
    120_000,
  );
});
