import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { type ShownTotals, shownTotals } from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { createTestDatabase, openSameDatabase } from '../../../../tests/setup/database.ts';
import { type DatabaseHandle, POOL_CONNECTION_TIMEOUT_MS } from '../../../db/client.ts';
import { CART_API } from '../schemas.ts';
import { checkoutHolds, coupons, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  deliveryDate,
  held,
  order,
} from './checkout.test-support.ts';
import { placementHooks } from './placement.server.ts';

/**
 * A burst of orders on one coupon (decision 081): 200 shoppers with the same coupon of 100 uses
 * confirm at once, half through each of two server processes on one PostgreSQL database (two
 * apps, each with the servers' default pool of 10 connections). Every shopper gets an order or a
 * clear 409 (the coupon is used up) or 503 with `Retry-After` (the server is busy: trying again
 * places the order or refuses it); never a 500; the coupon ends used exactly 100 times.
 * PostgreSQL only (DATABASE_URL).
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const SHOPPERS = 200;
const USES = 100;
const COUPON = 'RYNTAYS15';
const POOL = 10;
let template: DatabaseHandle;
let a: TestApp;
let b: TestApp;
const handles: DatabaseHandle[] = [];
const shoppers: Visitor[] = [];
/**
 * What the order's own writes cost on a loaded server (the two shared cores took about
 * 90 ms a placement): a pause of this much once the order's rows are written.
 */
const WRITE_PAUSE_MS = 50;

beforeAll(async () => {
  if (!onPostgres) return;
  // The test database itself; each app gets a pool of the servers' size on it.
  const { inject } = await import('vitest');
  template = await createTestDatabase(inject('templateDatabase'));
  for (let i = 0; i < 2; i++) handles.push(await openSameDatabase(template, POOL));
  a = await createTestApp({ database: handles[0] as DatabaseHandle });
  b = await createTestApp({ database: handles[1] as DatabaseHandle });
  await createCheckoutShop(a.app.db, { slotCapacity: 1000 });
  await a.app.db.insert(coupons).values({
    siteId: 'lihakauppa',
    code: COUPON,
    percentOff: 15,
    maxUses: USES,
    maxUsesPerCustomer: 1,
  });
}, 120_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  for (const handle of handles) await handle.close();
  await template?.close();
});

describe('a burst of orders on one coupon (PostgreSQL, two processes)', () => {
  it.runIf(onPostgres)(
    `${SHOPPERS} orders at once on a coupon of ${USES} uses: each an order, a 409 or a 503, never a 500; uses end at ${USES}`,
    async () => {
      // Registration hashes a password (argon2id): a few at a time. Each shopper lives at an
      // address of its own, has verified its e-mail address (the coupon is once per customer,
      // decision 082) and reaches one of the two processes.
      for (let i = 0; i < SHOPPERS; i += 5) {
        shoppers.push(
          ...(await Promise.all(
            Array.from({ length: 5 }, (_, j) =>
              buyer((i + j) % 2 === 0 ? a.app : b.app, {
                streetAddress: `Ryntäyskatu ${i + j + 1}`,
                verified: true,
              }),
            ),
          )),
        );
      }
      const date = deliveryDate(3);
      const ids: string[] = [];
      const shown: ShownTotals[] = [];
      for (const v of shoppers) {
        await addToCart(v, CODES.plain, 2);
        const entered = await v.post(`${CART_API}/addcouponcode?language=fi&code=${COUPON}`);
        expect(entered.statusCode, entered.body).toBe(200);
        ids.push(await held(v, date));
        shown.push(await shownTotals(v));
      }
      const confirm = (i: number) =>
        order(shoppers[i] as Visitor, ids[i] as string, 'FI50', shown[i]);
      placementHooks.whileWriting = () =>
        new Promise((resolve) => setTimeout(resolve, WRITE_PAUSE_MS));
      const started = performance.now();
      const first = await Promise.all(shoppers.map((_, i) => confirm(i))).finally(() => {
        placementHooks.whileWriting = null;
      });
      const burstMs = Math.round(performance.now() - started);
      const count = (answers: LightMyRequestResponse[], status: number) =>
        answers.filter((r) => r.statusCode === status).length;
      const tally = [200, 409, 503, 500].map((s) => `${s}: ${count(first, s)}`).join(', ');
      console.info(`coupon burst: ${SHOPPERS} orders in ${burstMs} ms (${tally})`);
      expect(first.filter((r) => ![200, 409, 503].includes(r.statusCode))).toEqual([]);
      for (const busy of first.filter((r) => r.statusCode === 503)) {
        expect(Number(busy.headers['retry-after'])).toBeGreaterThan(0);
      }
      for (const refused of first.filter((r) => r.statusCode === 409)) {
        expect(refused.json().errors).toEqual({ couponCodes: 'shop.checkout.couponUsedUp' });
      }

      // The busy ones try again, as their browsers are told to.
      const final = [...first];
      for (let round = 0; round < 5; round++) {
        const again = final.flatMap((r, i) => (r.statusCode === 503 ? [i] : []));
        if (again.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const answers = await Promise.all(again.map(confirm));
        again.forEach((i, k) => {
          final[i] = answers[k] as LightMyRequestResponse;
        });
      }
      expect(final.filter((r) => ![200, 409].includes(r.statusCode))).toEqual([]);
      expect(count(final, 200)).toBe(USES);
      expect(count(final, 409)).toBe(SHOPPERS - USES);
      const [coupon] = await a.app.db
        .select({ used: coupons.usedCount })
        .from(coupons)
        .where(eq(coupons.code, COUPON));
      expect(coupon?.used).toBe(USES);
      const placed = await a.app.db
        .select({ id: orders.id })
        .from(orders)
        .where(eq(orders.deliveryDate, date));
      expect(placed).toHaveLength(USES);
    },
    600_000,
  );

  it.runIf(onPostgres)(
    'an order that finds every connection of its process busy past the pool timeout: 503 with Retry-After, the hold kept; trying again places it',
    async () => {
      const v = await buyer(b.app, { streetAddress: 'Odotuskatu 1' });
      await addToCart(v, CODES.plain, 1);
      const checkoutId = await held(v, deliveryDate(4));
      const shown = await shownTotals(v);
      // Every connection of the second process is taken for longer than the pool waits.
      const seconds = (POOL_CONNECTION_TIMEOUT_MS + 1500) / 1000;
      // (Drizzle runs a query when it is awaited: Promise.all starts them all now.)
      const busy = Promise.all(
        Array.from({ length: POOL }, () =>
          b.app.db.execute(sql.raw(`select pg_sleep(${seconds})`)),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await order(v, checkoutId, 'FI50', shown);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.headers['retry-after']).toBe('2');
      expect(refused.headers['content-type']).toContain('application/problem+json');
      await busy;
      const [hold] = await a.app.db
        .select({ id: checkoutHolds.id })
        .from(checkoutHolds)
        .where(eq(checkoutHolds.id, checkoutId));
      expect(hold?.id).toBe(checkoutId);
      const placed = await order(v, checkoutId, 'FI50', shown);
      expect(placed.statusCode, placed.body).toBe(200);
    },
    60_000,
  );
});
