import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { shownTotals } from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { databaseUrlWith } from '../../../../tests/setup/database.ts';
import { projectPath } from '../../../db/paths.ts';
import { products } from '../../content/tables.ts';
import { CART_API, CHECKOUT_API, centsOfMoney, productAvailabilitySchema } from '../schemas.ts';
import {
  carts,
  checkoutHolds,
  coupons,
  deliverySlotBookings,
  orders,
  productDateStock,
} from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  held,
  hold,
  order,
  POSTAL_CODE,
  retryBusy,
} from './checkout.test-support.ts';
import { releaseOrder } from './lifecycle.server.ts';
import { CHECKOUT_HOLD_API, orderAnswerSchema } from './schemas.ts';

/**
 * The checkout under races and a crash, on a real PostgreSQL server (several connections, real
 * row locks): runs only when DATABASE_URL is set. PGlite has one connection, so nothing races.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const BUYERS = 100;
const UNITS = 10;
let t: TestApp;
const buyers: Visitor[] = [];
let perDateId = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { weeklyQuantity: UNITS });
  const [row] = await t.app.db
    .select({ id: products.id })
    .from(products)
    .where(eq(products.code, CODES.perDate));
  perDateId = row?.id ?? 0;
  await t.app.db
    .insert(coupons)
    .values({ siteId: 'lihakauppa', code: 'RACEONCE', percentOff: 25, maxUses: 1 });
  // Registration hashes a password (argon2id): a few at a time.
  for (let i = 0; i < BUYERS; i += 5) {
    buyers.push(...(await Promise.all(Array.from({ length: 5 }, () => buyer(t.app)))));
  }
}, 300_000);

afterAll(async () => {
  await t?.close();
});

/** The rows of a raw query (drizzle's execute is untyped across the two drivers). */
async function rowsOf<T>(query: Promise<unknown>): Promise<T[]> {
  return ((await query) as { rows: T[] }).rows;
}

const millis = (start: number) => Math.round(performance.now() - start);

