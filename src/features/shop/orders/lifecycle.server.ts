import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../../db/client.ts';
import {
  type FulfilmentStatus,
  type OrderStatus,
  orderPayments,
  orderRefunds,
  orders,
  type PaymentAttemptStatus,
  type RefundStatus,
} from '../tables.ts';
import { giveBackAll, takingsOfOrder } from './ledger.server.ts';

/**
 * The lifecycle of an order and of a payment attempt (decision 120): the statuses are listed in
 * the schema, where check constraints hold every row to them; the moves between them are the two
 * tables below, and `moveOrder` and `moveAttempt` are the only code that changes a status. Each
 * move is one conditional update (`where id = … and status = from`) in the caller's transaction,
 * under the row's lock when the caller holds it: of many calls for the same move, one changes
 * the row and the others get null, so a repeated callback or a second expiry does nothing more.
 * A move that is not in its table throws, whatever the row's status.
 */

type OrderRow = typeof orders.$inferSelect;
type AttemptRow = typeof orderPayments.$inferSelect;
type RefundRow = typeof orderRefunds.$inferSelect;
type Writer = Database | Transaction;

/** The status an order is written with: placement moves one of 0,00 on to `paid` at once. */
export const ORDER_INITIAL_STATUS = 'pending_payment' satisfies OrderStatus;

/**
 * Every move an order may make. `givesBack`: the move gives back what placement took (the slot,
 * date stock, stock, coupon uses and gift-card balance, `ledger.server.ts`), in the same
 * transaction. `stamp`: the column set to the time of the move.
 */
export const ORDER_TRANSITIONS = [
  // The provider confirmed the payment, or gift cards and coupons left nothing to pay.
  { from: 'pending_payment', to: 'paid', givesBack: false, stamp: 'paidAt' },
  // The payment failed or the shopper cancelled it at the provider.
  { from: 'pending_payment', to: 'cancelled', givesBack: true },
  // Not paid in time (`expires_at`).
  { from: 'pending_payment', to: 'expired', givesBack: true },
  // Cancelled by the shop's staff before it left for delivery (decision 141); the money goes
  // back as a refund written in the same transaction.
  { from: 'paid', to: 'cancelled', givesBack: true },
] as const satisfies readonly {
  from: OrderStatus;
  to: OrderStatus;
  givesBack: boolean;
  stamp?: 'paidAt';
}[];

type OrderMove = (typeof ORDER_TRANSITIONS)[number];
/** Where an order in `From` may move. */
export type OrderTarget<From extends OrderStatus> = Extract<OrderMove, { from: From }>['to'];
/** The moves of an unpaid order that give back what it took. */
export type ReleasingStatus = Extract<
  OrderMove,
  { from: 'pending_payment'; givesBack: true }
>['to'];

/** The status a payment attempt is written with, before its provider is called. */
export const ATTEMPT_INITIAL_STATUS = 'new' satisfies PaymentAttemptStatus;

/** Attempt statuses that may still turn into a payment. */
export const OPEN_ATTEMPT_STATUSES = [
  'new',
  'pending',
  'delayed',
] as const satisfies readonly PaymentAttemptStatus[];

/**
 * Every move a payment attempt may make. An open attempt takes the provider's latest word; `ok`
 * is final and wins over everything (money that came is recorded, also after a failure); `fail`
 * and the shop's `error` (refused or never answered by the provider, or lost) are final but for
 * a later `ok`.
 */
export const ATTEMPT_TRANSITIONS = [
  // The provider's latest word about a payment still open.
  { from: 'new', to: 'pending' },
  { from: 'new', to: 'delayed' },
  { from: 'pending', to: 'new' },
  { from: 'pending', to: 'delayed' },
  { from: 'delayed', to: 'new' },
  { from: 'delayed', to: 'pending' },
  // Paid.
  { from: 'new', to: 'ok' },
  { from: 'pending', to: 'ok' },
  { from: 'delayed', to: 'ok' },
  { from: 'fail', to: 'ok' },
  { from: 'error', to: 'ok' },
  // Failed or cancelled at the provider.
  { from: 'new', to: 'fail' },
  { from: 'pending', to: 'fail' },
  { from: 'delayed', to: 'fail' },
  // The provider refused it or never answered, or a newer attempt replaced a lost one.
  { from: 'new', to: 'error' },
  { from: 'pending', to: 'error' },
  { from: 'delayed', to: 'error' },
] as const satisfies readonly { from: PaymentAttemptStatus; to: PaymentAttemptStatus }[];

