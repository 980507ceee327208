import { and, asc, eq, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Transaction } from '../../../db/client.ts';
import { Conflict, fieldErrorsOf, Invalid, NotFound } from '../../../server/errors.ts';
import {
  type PaymentProvider,
  PaymentProviderRefused,
  PaymentReturnRefused,
} from '../payment/provider.ts';
import { orderPayments, orderRefunds, orders } from '../tables.ts';
import { moveRefund, REFUND_INITIAL_STATUS } from './lifecycle.server.ts';
import { type ChargedLine, chargedLinesOf } from './payments.server.ts';

/**
 * Refunds of paid orders (decision 122): money given back through the provider that took it,
 * one `order_refunds` row per refund. A refund is written under the order's row lock, after
 * checking that it fits in what the paid attempt took less the refunds not failed, and only then
 * sent to the provider with the row's id as its refund stamp. The caller's idempotency key makes a
 * second press, or a second member of staff, find the first refund instead of making another.
 */

export type RefundRow = typeof orderRefunds.$inferSelect;

/** Where Paytrail tells the outcome of a refund it answered `pending`. */
export const REFUND_CALLBACK_PATH = '/api/v1/lihakauppa/payment/refund-callback';

/** A refund written this recently and still unanswered is being sent: a repeat does not resend. */
const REFUND_SENDING_MS = 30_000;

export interface RefundDeps {
  db: Database;
  provider: PaymentProvider;
  /** The shop's home page on its canonical host: the refund's callback URLs. */
  shopUrl: string;
  now?: () => Date;
}

const INVALID = 'validation.invalid';

/** What to refund: an amount in cents, or units of the order's lines at what they charged. */
export const refundAskSchema = z.union([
  z.object({ amountCents: z.number({ error: INVALID }).int(INVALID).min(1, INVALID) }).strict(),
  z
    .object({
      lines: z
        .array(
          z
            .object({
              code: z.string({ error: INVALID }).min(1, INVALID).max(100, INVALID),
              quantity: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(99, INVALID),
            })
            .strict(),
        )
        .min(1, INVALID)
        .max(500, INVALID)
        .refine((lines) => new Set(lines.map((l) => l.code)).size === lines.length, INVALID),
    })
    .strict(),
]);
export type RefundAsk = z.infer<typeof refundAskSchema>;

export const refundCallSchema = z.object({
  orderId: z.uuid(INVALID),
  ask: refundAskSchema,
  idempotencyKey: z.string({ error: INVALID }).min(1, INVALID).max(200, INVALID),
  actor: z.string({ error: INVALID }).min(1, INVALID).max(200, INVALID),
});

/**
 * What `q` more units of a line charge after `r` were refunded: the line's charge split over its
 * units as the payment's items split it (the remainder's cents on the first units), so that
 * refunding every unit, in any steps, gives back exactly what the line charged.
 */
export function unitsCharge(
  line: Pick<ChargedLine, 'chargedCents' | 'quantity'>,
  r: number,
  q: number,
) {
  const base = Math.floor(line.chargedCents / line.quantity);
  const dearer = line.chargedCents - base * line.quantity;
  const upTo = (k: number) => k * base + Math.min(k, dearer);
  return upTo(r + q) - upTo(r);
}

/** The refund's amount for lines: each line's units at what they charged, within what is left. */
async function amountOfLines(
  tx: Transaction,
  order: typeof orders.$inferSelect,
  asked: { code: string; quantity: number }[],
  earlier: RefundRow[],
): Promise<number> {
  const lines = new Map((await chargedLinesOf(tx, order)).map((line) => [line.code, line]));
  const refunded = new Map<string, number>();
  for (const refund of earlier) {
    for (const l of refund.lines ?? [])
      refunded.set(l.code, (refunded.get(l.code) ?? 0) + l.quantity);
  }
  let amount = 0;
  for (const { code, quantity } of asked) {
    const line = lines.get(code);
    if (!line) throw new Invalid({ lines: INVALID }, `The order has no line ${code}.`);
    const before = refunded.get(code) ?? 0;
    if (before + quantity > line.quantity) {
      throw new Conflict(
        `Line ${code}: ${quantity} more of ${line.quantity} cannot be refunded, ${before} were.`,
      );
    }
    amount += unitsCharge(line, before, quantity);
  }
  return amount;
}