describe('checkout races (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    `${BUYERS} buyers for ${UNITS} units on one date: exactly ${UNITS} orders, the rest a clear sold-out answer`,
    async () => {
      const date = deliveryDate(4);
      for (const v of buyers) await addToCart(v, CODES.perDate, 1);
      const started = performance.now();
      const outcomes = await Promise.all(
        buyers.map(async (v) => {
          const taken = await retryBusy(() => hold(v, date));
          if (taken.statusCode !== 200) return taken;
          const checkoutId = taken.json().hold.checkoutId as string;
          return retryBusy(() => order(v, checkoutId));
        }),
      );
      const wall = millis(started);
      const statuses = outcomes.map((o) => o.statusCode);
      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
      const won = outcomes.filter((o) => o.statusCode === 200);
      const lost = outcomes.filter((o) => o.statusCode === 409);
      expect(won).toHaveLength(UNITS);
      expect(lost).toHaveLength(BUYERS - UNITS);
      for (const answer of lost) {
        expect(answer.headers['content-type']).toContain('application/problem+json');
        const problem = answer.json();
        expect(problem.errors).toEqual({ [CODES.perDate]: 'shop.stock.soldOut' });
        expect(problem.detail).toContain(`product ${CODES.perDate} is sold out on ${date}`);
      }
      const [stock] = await t.app.db
        .select()
        .from(productDateStock)
        .where(and(eq(productDateStock.code, CODES.perDate), eq(productDateStock.date, date)));
      expect(stock).toMatchObject({ capacity: UNITS, sold: UNITS });
      const [placed] = await t.app.db
        .select({ n: count() })
        .from(orders)
        .where(eq(orders.deliveryDate, date));
      expect(placed?.n).toBe(UNITS);
      const availability = productAvailabilitySchema.parse(
        (
          await buyers[0]?.get(
            `${CHECKOUT_API}/delivery-availability?productId=${perDateId}&postalCode=${POSTAL_CODE}`,
          )
        )?.json(),
      );
      expect(availability.deliveryTimes.some((time) => time.date === date)).toBe(false);
      console.info(`checkout race: ${BUYERS} buyers, ${UNITS} units, ${wall} ms`);
      // The losers' carts start the next test empty.
      for (const v of buyers) {
        await v.post(`${CART_API}/changequantity?language=fi&code=${CODES.perDate}&quantity=0`);
      }
    },
    300_000,
  );

  it.runIf(onPostgres)(
    '30 held checkouts for an overall stock of 5, ordered at once: exactly 5 orders, the rest 409 naming the product',
    async () => {
      const thirty = buyers.slice(60, 90);
      const ids: string[] = [];
      for (const v of thirty) {
        await addToCart(v, CODES.stocked, 1);
        // Holding does not reserve the overall stock: every hold is taken.
        ids.push(await held(v, deliveryDate(8)));
      }
      const answers = await Promise.all(
        thirty.map((v, i) => retryBusy(() => order(v, ids[i] as string))),
      );
      const won = answers.filter((a) => a.statusCode === 200);
      const lost = answers.filter((a) => a.statusCode === 409);
      expect(won).toHaveLength(5);
      expect(lost).toHaveLength(25);
      for (const answer of lost) {
        expect(answer.json().errors).toEqual({ [CODES.stocked]: 'shop.stock.soldOut' });
      }
      const stockNow = async () =>
        (
          await t.app.db
            .select({ stock: products.stock })
            .from(products)
            .where(eq(products.code, CODES.stocked))
        )[0]?.stock;
      expect(await stockNow()).toBe(0);
      // The five orders lapse: the stock comes back (and the crash test below has it again).
      for (const a of won) {
        const { orderId } = orderAnswerSchema.parse(a.json());
        expect(await t.app.db.transaction((tx) => releaseOrder(tx, orderId, 'expired'))).toBe(true);
      }
      expect(await stockNow()).toBe(5);
      for (const v of thirty) {
        await v.delete(CHECKOUT_HOLD_API);
        await v.post(`${CART_API}/changequantity?language=fi&code=${CODES.stocked}&quantity=0`);
      }
    },
    120_000,
  );

  it.runIf(onPostgres)(
    '20 concurrent submits of one checkout: one order, the same answer to all',
    async () => {
      // A buyer of its own: its cart holds only what this test puts there.
      const v = await buyer(t.app);
      await addToCart(v, CODES.plain, 2);
      const checkoutId = await held(v);
      const answers = await Promise.all(Array.from({ length: 20 }, () => order(v, checkoutId)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
      const first = orderAnswerSchema.parse(answers[0]?.json());
      for (const answer of answers) expect(answer.json()).toEqual(first);
      const rows = await t.app.db.select().from(orders).where(eq(orders.checkoutId, checkoutId));
      expect(rows).toHaveLength(1);
      const [slot] = await t.app.db
        .select({ sold: deliverySlotBookings.sold })
        .from(deliverySlotBookings)
        .where(eq(deliverySlotBookings.date, deliveryDate()));
      expect(slot?.sold).toBe(1);
    },
  );

  it.runIf(onPostgres)(
    'a coupon limited to one use, 50 checkouts at once: one discounted order, 49 refusals',
    async () => {
      const fifty = buyers.slice(1, 51);
      const ids: string[] = [];
      for (const v of fifty) {
        await addToCart(v, CODES.plain, 4);
        const entered = await v.post(`${CART_API}/addcouponcode?language=fi&code=RACEONCE`);
        expect(entered.statusCode, entered.body).toBe(200);
        ids.push(await held(v, deliveryDate(5)));
      }
      const answers = await Promise.all(
        fifty.map((v, i) => retryBusy(() => order(v, ids[i] as string))),
      );
      const won = answers.filter((a) => a.statusCode === 200);
      const lost = answers.filter((a) => a.statusCode === 409);
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(49);
      for (const answer of lost) {
        expect(answer.json().errors).toEqual({ couponCodes: 'shop.checkout.couponUsedUp' });
      }
      const placed = orderAnswerSchema.parse(won[0]?.json());
      const [row] = await t.app.db.select().from(orders).where(eq(orders.id, placed.orderId));
      expect(row).toMatchObject({
        couponCodes: ['RACEONCE'],
        discountCents: 500,
        totalCents: 1500,
      });
      const [coupon] = await t.app.db
        .select({ used: coupons.usedCount })
        .from(coupons)
        .where(eq(coupons.code, 'RACEONCE'));
      expect(coupon?.used).toBe(1);
      // The losers' carts start the next test empty: no hold, no product, no coupon.
      for (const [i, v] of fifty.entries()) {
        if (answers[i]?.statusCode === 200) continue;
        await v.delete(CHECKOUT_HOLD_API);
        const emptied = await v.post(
          `${CART_API}/changequantity?language=fi&code=${CODES.plain}&quantity=0`,
        );
        expect(emptied.statusCode, emptied.body).toBe(200);
        const removed = await v.post(`${CART_API}/removecouponcode?language=fi&code=RACEONCE`);
        expect(removed.statusCode, removed.body).toBe(200);
      }
    },
    120_000,
  );

  it.runIf(onPostgres)(
    'SIGKILL in the middle of an order: no order, stock and slot unchanged, the hold expires',
    async () => {
      // A buyer of its own: the cart it leaves behind, with the expired hold, is no other test's.
      const v = await buyer(t.app);
      const date = deliveryDate(6);
      await addToCart(v, CODES.stocked, 2);
      await addToCart(v, CODES.perDate, 3);
      const checkoutId = await held(v, date);
      const [owner] = await t.app.db
        .select({ sessionId: carts.sessionId, customerId: carts.customerId })
        .from(checkoutHolds)
        .innerJoin(carts, eq(carts.id, checkoutHolds.cartId))
        .where(eq(checkoutHolds.id, checkoutId));
      const state = async () => {
        const [stock] = await t.app.db
          .select({ stock: products.stock })
          .from(products)
          .where(eq(products.code, CODES.stocked));
        const [dated] = await t.app.db
          .select({ sold: productDateStock.sold })
          .from(productDateStock)
          .where(and(eq(productDateStock.code, CODES.perDate), eq(productDateStock.date, date)));
        const [slot] = await t.app.db
          .select({ sold: deliverySlotBookings.sold })
          .from(deliverySlotBookings)
          .where(eq(deliverySlotBookings.date, date));
        const placed = await t.app.db
          .select({ id: orders.id })
          .from(orders)
          .where(eq(orders.checkoutId, checkoutId));
        return { stock: stock?.stock, dateSold: dated?.sold, slotSold: slot?.sold, placed };
      };
      const before = await state();
      const shown = await shownTotals(v);
      const [{ name } = { name: '' }] = await rowsOf<{ name: string }>(
        t.app.db.execute(sql`select current_database() as name`),
      );
      const url = databaseUrlWith(process.env.DATABASE_URL as string, name);
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          // Plain Node: the shop reads the content feature's tables through its index, which
          // also re-exports components with CSS modules (decision 126).
          '--import',
          projectPath('scripts/empty-css-imports.ts'),
          path.join(
            path.dirname(fileURLToPath(import.meta.url)),
            'placement-crash.test-support.ts',
          ),
          url,
          owner?.sessionId ?? '',
          owner?.customerId ?? '',
          checkoutId,
          String(centsOfMoney(shown.total)),
          String(centsOfMoney(shown.usedGiftCardAmount)),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('PAUSED')) resolve();
        });
        child.on('exit', (code) =>
          reject(new Error(`child exited ${code} before pausing: ${out}`)),
        );
      });
      // Inside the open transaction: the stock is taken there, invisible here.
      const [inFlight] = await rowsOf<{ n: number }>(
        t.app.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = ${name} and state = 'idle in transaction'`,
        ),
      );
      expect(inFlight?.n).toBeGreaterThanOrEqual(1);
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      // The server rolls the transaction back when the connection drops; wait until the hold's
      // row lock is free.
      for (let i = 0; ; i++) {
        const free = await t.app.db.transaction(async (tx) =>
          rowsOf<{ id: string }>(
            tx.execute(
              sql`select id from checkout_holds where id = ${checkoutId} for update skip locked`,
            ),
          ),
        );
        if (free.length === 1) break;
        if (i > 100) throw new Error('the killed transaction still holds its locks');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await state()).toEqual(before);
      expect(before.placed).toEqual([]);
      // The hold is still the cart's until it expires; once past expires_at it counts no more.
      const left = async () =>
        productAvailabilitySchema
          .parse(
            (
              await buyers[61]?.get(
                `${CHECKOUT_API}/delivery-availability?productId=${perDateId}&postalCode=${POSTAL_CODE}`,
              )
            )?.json(),
          )
          .deliveryTimes.find((time) => time.date === date)?.stock;
      expect(await left()).toBe(UNITS - 3);
      await t.app.db
        .update(checkoutHolds)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(checkoutHolds.id, checkoutId));
      expect(await left()).toBe(UNITS);
      const late = await order(v, checkoutId);
      expect(late.statusCode).toBe(409);
      expect(late.json().errors).toEqual({ checkoutId: 'shop.checkout.holdGone' });
    },
    120_000,
  );
});
