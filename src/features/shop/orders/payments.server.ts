import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import { BUSY_RETRY_SECONDS, Unavailable } from '../../../server/errors.ts';
import { WaitingGate } from '../../../server/waiting-gate.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import type { Lang } from '../../../sites/types.ts';
import { paymentItemsOf } from '../payment/items.ts';
import { type PaymentProvider, PaymentProviderFailed } from '../payment/provider.ts';
import { paymentProvider } from '../payment/providers.server.ts';
import { allocate, type PricedCart, type PricingLine } from '../pricing.ts';
import { orderLines, orderPayments, orders } from '../tables.ts';
import { ATTEMPT_INITIAL_STATUS, moveAttempt, OPEN_ATTEMPT_STATUSES } from './lifecycle.server.ts';

/**
 * Payment of placed orders (decision 028): opening a payment attempt at the configured provider
 * (decision 024). Each attempt has its own stamp, stored in `order_payments` before the provider
 * is called, so a crash leaves a trace; an order has at most one open attempt, and a second start
 * sends the shopper to that attempt's page instead of opening another payment that could also be
 * paid.
 */

export type OrderRow = typeof orders.$inferSelect;
type Writer = Database | Transaction;

/** Where the provider sends the shopper back (both outcomes) and calls the shop. */
export const PAYMENT_RETURN_PATH = '/kassa/maksu/paluu';
export const PAYMENT_CALLBACK_PATH = '/api/v1/lihakauppa/payment/callback';
export const CONFIRMATION_PATH = '/kassa/vahvistus';

/** An attempt that did not get the provider's answer in this long was lost (a crash, a timeout). */
const ATTEMPT_OPENING_MS = 30_000;
const WAIT_STEP_MS = 100;

export interface PaymentDeps {
  db: Database;
  provider: PaymentProvider;
  /** The shop's home page on its canonical host: return, callback and confirmation URLs. */
  shopUrl: string;
  /** The outbox's key (`config.forms.encryptionKey`). */
  mailKey: Buffer;
  /** The shop's address for order notifications (`config.payment.shopOrderEmail`). */
  shopEmail: string;
  /** Checkouts placed at once in this process (`checkOut`); none: no limit. */
  placements?: WaitingGate;
  /** Keys the mailbox and address a per-customer coupon is counted under (decision 082). */
  limitKeySecret: string;
  now?: () => Date;
}

/**
 * How long a checkout waits for its turn to be placed before it is answered 503 (decision 081):
 * less than the pool's own wait, so the answer is the gate's, not a connection's timeout.
 */
export const PLACEMENT_WAIT_MS = 10_000;

const placementGates = new WeakMap<object, WaitingGate>();

/**
 * The process's gate in front of placing orders: as many at once as the database pool has
 * connections less two, which stay for the other requests (pages, carts) during a burst.
 */
function placementGate(app: Pick<FastifyInstance, 'config'>): WaitingGate {
  let gate = placementGates.get(app);
  if (!gate) {
    gate = new WaitingGate(
      Math.max(1, app.config.databasePoolSize - 2),
      PLACEMENT_WAIT_MS,
      () => new Unavailable('Too many orders at once. Try again shortly.', BUSY_RETRY_SECONDS),
    );
    placementGates.set(app, gate);
  }
  return gate;
}

/** The payment dependencies of the app, for the shop at `shopUrl` (the configured provider). */
export function appPaymentDeps(
  app: Pick<FastifyInstance, 'config' | 'db'>,
  shopUrl: string,
  provider: PaymentProvider = paymentProvider(app),
): PaymentDeps {
  return {
    db: app.db,
    provider,
    shopUrl,
    mailKey: app.config.forms.encryptionKey,
    shopEmail: app.config.payment.shopOrderEmail,
    placements: placementGate(app),
    limitKeySecret: app.config.sessionSecret,
  };
}

/**
 * The payment dependencies of a background job on `db` (the job's connection): no request names
 * the shop's host, so the shop's first configured host (over HTTPS) is its address, or
 * `lihakauppa.localhost` when none is configured (the embedded set-up).
 */
export function jobPaymentDeps(
  app: Pick<FastifyInstance, 'config' | 'db'>,
  db: Database,
  provider?: PaymentProvider,
): PaymentDeps {
  const host = app.config.siteHosts[SHOP_SITE_ID]?.[0];
  const shopUrl = host ? `https://${host}/` : `http://${SHOP_SITE_ID}.localhost/`;
  return { ...appPaymentDeps(app, shopUrl, provider), db };
}