type AttemptMove = (typeof ATTEMPT_TRANSITIONS)[number];
/** Where an attempt in `From` may move. */
export type AttemptTarget<From extends PaymentAttemptStatus> = Extract<
  AttemptMove,
  { from: From }
>['to'];

/** A move that is not in its lifecycle's table: a mistake in the code, never a shopper's. */
export class IllegalTransition extends Error {
  constructor(
    what: 'order' | 'payment attempt' | 'refund' | 'fulfilment',
    from: string,
    to: string,
  ) {
    super(`A ${what} cannot move from ${from} to ${to}.`);
    this.name = 'IllegalTransition';
  }
}

interface Move {
  from: string;
  to: string;
}

/** The move from `from` to `to` in a lifecycle's table, if it has one. */
function moveIn<M extends Move>(moves: readonly M[], from: string, to: string): M | undefined {
  return moves.find((move) => move.from === from && move.to === to);
}

/**
 * A status move of a lifecycle whose moves do nothing more (attempts, refunds, fulfilment):
 * `IllegalTransition` for one not in `moves`, before anything is written; otherwise `update`, its
 * one conditional update, and the moved row or null.
 */
async function plainMove<Row>(
  what: ConstructorParameters<typeof IllegalTransition>[0],
  moves: readonly Move[],
  from: string,
  to: string,
  update: () => Promise<Row[]>,
): Promise<Row | null> {
  if (!moveIn(moves, from, to)) throw new IllegalTransition(what, from, to);
  const [moved] = await update();
  return moved ?? null;
}

/**
 * The conditional update of a payment attempt's or a refund's status move: the row `which` moves
 * to `to`, with `set` written alongside, if it is in `from`; answers the moved rows.
 */
function updateStatus(
  db: Writer,
  table: typeof orderPayments,
  which: SQL,
  from: PaymentAttemptStatus,
  to: PaymentAttemptStatus,
  set: PgUpdateSetSource<typeof orderPayments>,
): Promise<AttemptRow[]>;
function updateStatus(
  db: Writer,
  table: typeof orderRefunds,
  which: SQL,
  from: RefundStatus,
  to: RefundStatus,
  set: PgUpdateSetSource<typeof orderRefunds>,
): Promise<RefundRow[]>;
function updateStatus(
  db: Writer,
  table: typeof orderPayments | typeof orderRefunds,
  which: SQL,
  from: PaymentAttemptStatus | RefundStatus,
  to: PaymentAttemptStatus | RefundStatus,
  set: PgUpdateSetSource<typeof orderPayments> | PgUpdateSetSource<typeof orderRefunds>,
): Promise<(AttemptRow | RefundRow)[]> {
  return db
    .update(table)
    .set({ ...set, status: to, updatedAt: sql`now()` })
    .where(and(which, eq(table.status, from)))
    .returning();
}

/** Whether an attempt in `from` may move to `to`. */
export function attemptMayMove(from: string, to: string): boolean {
  return moveIn(ATTEMPT_TRANSITIONS, from, to) !== undefined;
}

/** Whether an attempt in this status may still be paid. */
export const attemptIsOpen = (status: string): boolean =>
  (OPEN_ATTEMPT_STATUSES as readonly string[]).includes(status);

/**
 * Moves the order from `from` to `to` if it is in `from`, with `set` written alongside, and does
 * what the move does (`givesBack`, `stamp`); answers the moved row, or null when the order was
 * not in `from` (moved already, by this call's twin or another). Throws `IllegalTransition` for a
 * move not in `ORDER_TRANSITIONS`, before anything is written.
 */
export async function moveOrder<From extends OrderStatus>(
  tx: Transaction,
  orderId: string,
  from: From,
  to: OrderTarget<From>,
  set: Omit<PgUpdateSetSource<typeof orders>, 'status'> = {},
): Promise<OrderRow | null> {
  const move = moveIn(ORDER_TRANSITIONS, from, to);
  if (!move) throw new IllegalTransition('order', from, to);
  const [moved] = await tx
    .update(orders)
    .set({
      ...set,
      ...('stamp' in move ? { [move.stamp]: sql`now()` } : {}),
      status: move.to,
      updatedAt: sql`now()`,
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, move.from)))
    .returning();
  if (!moved) return null;
  if (move.givesBack) await giveBackAll(tx, await takingsOfOrder(tx, moved));
  return moved;
}

