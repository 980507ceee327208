import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProduct } from '../../../../tests/factories/index.ts';
import { createTestDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { products } from '../../content/tables.ts';
import { orderLines, orders } from '../tables.ts';
import { releaseOrder } from './lifecycle.server.ts';
import { ADDRESS } from './order-fixtures.test-support.ts';

/**
 * A release locks the products' stock rows in placement's order (decision 121): by code in UTF-16
 * code units ('B200' before 'b100', which a locale's order puts the other way round), then by id,
 * one row at a time. Otherwise a placement and a release of orders sharing two products can each
 * hold the row the other waits for. The release is caught waiting for the first row in that order
 * while another connection holds it: it must hold none of the others. PostgreSQL only
 * (DATABASE_URL): it needs three connections at once.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let handle: DatabaseHandle;

beforeAll(async () => {
  if (!onPostgres) return;
  handle = await createTestDatabase(inject('templateDatabase'));
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

/** A pending order of 2 × b100 and 3 × B200, each with a stock in two language versions. */
async function pendingOrder(): Promise<{ orderId: string; rows: { id: number; code: string }[] }> {
  const db = handle.db;
  const shop = { siteId: SHOP_SITE_ID, kind: 'shop-product', stock: 20 } as const;
  for (const code of ['b100', 'B200']) {
    for (const lang of ['fi', 'sv']) {
      await createProduct(db, { ...shop, lang, code, path: `/tuotteet/${code}` });
    }
  }
  const [order] = await db
    .insert(orders)
    .values({
      checkoutId: randomUUID(),
      siteId: SHOP_SITE_ID,
      language: 'fi',
      email: 'maija@example.fi',
      phoneNumber: '+358401234567',
      deliveryAddress: ADDRESS,
      billingAddress: ADDRESS,
      subTotalCents: 5000,
      vatCents: 595,
      totalCents: 5000,
    })
    .returning();
  if (!order) throw new Error('no order');
  const line = { orderId: order.id, name: 'Tuote', unitPriceCents: 1000, vatBasisPoints: 1350 };
  await db.insert(orderLines).values([
    {
      ...line,
      code: 'b100',
      quantity: 2,
      linePriceWithoutDiscountsCents: 2000,
      linePriceCents: 2000,
    },
    {
      ...line,
      code: 'B200',
      quantity: 3,
      linePriceWithoutDiscountsCents: 3000,
      linePriceCents: 3000,
    },
  ]);
  const rows = await db
    .select({ id: products.id, code: products.code })
    .from(products)
    .where(inArray(products.code, ['b100', 'B200']))
    .orderBy(products.id);
  return { orderId: order.id, rows };
}

/** Whether another transaction holds the row's lock now. */
async function lockedElsewhere(id: number): Promise<boolean> {
  try {
    await handle.db.transaction((tx) =>
      tx.execute(sql`select id from products where id = ${id} for update nowait`),
    );
    return false;
  } catch {
    return true;
  }
}

async function waitingForLocks(): Promise<number> {
  const result = await handle.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}

describe('releasing an order (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    "locks the stock rows in placement's order: waiting for the first, it holds no other",
    async () => {
      const { orderId, rows } = await pendingOrder();
      const [first, ...others] = rows
        .filter((row) => row.code === 'B200')
        .concat(rows.filter((row) => row.code === 'b100'));
      if (!first) throw new Error('no rows');
      // The first row's newest version goes behind the others in the table and in the code's
      // index (a change of an indexed column), where a scan of the code's rows finds it last.
      await handle.db
        .update(products)
        .set({ path: sql`${products.path} || '-2'` })
        .where(eq(products.id, first.id));

      let letGo = () => {};
      const held = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      let holding = () => {};
      const locked = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const holder = handle.db.transaction(async (tx) => {
        await tx.execute(sql`select id from products where id = ${first.id} for update`);
        holding();
        await held;
      });
      await locked;
      const release = handle.db.transaction((tx) => releaseOrder(tx, orderId, 'cancelled'));
      try {
        await expect.poll(waitingForLocks, { timeout: 20_000 }).toBe(1);
        const busy = [];
        for (const row of others) if (await lockedElsewhere(row.id)) busy.push(row);
        expect(busy).toEqual([]);
      } finally {
        letGo();
        await holder;
      }
      expect(await release).toBe(true);
      const stock = await handle.db
        .select({ code: products.code, stock: products.stock })
        .from(products)
        .where(inArray(products.code, ['b100', 'B200']))
        .orderBy(products.id);
      expect(stock).toEqual([
        { code: 'b100', stock: 22 },
        { code: 'b100', stock: 22 },
        { code: 'B200', stock: 23 },
        { code: 'B200', stock: 23 },
      ]);
    },
  );
});