/** The payment dependencies of a request to the shop. */
export function paymentDeps(request: FastifyRequest): PaymentDeps {
  return appPaymentDeps(request.server, siteHomeUrl(request, SHOP_SITE_ID));
}

/** The confirmation page of an order, absolute on the shop's canonical host. */
export function confirmationUrl(shopUrl: string, orderId: string): string {
  const url = new URL(CONFIRMATION_PATH, shopUrl);
  url.searchParams.set('tilaus', orderId);
  return url.href;
}

type OrderLineRow = typeof orderLines.$inferSelect;

/** An order line with what it charges after its group coupons and its share of the order's. */
export type ChargedLine = OrderLineRow & { chargedCents: number };

/**
 * The order's lines (in code order) with what each charges: the stored `charged_cents` written at
 * placement (decision 122). An order placed before migration 0025 has none; its lines' shares of
 * the order-wide coupons are derived again from the order's totals, split over the goods by the
 * largest remainder as the pricing splits them (decision 019).
 */
export async function chargedLinesOf(db: Writer, order: OrderRow): Promise<ChargedLine[]> {
  const lines = await db
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(asc(orderLines.code));
  if (lines.every((line) => line.chargedCents !== null)) return lines as ChargedLine[];
  const goodsCents = lines.reduce((sum, line) => sum + line.linePriceCents, 0);
  const orderDiscount =
    goodsCents + order.shippingCents - order.usedGiftCardCents - order.totalCents;
  if (orderDiscount < 0) throw new Error(`Order ${order.number}: the lines do not add up.`);
  const goods = lines.map((line, i) => (line.isGiftCard ? -1 : i)).filter((i) => i >= 0);
  const shares = new Array<number>(lines.length).fill(0);
  allocate(
    orderDiscount,
    goods.map((i) => lines[i]?.linePriceCents ?? 0),
  ).forEach((part, k) => {
    shares[goods[k] as number] = part;
  });
  return lines.map((line, i) => ({
    ...line,
    chargedCents: line.linePriceCents - (shares[i] ?? 0),
  }));
}

/**
 * What the order charges as a payment's items (`paymentItemsOf`): each line at what it charges
 * (`chargedLinesOf`), at its own VAT rate; shipping; a gift card redeemed as payment as a negative
 * item. The amount must equal the order's `total_cents`.
 */
export async function paymentOfOrder(
  db: Writer,
  order: OrderRow,
): Promise<ReturnType<typeof paymentItemsOf>> {
  const lines = await chargedLinesOf(db, order);
  const pricing: PricingLine[] = lines.map((line) => ({
    code: line.code,
    productGroup: null,
    unitCents: line.unitPriceCents,
    quantity: line.quantity,
    vatBasisPoints: line.isGiftCard ? 0 : line.vatBasisPoints,
    isGiftCard: line.isGiftCard,
  }));
  const goodsCents = lines.reduce((sum, line) => sum + line.linePriceCents, 0);
  const chargedCents = lines.reduce((sum, line) => sum + line.chargedCents, 0);
  const priced: PricedCart = {
    lines: lines.map((line) => ({
      code: line.code,
      grossCents: line.linePriceWithoutDiscountsCents,
      lineCents: line.linePriceCents,
      orderShareCents: line.linePriceCents - line.chargedCents,
      vatBasisPoints: line.isGiftCard ? 0 : line.vatBasisPoints,
    })),
    subTotalCents: goodsCents,
    orderDiscountCents: goodsCents - chargedCents,
    shippingCents: order.shippingCents,
    totalCents: chargedCents + order.shippingCents,
    vat: [],
    vatTotalCents: order.vatCents,
    appliedCoupons: order.couponCodes,
    belowMinimum: [],
  };
  // Shipping is charged at the highest rate of the order's goods (the standard rate's share).
  const shippingVat = Math.max(
    0,
    ...lines.map((line) => (line.isGiftCard ? 0 : line.vatBasisPoints)),
  );
  const payment = paymentItemsOf(pricing, priced, {
    descriptions: Object.fromEntries(lines.map((line) => [line.code, line.name])),
    shippingVatBasisPoints: shippingVat,
    giftCardCents: order.usedGiftCardCents,
  });
  if (payment.amountCents !== order.totalCents) {
    throw new Error(`Order ${order.number}: the payment's items do not add up to its total.`);
  }
  return payment;
}

