import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { openSameDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { runJobOnce } from '../../../server/jobs.ts';
import { products } from '../../content/tables.ts';
import { orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
  order,
  stockOf,
} from './checkout.test-support.ts';
import { expireUnpaidOrders } from './payment-returns.server.ts';
import { jobPaymentDeps } from './payments.server.ts';
import { orderAnswerSchema } from './schemas.ts';

/**
 * The expiry of unpaid orders run by two server processes on one PostgreSQL database at the same
 * moment (decision 032): every order expires once and gives its stock back once. PostgreSQL only
 * (DATABASE_URL).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
let other: DatabaseHandle;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { weeklyQuantity: 100 });
  await t.app.db.update(products).set({ stock: 100 }).where(eq(products.code, CODES.stocked));
  other = await openSameDatabase(t.database);
}, 120_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** `count` placed orders, already past their payment time. */
async function overdueOrders(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const shopper = await buyer(t.app);
    await addToCart(shopper, CODES.stocked, 2);
    const res = await order(shopper, await held(shopper));
    expect(res.statusCode, res.body).toBe(200);
    ids.push(orderAnswerSchema.parse(res.json()).orderId);
  }
  await t.app.db
    .update(orders)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(inArray(orders.id, ids));
  return ids;
}

async function statuses(ids: string[]) {
  const rows = await t.app.db
    .select({ status: orders.status })
    .from(orders)
    .where(inArray(orders.id, ids));
  return rows.map((r) => r.status);
}

describe('order expiry in two processes (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    'expiring at the same moment without the job lock: each order once, stock back once',
    async () => {
      const stockBefore = await stockOf(t.app.db, CODES.stocked);
      const ids = await overdueOrders(4);
      expect(await stockOf(t.app.db, CODES.stocked)).toBe((stockBefore ?? 0) - 8);
      const counts = await Promise.all([
        expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db)),
        expireUnpaidOrders(jobPaymentDeps(t.app, other.db)),
        expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db)),
        expireUnpaidOrders(jobPaymentDeps(t.app, other.db)),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
      expect(await statuses(ids)).toEqual(Array(4).fill('expired'));
      expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);
    },
  );

  it.runIf(onPostgres)(
    "the job's ticks in both processes at once: each order expires once",
    async () => {
      const stockBefore = await stockOf(t.app.db, CODES.stocked);
      const ids = await overdueOrders(3);
      const outcomes = await Promise.all([
        runJobOnce(t.database, 'order-expiry', (db) =>
          expireUnpaidOrders(jobPaymentDeps(t.app, db)),
        ),
        runJobOnce(other, 'order-expiry', (db) => expireUnpaidOrders(jobPaymentDeps(t.app, db))),
      ]);
      const expired = outcomes.map((o) => (o.ran ? o.value : 0));
      expect(expired.reduce((a, b) => a + b, 0)).toBe(3);
      expect(await statuses(ids)).toEqual(Array(3).fill('expired'));
      expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);
    },
  );
});
