import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import type { Lang } from '../../../sites/types.ts';
import { enqueueMail } from '../../forms/index.server.ts';
import { limitOf, productsByCode } from '../cart-products.server.ts';
import {
  CHECKOUT_PAGE_PATH,
  PAYMENT_CANCELLED,
  PAYMENT_PARAM,
  POSTAL_CODE_PARAM,
  STEPS,
} from '../checkout/checkout-form.ts';
import {
  outcomeOf,
  PaymentProviderFailed,
  PaymentProviderRefused,
  type PaymentReturn,
  PaymentReturnRefused,
} from '../payment/provider.ts';
import {
  cartLineItems,
  carts,
  checkoutHolds,
  orderLines,
  orderPayments,
  orders,
} from '../tables.ts';
import {
  attemptIsOpen,
  attemptMayMove,
  moveAttempt,
  OPEN_ATTEMPT_STATUSES,
  releaseOrder,
} from './lifecycle.server.ts';
import { euro, payOrder, STATUS_TEXT } from './paid.server.ts';
import { confirmationUrl, type OrderRow, type PaymentDeps } from './payments.server.ts';

/**
 * What the shop does with a payment's returns and with unpaid orders (decision 028). A redirect
 * or callback is verified by the provider (decision 024), its attempt found by stamp, and under
 * the order's row lock: its status recorded on the attempt; `ok` with the attempt's amount moves
 * the order `pending_payment → paid` once, with the shopper's confirmation and the shop's
 * notification in the outbox in the same transaction; `fail` moves it `pending_payment →
 * cancelled` once, gives back what placement took (`releaseOrder`) and puts the lines back in
 * the cart. A return
 * that comes again, or late, changes nothing more; an `ok` for an order that is no longer
 * waiting is recorded and mailed to the shop for handling by hand.
 */

type AttemptRow = typeof orderPayments.$inferSelect;

export interface ReturnOutcome {
  order: OrderRow;
  /** What this return did: moved the order, only recorded, or nothing new. */
  effect: 'paid' | 'cancelled' | 'late' | 'recorded' | 'none';
}

/**
 * The checkout's payment step for the order's postal code, with `maksu=peruttu`: the checkout
 * page is to show that the payment was cancelled (`shop.order.paymentCancelled`). Without the
 * postal code the checkout page would redirect the parameter away.
 */
export function cancelledReturnPath(
  order: Pick<OrderRow, 'postalCode'> & { deliveryAddress: { postalCode: string } },
): string {
  const query = new URLSearchParams({
    // An order of gift cards only has no delivery postal code: the address's serves the page.
    [POSTAL_CODE_PARAM]: order.postalCode ?? order.deliveryAddress.postalCode,
    [PAYMENT_PARAM]: PAYMENT_CANCELLED,
  });
  return `${CHECKOUT_PAGE_PATH}?${query}#${STEPS.payment}`;
}

/** Where the shopper goes after a verified redirect (a path on the shop). */
export function afterReturnPath(
  order: Pick<OrderRow, 'id' | 'status' | 'postalCode' | 'deliveryAddress'>,
  shopUrl: string,
): string {
  if (order.status === 'cancelled') return cancelledReturnPath(order);
  const url = new URL(confirmationUrl(shopUrl, order.id));
  return `${url.pathname}${url.search}`;
}

/**
 * Verifies a redirect's or callback's query and applies it. Throws `PaymentReturnRefused` (403)
 * for a bad signature, an unknown stamp, or a transaction, reference or amount other than the
 * attempt's: then nothing changes.
 */
export async function handlePaymentReturn(
  deps: PaymentDeps,
  query: Record<string, unknown>,
): Promise<ReturnOutcome> {
  return applyVerifiedReturn(deps, deps.provider.parseReturn(query));
}

/**
 * Applies a payment's status that the provider vouched for: a verified redirect or callback, or
 * the provider's answer to a status query (the expiry asks before it lets an order go). One path
 * for all of them, so an order is paid once whichever comes first.
 */
export async function applyVerifiedReturn(
  deps: PaymentDeps,
  verified: PaymentReturn,
): Promise<ReturnOutcome> {
  const [found] = await deps.db
    .select({ orderId: orderPayments.orderId })
    .from(orderPayments)
    .where(eq(orderPayments.stamp, verified.stamp));
  if (!found) throw new PaymentReturnRefused('No payment attempt has this stamp.');
  return deps.db.transaction(async (tx) => {
    // The order's row first, as placement, startPayment and the expiry lock it: no deadlock.
    const [order] = await tx
      .select()
      .from(orders)
      .where(eq(orders.id, found.orderId))
      .for('update');
    const [attempt] = await tx
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.stamp, verified.stamp))
      .for('update');
    if (!order || !attempt) throw new PaymentReturnRefused('No payment attempt has this stamp.');
    if (
      attempt.provider !== deps.provider.id ||
      (attempt.transactionId !== null && attempt.transactionId !== verified.transactionId) ||
      verified.reference !== String(order.number) ||
      verified.amountCents !== attempt.amountCents
    ) {
      throw new PaymentReturnRefused('The return does not match its payment attempt.');
    }
    return applyReturn(deps, tx, order, attempt, verified);
  });
}

