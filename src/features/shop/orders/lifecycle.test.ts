import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { products } from '../../content/tables.ts';
import { PAYMENT_STATUSES } from '../payment/provider.ts';
import {
  FULFILMENT_STATUSES,
  ORDER_STATUSES,
  type OrderStatus,
  orderPayments,
  orders,
  PAYMENT_ATTEMPT_STATUSES,
  type PaymentAttemptStatus,
} from '../tables.ts';
import {
  ATTEMPT_INITIAL_STATUS,
  ATTEMPT_TRANSITIONS,
  attemptMayMove,
  FULFILMENT_TRANSITIONS,
  fulfilmentMayMove,
  IllegalTransition,
  moveAttempt,
  moveOrder,
  OPEN_ATTEMPT_STATUSES,
  ORDER_INITIAL_STATUS,
  ORDER_TRANSITIONS,
} from './lifecycle.server.ts';
import { createOrder } from './order-fixtures.test-support.ts';

/**
 * The order and payment-attempt lifecycles (decision 120): every move in a table is made once,
 * every pair of statuses not in it is refused by the code, and a status outside the lists is
 * refused by the database.
 */

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase(inject('templateDatabase'));
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

const pairs = <S extends string>(statuses: readonly S[]) =>
  statuses.flatMap((from) => statuses.map((to) => ({ from, to })));
const inTable = (table: readonly { from: string; to: string }[], from: string, to: string) =>
  table.some((move) => move.from === from && move.to === to);

const forbiddenOrderMoves = pairs(ORDER_STATUSES).filter(
  ({ from, to }) => !inTable(ORDER_TRANSITIONS, from, to),
);
const forbiddenAttemptMoves = pairs(PAYMENT_ATTEMPT_STATUSES).filter(
  ({ from, to }) => !inTable(ATTEMPT_TRANSITIONS, from, to),
);

/** The database error's SQLSTATE and message, wherever the driver put it in the cause chain. */
async function refusal(query: Promise<unknown>): Promise<{ code: string; messages: string }> {
  try {
    await query;
  } catch (error) {
    const messages: string[] = [];
    let code = '';
    for (let cur: unknown = error; cur && typeof cur === 'object'; ) {
      const e = cur as { code?: unknown; message?: unknown; cause?: unknown };
      if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) code = e.code;
      if (typeof e.message === 'string') messages.push(e.message);
      cur = e.cause;
    }
    return { code, messages: messages.join('\n') };
  }
  throw new Error('the statement was not refused');
}

async function statusOf(id: string): Promise<OrderStatus | undefined> {
  const [row] = await handle.db.select().from(orders).where(eq(orders.id, id));
  return row?.status;
}

async function attemptStatusOf(stamp: string): Promise<PaymentAttemptStatus | undefined> {
  const [row] = await handle.db.select().from(orderPayments).where(eq(orderPayments.stamp, stamp));
  return row?.status;
}

async function createAttempt(orderId: string, status: PaymentAttemptStatus): Promise<string> {
  const stamp = randomUUID();
  await handle.db
    .insert(orderPayments)
    .values({ stamp, orderId, provider: 'testbank', amountCents: 3890, status });
  return stamp;
}

/** The quoted words of a check constraint's definition: the statuses the database allows. */
async function allowedByCheck(constraint: string): Promise<string[]> {
  const result = await handle.db.execute<{ def: string }>(
    sql`select pg_get_constraintdef(oid) as def from pg_constraint where conname = ${constraint}`,
  );
  const def = (result as unknown as { rows: { def: string }[] }).rows[0]?.def ?? '';
  return [...def.matchAll(/'([a-z_]+)'/g)].map((match) => match[1] ?? '');
}