export type Written =
  | {
      kind: 'send';
      refund: RefundRow;
      transactionId: string;
      /** Written now (not a repeat of an earlier call that was never answered). */
      fresh: boolean;
    }
  | { kind: 'done'; refund: RefundRow };

export type RefundCall = z.infer<typeof refundCallSchema>;

/**
 * On the order row the caller has locked (`for update`) in `tx`: the refund of this key if there
 * is one, or a new `requested` row whose amount fits in what was paid less what other refunds
 * (not failed) took. An order cancelled or lapsed after its money came may be refunded too; one
 * still waiting for its payment may not.
 */
export async function writeRefundIn(
  tx: Transaction,
  deps: Pick<RefundDeps, 'provider' | 'now'>,
  order: typeof orders.$inferSelect,
  call: RefundCall,
): Promise<Written> {
  const now = deps.now?.() ?? new Date();
  const earlier = await tx
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, order.id), ne(orderRefunds.status, 'fail')))
    .orderBy(asc(orderRefunds.createdAt));
  const [same] = await tx
    .select()
    .from(orderRefunds)
    .where(
      and(eq(orderRefunds.orderId, order.id), eq(orderRefunds.idempotencyKey, call.idempotencyKey)),
    );
  const paid = await paidAttemptOf(tx, order.id);
  if (same) {
    const unanswered =
      same.status === 'requested' &&
      now.getTime() - same.updatedAt.getTime() >= REFUND_SENDING_MS &&
      paid?.transactionId;
    return unanswered
      ? { kind: 'send', refund: same, transactionId: paid.transactionId as string, fresh: false }
      : { kind: 'done', refund: same };
  }
  if (order.status === 'pending_payment') {
    throw new Conflict('An order still waiting for its payment cannot be refunded.');
  }
  if (!paid?.transactionId || paid.provider !== deps.provider.id) {
    throw new Conflict('The order has no payment at the configured provider to refund.');
  }
  const amountCents =
    'amountCents' in call.ask
      ? call.ask.amountCents
      : await amountOfLines(tx, order, call.ask.lines, earlier);
  const left = paid.amountCents - refundedOf(earlier, paid.stamp);
  if (amountCents > left) {
    throw new Conflict(
      `A refund of ${amountCents} cents is more than the ${left} cents left of the payment.`,
    );
  }
  const [refund] = await tx
    .insert(orderRefunds)
    .values({
      orderId: order.id,
      paymentStamp: paid.stamp,
      provider: paid.provider,
      idempotencyKey: call.idempotencyKey,
      amountCents,
      lines: 'lines' in call.ask ? call.ask.lines : null,
      status: REFUND_INITIAL_STATUS,
      actor: call.actor,
    })
    .returning();
  if (!refund) throw new Error('refund insert returned no row');
  return { kind: 'send', refund, transactionId: paid.transactionId, fresh: true };
}

/** The order's paid attempt: the first one the provider confirmed. */
async function paidAttemptOf(tx: Database | Transaction, orderId: string) {
  const [paid] = await tx
    .select()
    .from(orderPayments)
    .where(and(eq(orderPayments.orderId, orderId), eq(orderPayments.status, 'ok')))
    .orderBy(asc(orderPayments.createdAt))
    .limit(1);
  return paid;
}

/** What the refunds (not failed) of one payment took from it. */
const refundedOf = (refunds: RefundRow[], stamp: string) =>
  refunds
    .filter((refund) => refund.paymentStamp === stamp)
    .reduce((sum, refund) => sum + refund.amountCents, 0);

/**
 * What is left to refund of an order's paid attempt (0 without one): the rest of the money after
 * the refunds not failed. Read in the caller's transaction.
 */
export async function refundableCents(
  tx: Database | Transaction,
  orderId: string,
): Promise<number> {
  const paid = await paidAttemptOf(tx, orderId);
  if (!paid) return 0;
  const earlier = await tx
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, orderId), ne(orderRefunds.status, 'fail')));
  return paid.amountCents - refundedOf(earlier, paid.stamp);
}

/** Parses a refund's call; an invalid one is 400 with its fields. */
export function refundCall(
  orderId: string,
  ask: RefundAsk,
  idempotencyKey: string,
  actor: string,
): RefundCall {
  const parsed = refundCallSchema.safeParse({ orderId, ask, idempotencyKey, actor });
  if (!parsed.success) throw new Invalid(fieldErrorsOf(parsed.error), 'The refund is invalid.');
  return parsed.data;
}

