import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { testBank } from '../payment/providers.server.ts';
import { testBankPayments, testBankRefunds } from '../tables.ts';
import { refundOrder, refundsOfOrder } from './refunds.server.ts';
import { paidAtTestBank, SHOP } from './refunds.test-support.ts';

/**
 * Refunds at once on a real PostgreSQL server (several connections, real row locks; decision
 * 122): runs only when DATABASE_URL is set. PGlite has one connection, so nothing would race.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;

beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const deps = () => ({ db: t.app.db, provider: testBank(t.app), shopUrl: SHOP });

/** Each call's refund, or the error it was refused with. */
const settled = <T>(calls: Promise<T>[]) => Promise.allSettled(calls);

async function refundedAtBank(orderNumber: number) {
  const [row] = await t.app.db
    .select()
    .from(testBankPayments)
    .where(eq(testBankPayments.reference, String(orderNumber)));
  const refunds = row
    ? await t.app.db
        .select()
        .from(testBankRefunds)
        .where(eq(testBankRefunds.transactionId, row.transactionId))
    : [];
  return { cents: row?.refundedCents, refunds: refunds.filter((r) => r.status === 'ok').length };
}

describe('refunds at once (PostgreSQL)', () => {
  it.runIf(onPostgres)(
    'two staff refund the whole order at once with their own keys: one refund, one refused',
    async () => {
      const order = await paidAtTestBank(t);
      const outcomes = await settled([
        refundOrder(deps(), order.id, { amountCents: 3890 }, 'staff-a-press', 'staff-a'),
        refundOrder(deps(), order.id, { amountCents: 3890 }, 'staff-b-press', 'staff-b'),
      ]);
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toMatchObject({ status: 409 });
      expect((await refundsOfOrder(t.app.db, order.id)).map((r) => r.status)).toEqual(['ok']);
      expect(await refundedAtBank(order.number)).toEqual({ cents: 3890, refunds: 1 });
    },
  );

  it.runIf(onPostgres)(
    'one press delivered ten times at once (one key): one refund, every call answers it',
    async () => {
      const order = await paidAtTestBank(t);
      const outcomes = await settled(
        Array.from({ length: 10 }, () =>
          refundOrder(deps(), order.id, { amountCents: 3890 }, 'one-press', 'staff'),
        ),
      );
      const ids = new Set(
        outcomes.map((o) => (o.status === 'fulfilled' ? o.value.id : String(o.reason))),
      );
      expect(ids.size).toBe(1);
      expect(await refundsOfOrder(t.app.db, order.id)).toHaveLength(1);
      expect(await refundedAtBank(order.number)).toEqual({ cents: 3890, refunds: 1 });
    },
  );

  it.runIf(onPostgres)(
    'eight partial refunds of 10,00 at once on 38,90: three go through, never more than was paid',
    async () => {
      const order = await paidAtTestBank(t);
      const outcomes = await settled(
        Array.from({ length: 8 }, (_, i) =>
          refundOrder(deps(), order.id, { amountCents: 1000 }, `part-${i}`, 'staff'),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const o of outcomes) {
        if (o.status === 'rejected') expect(o.reason).toMatchObject({ status: 409 });
      }
      const rows = await refundsOfOrder(t.app.db, order.id);
      expect(rows.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
      expect(rows.reduce((s, r) => s + r.amountCents, 0)).toBe(3000);
      expect(await refundedAtBank(order.number)).toEqual({ cents: 3000, refunds: 3 });
    },
  );
});