async function applyReturn(
  deps: PaymentDeps,
  tx: Transaction,
  order: OrderRow,
  attempt: AttemptRow,
  verified: PaymentReturn,
): Promise<ReturnOutcome> {
  const outcome = outcomeOf(verified.status);
  const wasOk = attempt.status === 'ok';
  const record = await recordOnAttempt(tx, attempt, verified);
  if (outcome === 'paid') {
    if (wasOk) return { order, effect: 'none' };
    if (order.status === 'pending_payment') {
      const paid = await payOrder(deps, tx, order.id, {
        paymentMethodCode: sql`coalesce(${orders.paymentMethodCode}, ${verified.method ?? null})`,
      });
      if (paid) return { order: paid, effect: 'paid' };
    }
    // Paid by another attempt, cancelled or expired: the money came, the goods were not kept.
    await mailLatePayment(deps, tx, order, attempt.stamp, verified);
    return { order, effect: 'late' };
  }
  if (outcome === 'failed' && record && order.status === 'pending_payment') {
    const cancelled = await cancelOrder(tx, order);
    if (cancelled) return { order: cancelled, effect: 'cancelled' };
  }
  return { order, effect: record ? 'recorded' : 'none' };
}

/**
 * Records the return's status on its attempt as the attempt lifecycle allows (`ok` wins over
 * everything; `fail` and `error` are final but for `ok`), with its transaction and method; an
 * open attempt told its own status again gets the details only. Answers whether anything was
 * recorded (the row is locked: no one else moves it meanwhile).
 */
async function recordOnAttempt(tx: Transaction, attempt: AttemptRow, verified: PaymentReturn) {
  const details = {
    transactionId: verified.transactionId,
    method: verified.method ?? attempt.method,
  };
  if (verified.status === attempt.status) {
    if (!attemptIsOpen(attempt.status)) return false;
    await tx
      .update(orderPayments)
      .set({ ...details, updatedAt: sql`now()` })
      .where(eq(orderPayments.stamp, attempt.stamp));
    return true;
  }
  if (!attemptMayMove(attempt.status, verified.status)) return false;
  return (await moveAttempt(tx, attempt.stamp, attempt.status, verified.status, details)) !== null;
}

/**
 * `pending_payment → cancelled` by `releaseOrder`'s conditional update; only the call that made
 * the change gets the order back, and puts its lines back in the customer's cart.
 */
async function cancelOrder(tx: Transaction, order: OrderRow): Promise<OrderRow | null> {
  if (!(await releaseOrder(tx, order.id, 'cancelled'))) return null;
  const [cancelled] = await tx.select().from(orders).where(eq(orders.id, order.id));
  if (!cancelled) return null;
  await returnLinesToCart(tx, cancelled);
  return cancelled;
}

/**
 * The order's lines back in the customer's cart (or the placing session's), each summed with
 * what the cart has and capped by the stock (given back just before) and the line limit; a
 * product no longer for sale is left out. The cart's checkout hold goes, as with any change.
 */
async function returnLinesToCart(tx: Transaction, order: OrderRow): Promise<void> {
  const owner = order.customerId
    ? eq(carts.customerId, order.customerId)
    : order.sessionId
      ? eq(carts.sessionId, order.sessionId)
      : null;
  if (!owner) return;
  let [cart] = await tx
    .select({ id: carts.id })
    .from(carts)
    .where(and(owner, eq(carts.siteId, order.siteId)))
    .for('update');
  if (!cart && order.customerId) {
    [cart] = await tx
      .insert(carts)
      .values({ customerId: order.customerId, siteId: order.siteId })
      .onConflictDoNothing()
      .returning({ id: carts.id });
  }
  if (!cart) return;
  const lines = await tx
    .select({ code: orderLines.code, quantity: orderLines.quantity })
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.code));
  const forSale = await productsByCode(
    tx,
    order.siteId,
    order.language as Lang,
    lines.map((line) => line.code),
  );
  for (const line of lines) {
    const product = forSale.get(line.code);
    const limit = product ? limitOf(product) : 0;
    if (limit < 1) continue;
    await tx
      .insert(cartLineItems)
      .values({ cartId: cart.id, code: line.code, quantity: Math.min(limit, line.quantity) })
      .onConflictDoUpdate({
        target: [cartLineItems.cartId, cartLineItems.code],
        set: {
          quantity: sql`greatest(${cartLineItems.quantity}, least(${limit}, ${cartLineItems.quantity} + excluded.quantity))`,
        },
      });
  }
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cart.id));
}