/**
 * Gives back what an unpaid order took, once: the order moves from `pending_payment` to `to`
 * (cancelled after a failed payment, expired when its time ran out), and only the call that made
 * that move gives back. Answers whether this call released it (false: it was paid, or released
 * already). Runs in the caller's transaction, so a payment's status and the release commit
 * together.
 */
export async function releaseOrder(
  tx: Transaction,
  orderId: string,
  to: ReleasingStatus = 'expired',
): Promise<boolean> {
  return (await moveOrder(tx, orderId, 'pending_payment', to)) !== null;
}

/**
 * Moves the payment attempt `stamp` from `from` to `to` if it is in `from`, with `set` written
 * alongside; answers the moved row or null. Throws `IllegalTransition` for a move not in
 * `ATTEMPT_TRANSITIONS`, before anything is written.
 */
export async function moveAttempt<From extends PaymentAttemptStatus>(
  db: Writer,
  stamp: string,
  from: From,
  to: AttemptTarget<From>,
  set: Pick<PgUpdateSetSource<typeof orderPayments>, 'transactionId' | 'method'> = {},
): Promise<AttemptRow | null> {
  return plainMove('payment attempt', ATTEMPT_TRANSITIONS, from, to, () =>
    updateStatus(db, orderPayments, eq(orderPayments.stamp, stamp), from, to, set),
  );
}

/**
 * Every move a refund may make (decision 122): a refund written `requested` takes the provider's
 * answer; a `pending` one its later word. `ok` and `fail` are final.
 */
export const REFUND_TRANSITIONS = [
  { from: 'requested', to: 'pending' },
  { from: 'requested', to: 'ok' },
  { from: 'requested', to: 'fail' },
  { from: 'pending', to: 'ok' },
  { from: 'pending', to: 'fail' },
] as const satisfies readonly { from: RefundStatus; to: RefundStatus }[];

/** The status a refund is written with, before its provider is asked. */
export const REFUND_INITIAL_STATUS = 'requested' satisfies RefundStatus;

/**
 * Moves the refund `id` from `from` to `to` if it is in `from`, with the provider's refund
 * transaction written alongside; answers the moved row or null. A move not in
 * `REFUND_TRANSITIONS` throws `IllegalTransition` before anything is written.
 */
export async function moveRefund(
  db: Writer,
  id: string,
  from: RefundStatus,
  to: RefundStatus,
  set: Pick<PgUpdateSetSource<typeof orderRefunds>, 'transactionId'> = {},
): Promise<RefundRow | null> {
  return plainMove('refund', REFUND_TRANSITIONS, from, to, () =>
    updateStatus(db, orderRefunds, eq(orderRefunds.id, id), from, to, set),
  );
}

/**
 * Every move of a paid order's fulfilment (decision 141): forward one step at a time, and back
 * one step to undo a step taken by mistake. A cancelled or unpaid order stays `unfulfilled`.
 */
export const FULFILMENT_TRANSITIONS = [
  { from: 'unfulfilled', to: 'packed' },
  { from: 'packed', to: 'out_for_delivery' },
  { from: 'out_for_delivery', to: 'delivered' },
  { from: 'packed', to: 'unfulfilled' },
  { from: 'out_for_delivery', to: 'packed' },
  { from: 'delivered', to: 'out_for_delivery' },
] as const satisfies readonly { from: FulfilmentStatus; to: FulfilmentStatus }[];

/** Whether a paid order's fulfilment may move from `from` to `to`. */
export function fulfilmentMayMove(from: string, to: string): boolean {
  return moveIn(FULFILMENT_TRANSITIONS, from, to) !== undefined;
}

/** Fulfilment steps before the order left: a cancellation may still stop it. */
export const CANCELLABLE_FULFILMENT: readonly FulfilmentStatus[] = ['unfulfilled', 'packed'];

/**
 * Moves a paid order's fulfilment from `from` to `to` if it is paid and in `from`; answers the
 * moved row or null. A move not in `FULFILMENT_TRANSITIONS` throws before anything is written.
 */
export async function moveFulfilment(
  db: Writer,
  orderId: string,
  from: FulfilmentStatus,
  to: FulfilmentStatus,
): Promise<OrderRow | null> {
  return plainMove('fulfilment', FULFILMENT_TRANSITIONS, from, to, () =>
    db
      .update(orders)
      .set({ fulfilment: to, updatedAt: sql`now()` })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'paid'), eq(orders.fulfilment, from)))
      .returning(),
  );
}