/**
 * Sends a written refund to its provider with the row's id as the refund stamp, and records the
 * answer; a refund already answered comes back as it is. A provider that does not answer
 * throws `PaymentProviderFailed` (502) and leaves the refund `requested`.
 */
export async function sendRefund(deps: RefundDeps, written: Written): Promise<RefundRow> {
  if (written.kind === 'done') return written.refund;
  const { refund } = written;
  const [order] = await deps.db
    .select({ number: orders.number })
    .from(orders)
    .where(eq(orders.id, refund.orderId));
  const callback = new URL(REFUND_CALLBACK_PATH, deps.shopUrl).href;
  try {
    const answer = await deps.provider.refund({
      transactionId: written.transactionId,
      amountCents: refund.amountCents,
      refundStamp: refund.id,
      refundReference: String(order?.number ?? refund.orderId),
      callbackUrls: { success: callback, cancel: callback },
    });
    const moved = await moveRefund(deps.db, refund.id, 'requested', answer.status, {
      transactionId: answer.refundTransactionId ?? null,
    });
    return moved ?? (await refundRow(deps.db, refund.id));
  } catch (error) {
    if (error instanceof PaymentProviderRefused) {
      return (
        (await moveRefund(deps.db, refund.id, 'requested', 'fail')) ?? refundRow(deps.db, refund.id)
      );
    }
    throw error;
  }
}

/**
 * Refunds all or part of a paid order through its provider and answers the refund's row
 * (`status`: `ok`, `pending` while the provider works on it, `fail` when it refused). `ask` is an
 * amount in cents or the order's lines by code and quantity (their units at what they charged).
 * The same `idempotencyKey` for the same order answers the first refund, at once or later; a
 * refund above what the payment took less the other refunds (not failed) is refused with 409
 * (`Conflict`) and nothing is written. A provider that does not answer throws
 * `PaymentProviderFailed` (502) and leaves the refund `requested`: the same key sends it again
 * with the same refund stamp. A staff route calls this with the staff member's id as `actor`.
 */
export async function refundOrder(
  deps: RefundDeps,
  orderId: string,
  ask: RefundAsk,
  idempotencyKey: string,
  actor: string,
): Promise<RefundRow> {
  const call = refundCall(orderId, ask, idempotencyKey, actor);
  const written = await deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, call.orderId)).for('update');
    if (!order) throw new NotFound('No such order.');
    return writeRefundIn(tx, deps, order, call);
  });
  return sendRefund(deps, written);
}

async function refundRow(db: Database, id: string): Promise<RefundRow> {
  const [row] = await db.select().from(orderRefunds).where(eq(orderRefunds.id, id));
  if (!row) throw new Error(`refund ${id} is gone`);
  return row;
}

/** The order's refunds, oldest first (for a staff view or a receipt). */
export async function refundsOfOrder(db: Database, orderId: string): Promise<RefundRow[]> {
  return db
    .select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.createdAt));
}

/**
 * A refund's outcome from the provider's signed callback (Paytrail calls it for a refund it
 * answered `pending`): the signature and account checked by the provider, the stamp our refund's
 * id, the amount the refund's. The refund moves to `ok` or `fail` once; any number of calls, in
 * any order, have the effect of one. Anything that does not match is refused and nothing changes.
 */
export async function applyRefundCallback(
  deps: Pick<RefundDeps, 'db' | 'provider'>,
  query: Record<string, unknown>,
): Promise<RefundRow> {
  const verified = deps.provider.parseReturn(query);
  if (!z.uuid().safeParse(verified.stamp).success) {
    throw new PaymentReturnRefused('No refund has this stamp.');
  }
  return deps.db.transaction(async (tx) => {
    const [refund] = await tx
      .select()
      .from(orderRefunds)
      .where(eq(orderRefunds.id, verified.stamp))
      .for('update');
    if (
      !refund ||
      refund.provider !== deps.provider.id ||
      refund.amountCents !== verified.amountCents
    ) {
      throw new PaymentReturnRefused('The callback does not match a refund.');
    }
    const to = verified.status === 'ok' ? 'ok' : verified.status === 'fail' ? 'fail' : null;
    if (!to || (refund.status !== 'requested' && refund.status !== 'pending')) return refund;
    const moved = await moveRefund(tx, refund.id, refund.status, to, {
      transactionId: refund.transactionId ?? verified.transactionId,
    });
    return moved ?? refund;
  });
}