describe('the transition tables', () => {
  it('name only known statuses, each move once, none to where it comes from', () => {
    for (const table of [ORDER_TRANSITIONS, ATTEMPT_TRANSITIONS]) {
      const keys = table.map((move) => `${move.from}→${move.to}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(table.filter((move) => move.from === move.to)).toEqual([]);
    }
    for (const move of ORDER_TRANSITIONS) {
      expect(ORDER_STATUSES).toContain(move.from);
      expect(ORDER_STATUSES).toContain(move.to);
    }
    for (const move of ATTEMPT_TRANSITIONS) {
      expect(PAYMENT_ATTEMPT_STATUSES).toContain(move.from);
      expect(PAYMENT_ATTEMPT_STATUSES).toContain(move.to);
    }
    expect(ORDER_STATUSES).toContain(ORDER_INITIAL_STATUS);
    expect(PAYMENT_ATTEMPT_STATUSES).toContain(ATTEMPT_INITIAL_STATUS);
    // Every status a provider's return can bring is an attempt status.
    for (const status of PAYMENT_STATUSES) expect(PAYMENT_ATTEMPT_STATUSES).toContain(status);
  });

  it('give back what an order took exactly on the moves that end it before delivery', () => {
    expect(
      ORDER_TRANSITIONS.filter((move) => move.givesBack).map((move) => `${move.from}→${move.to}`),
    ).toEqual(['pending_payment→cancelled', 'pending_payment→expired', 'paid→cancelled']);
  });

  it('move fulfilment one step at a time, forward or back, between known steps', () => {
    const keys = FULFILMENT_TRANSITIONS.map((move) => `${move.from}→${move.to}`);
    expect(new Set(keys).size).toBe(keys.length);
    const order = (status: string) => FULFILMENT_STATUSES.indexOf(status as never);
    for (const { from, to } of FULFILMENT_TRANSITIONS) {
      expect(order(from)).toBeGreaterThanOrEqual(0);
      expect(Math.abs(order(to) - order(from))).toBe(1);
    }
    // Every step forward is in the table, and so is its undo.
    for (let i = 1; i < FULFILMENT_STATUSES.length; i += 1) {
      const [a, b] = [FULFILMENT_STATUSES[i - 1] as string, FULFILMENT_STATUSES[i] as string];
      expect(fulfilmentMayMove(a, b)).toBe(true);
      expect(fulfilmentMayMove(b, a)).toBe(true);
    }
    expect(fulfilmentMayMove('unfulfilled', 'delivered')).toBe(false);
  });

  it('let an attempt be paid from every status but ok, and leave a final one only for ok', () => {
    for (const from of PAYMENT_ATTEMPT_STATUSES) {
      expect(attemptMayMove(from, 'ok')).toBe(from !== 'ok');
    }
    const open: readonly string[] = OPEN_ATTEMPT_STATUSES;
    for (const { from, to } of ATTEMPT_TRANSITIONS) {
      if (!open.includes(from)) expect(to).toBe('ok');
    }
  });

  it('are the check constraints of the database', async () => {
    expect((await allowedByCheck('orders_status_ck')).sort()).toEqual([...ORDER_STATUSES].sort());
    expect((await allowedByCheck('order_payments_status_ck')).sort()).toEqual(
      [...PAYMENT_ATTEMPT_STATUSES].sort(),
    );
    expect((await allowedByCheck('orders_fulfilment_ck')).sort()).toEqual(
      [...FULFILMENT_STATUSES].sort(),
    );
  });
});

describe('moveOrder', () => {
  it.each(ORDER_TRANSITIONS)(
    'moves $from → $to once; a second call changes nothing',
    async (move) => {
      const order = await createOrder(handle.db, { customerId: null, status: move.from });
      const stock = () =>
        handle.db
          .select({ code: products.code, stock: products.stock })
          .from(products)
          .where(
            sql`${products.code} in (select code from order_lines where order_id = ${order.id})`,
          )
          .orderBy(products.code);
      const before = await stock();
      const first = await handle.db.transaction((tx) =>
        moveOrder(tx, order.id, move.from, move.to),
      );
      expect(first?.status).toBe(move.to);
      expect(first?.updatedAt.getTime()).toBeGreaterThanOrEqual(order.updatedAt.getTime());
      if ('stamp' in move) expect(first?.paidAt).toBeInstanceOf(Date);
      const afterFirst = await stock();
      // The fixture's lines are 3 and 2 of two products with a stock (A… then B…).
      expect(afterFirst.map((row) => row.stock)).toEqual(
        move.givesBack ? [13, 7] : before.map((row) => row.stock),
      );
      const second = await handle.db.transaction((tx) =>
        moveOrder(tx, order.id, move.from, move.to),
      );
      expect(second).toBeNull();
      expect(await statusOf(order.id)).toBe(move.to);
      expect(await stock()).toEqual(afterFirst);
    },
  );

  it.each(forbiddenOrderMoves)('refuses $from → $to, and the order stays', async ({ from, to }) => {
    const order = await createOrder(handle.db, { customerId: null, status: from });
    await expect(
      handle.db.transaction((tx) => moveOrder(tx, order.id, from, to as never)),
    ).rejects.toBeInstanceOf(IllegalTransition);
    expect(await statusOf(order.id)).toBe(from);
  });

  it('leaves an order that is not in the move’s starting status as it is', async () => {
    const order = await createOrder(handle.db, { customerId: null, status: 'expired' });
    const moved = await handle.db.transaction((tx) =>
      moveOrder(tx, order.id, 'pending_payment', 'paid'),
    );
    expect(moved).toBeNull();
    expect(await statusOf(order.id)).toBe('expired');
  });
});

describe('moveAttempt', () => {
  it.each(ATTEMPT_TRANSITIONS)('moves $from → $to once', async ({ from, to }) => {
    const order = await createOrder(handle.db, { customerId: null });
    const stamp = await createAttempt(order.id, from);
    const moved = await moveAttempt(handle.db, stamp, from, to, { transactionId: 'tx-1' });
    expect(moved).toMatchObject({ status: to, transactionId: 'tx-1' });
    expect(await moveAttempt(handle.db, stamp, from, to)).toBeNull();
    expect(await attemptStatusOf(stamp)).toBe(to);
  });

  it.each(forbiddenAttemptMoves)(
    'refuses $from → $to, and the attempt stays',
    async ({ from, to }) => {
      const order = await createOrder(handle.db, { customerId: null });
      const stamp = await createAttempt(order.id, from);
      await expect(moveAttempt(handle.db, stamp, from, to as never)).rejects.toBeInstanceOf(
        IllegalTransition,
      );
      expect(await attemptStatusOf(stamp)).toBe(from);
    },
  );
});

describe('the database', () => {
  it('refuses an order status outside the lifecycle, by update and by insert', async () => {
    const order = await createOrder(handle.db, { customerId: null });
    for (const status of ['shipped', 'PAID', '']) {
      const refused = await refusal(
        handle.db.execute(sql`update orders set status = ${status} where id = ${order.id}`),
      );
      expect(refused.code).toBe('23514');
      expect(refused.messages).toContain('orders_status_ck');
    }
    const copy = await refusal(
      handle.db.execute(sql`
        insert into orders (checkout_id, site_id, language, status, email, phone_number,
          delivery_address, billing_address, sub_total_cents, vat_cents, total_cents)
        select gen_random_uuid(), site_id, language, 'refunded', email, phone_number,
          delivery_address, billing_address, sub_total_cents, vat_cents, total_cents
        from orders where id = ${order.id}`),
    );
    expect(copy.code).toBe('23514');
    expect(await statusOf(order.id)).toBe('pending_payment');
  });

  it('refuses a payment attempt status outside the lifecycle', async () => {
    const order = await createOrder(handle.db, { customerId: null });
    const stamp = await createAttempt(order.id, 'new');
    for (const status of ['refunded', 'cancelled', 'OK']) {
      const refused = await refusal(
        handle.db.execute(sql`update order_payments set status = ${status} where stamp = ${stamp}`),
      );
      expect(refused.code).toBe('23514');
      expect(refused.messages).toContain('order_payments_status_ck');
    }
    expect(await attemptStatusOf(stamp)).toBe('new');
  });
});