type Claim =
  | { kind: 'settled' }
  | { kind: 'open'; href: string }
  | { kind: 'wait' }
  | { kind: 'new'; stamp: string; order: OrderRow };

/**
 * In one short transaction on the locked order row: the order's open attempt if it has one, or a
 * new attempt row (stamp, amount, status `new`) committed before the provider is called. An
 * attempt still waiting for its provider's answer makes the caller wait; one that waited too long
 * was lost and is marked `error` (its page never reached a shopper, so it cannot be paid).
 */
async function claimAttempt(
  deps: PaymentDeps,
  orderId: string,
  paymentMethodCode: string,
  amountCents: number,
): Promise<Claim> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (order?.status !== 'pending_payment') return { kind: 'settled' };
    const open = await tx
      .select()
      .from(orderPayments)
      .where(
        and(
          eq(orderPayments.orderId, orderId),
          inArray(orderPayments.status, [...OPEN_ATTEMPT_STATUSES]),
        ),
      )
      .orderBy(desc(orderPayments.createdAt));
    for (const attempt of open) {
      if (attempt.href && attempt.provider === deps.provider.id) {
        return { kind: 'open', href: attempt.href };
      }
      if (!attempt.href && now.getTime() - attempt.createdAt.getTime() < ATTEMPT_OPENING_MS) {
        return { kind: 'wait' };
      }
    }
    // Lost attempts, or ones of a provider no longer configured: no shopper can pay them.
    for (const attempt of open) await moveAttempt(tx, attempt.stamp, attempt.status, 'error');
    const stamp = randomUUID();
    await tx.insert(orderPayments).values({
      stamp,
      orderId,
      provider: deps.provider.id,
      amountCents,
      status: ATTEMPT_INITIAL_STATUS,
    });
    if (order.paymentMethodCode === null && paymentMethodCode) {
      await tx
        .update(orders)
        .set({ paymentMethodCode, updatedAt: sql`now()` })
        .where(eq(orders.id, orderId));
    }
    return { kind: 'new', stamp, order };
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the payment of an unpaid order and answers where to send the shopper: the provider's
 * payment page, or the confirmation page when nothing is left to pay (a paid, cancelled or
 * expired order; an order of total 0 is placed as paid). Safe to call any number of times, also
 * at once: every call for an order with an open attempt answers that attempt's page.
 */
export async function startPayment(
  deps: PaymentDeps,
  order: OrderRow,
  paymentMethodCode: string,
): Promise<{ next: string }> {
  const confirmation = confirmationUrl(deps.shopUrl, order.id);
  if (order.status !== 'pending_payment' || order.totalCents === 0) return { next: confirmation };
  const payment = await paymentOfOrder(deps.db, order);
  const deadline = Date.now() + ATTEMPT_OPENING_MS + 5_000;
  for (;;) {
    const claim = await claimAttempt(deps, order.id, paymentMethodCode, payment.amountCents);
    if (claim.kind === 'settled') return { next: confirmation };
    if (claim.kind === 'open') return { next: claim.href };
    if (claim.kind === 'wait') {
      if (Date.now() > deadline) {
        throw new PaymentProviderFailed('The payment of this order is still being opened.');
      }
      await sleep(WAIT_STEP_MS);
      continue;
    }
    const returnUrl = new URL(PAYMENT_RETURN_PATH, deps.shopUrl).href;
    const callbackUrl = new URL(PAYMENT_CALLBACK_PATH, deps.shopUrl).href;
    try {
      const created = await deps.provider.start({
        stamp: claim.stamp,
        reference: String(claim.order.number),
        amountCents: payment.amountCents,
        currency: 'EUR',
        language: claim.order.language as Lang,
        items: payment.items,
        customer: { email: claim.order.email },
        redirectUrls: { success: returnUrl, cancel: returnUrl },
        callbackUrls: { success: callbackUrl, cancel: callbackUrl },
      });
      await deps.db
        .update(orderPayments)
        .set({
          transactionId: created.transactionId,
          href: created.href,
          updatedAt: sql`now()`,
        })
        .where(eq(orderPayments.stamp, claim.stamp));
      return { next: created.href };
    } catch (error) {
      // Refused or unanswered: the attempt never reached a shopper; the next start opens another.
      await moveAttempt(deps.db, claim.stamp, 'new', 'error');
      throw error;
    }
  }
}