/**
 * How long after its `expires_at` an order waits for a provider that did not answer the status
 * query (decision 122): the query is made again on each run until then; afterwards the order
 * expires anyway, and a payment the provider reports later takes the "paid too late" path.
 */
export const EXPIRY_STATUS_RETRY_MS = 10 * 60_000;

/**
 * Asks the provider for the status of the order's open attempts that reached it (newest first)
 * and applies a paid one through `applyVerifiedReturn`, the callback's path. Answers `paid` when
 * the order is paid now, `unanswered` when the provider did not answer, `unpaid` otherwise.
 */
async function askProvider(
  deps: PaymentDeps,
  orderId: string,
): Promise<'paid' | 'unpaid' | 'unanswered'> {
  const open = await deps.db
    .select()
    .from(orderPayments)
    .where(
      and(
        eq(orderPayments.orderId, orderId),
        eq(orderPayments.provider, deps.provider.id),
        inArray(orderPayments.status, [...OPEN_ATTEMPT_STATUSES]),
        isNotNull(orderPayments.transactionId),
      ),
    )
    .orderBy(desc(orderPayments.createdAt));
  let unanswered = false;
  for (const attempt of open) {
    let verified: PaymentReturn;
    try {
      verified = await deps.provider.status({
        stamp: attempt.stamp,
        transactionId: attempt.transactionId ?? '',
      });
    } catch (error) {
      if (error instanceof PaymentProviderRefused) continue;
      if (error instanceof PaymentProviderFailed) {
        unanswered = true;
        continue;
      }
      throw error;
    }
    if (outcomeOf(verified.status) !== 'paid' || verified.stamp !== attempt.stamp) continue;
    try {
      const { effect, order } = await applyVerifiedReturn(deps, verified);
      if (effect === 'paid' || order.status === 'paid') return 'paid';
    } catch (error) {
      // An answer that does not match its attempt (amount, reference) pays nothing.
      if (!(error instanceof PaymentReturnRefused)) throw error;
    }
  }
  return unanswered ? 'unanswered' : 'unpaid';
}

/**
 * Lets unpaid orders past `expires_at` go, each in its own transaction through `releaseOrder`'s
 * conditional update: only the call that made the change gives back what the order took. Before
 * that, the provider is asked for the status of the order's open attempt (decision 122): a
 * payment it reports paid pays the order instead, as its callback would have; a provider that does
 * not answer is asked again on the next run, for `EXPIRY_STATUS_RETRY_MS`. Answers how many
 * expired.
 */
export async function expireUnpaidOrders(deps: PaymentDeps, now = new Date()): Promise<number> {
  const { db } = deps;
  const due = await db
    .select({ id: orders.id, expiresAt: orders.expiresAt })
    .from(orders)
    .where(and(eq(orders.status, 'pending_payment'), lt(orders.expiresAt, now)))
    .orderBy(asc(orders.expiresAt))
    .limit(200);
  let expired = 0;
  for (const { id, expiresAt } of due) {
    const asked = await askProvider(deps, id);
    if (asked === 'paid') continue;
    const waited = now.getTime() - (expiresAt?.getTime() ?? 0);
    if (asked === 'unanswered' && waited < EXPIRY_STATUS_RETRY_MS) continue;
    const done = await db.transaction(async (tx) => {
      // Locked and checked again: a payment may have come since the list was read.
      const [row] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(eq(orders.id, id), eq(orders.status, 'pending_payment'), lt(orders.expiresAt, now)),
        )
        .for('update');
      return row ? releaseOrder(tx, id, 'expired') : false;
    });
    if (done) expired += 1;
  }
  return expired;
}

/** A payment for an order that no longer waited for it: the shop handles it by hand. */
async function mailLatePayment(
  deps: PaymentDeps,
  tx: Transaction,
  order: OrderRow,
  stamp: string,
  verified: PaymentReturn,
): Promise<void> {
  const fi = serverT('fi');
  await enqueueMail(tx, deps.mailKey, {
    to: deps.shopEmail,
    about: order.email,
    subject: fi('shop.order.lateMail.subject', { number: String(order.number) }),
    text: fi('shop.order.lateMail.body', {
      status: fi(STATUS_TEXT[order.status]),
      stamp,
      transactionId: verified.transactionId,
      amount: euro(verified.amountCents),
      method: verified.method ?? '-',
      email: order.email,
    }),
  });
}

/** Orders of a customer for 'Oma tili', newest first. */
export async function ordersOfCustomer(db: Database, customerId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.customerId, customerId))
    .orderBy(desc(orders.createdAt))
    .limit(100);
}
