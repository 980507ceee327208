import { and, eq, sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../../db/client.ts';
import type { Lang } from '../../../sites/types.ts';
import {
  type CouponRow,
  couponIsValid,
  couponsOfCart,
  giftCardParts,
  giftCardsOfCart,
  pricingCouponOf,
  pricingLinesOf,
  vatRatesOn,
} from '../cart-pricing.server.ts';
import { cartContents } from '../cart-products.server.ts';
import { type CartKey, existingCartId } from '../cart-rows.server.ts';
import { addressKey, mailboxKey } from '../customer/limit-keys.server.ts';
import { helsinkiDate } from '../dates.ts';
import { areaOfPostalCode } from '../delivery.server.ts';
import { type PricedCart, priceCart } from '../pricing.ts';
import { moneyString } from '../schemas.ts';
import {
  type CustomerAddress,
  cartCoupons,
  cartGiftCards,
  cartLineItems,
  checkoutHolds,
  customers,
  orderCoupons,
  orderGiftCards,
  orderLines,
  orders,
} from '../tables.ts';
import {
  deliveryOf,
  emptyCartProblem,
  goodsInCodeOrder,
  type HeldDelivery,
  type HoldRow,
  holdGone,
  lockCart,
  unavailable,
} from './holds.server.ts';
import { type Takings, takeAll, takingsOf } from './ledger.server.ts';
import { ORDER_INITIAL_STATUS } from './lifecycle.server.ts';
import { type OrderMailDeps, payOrder } from './paid.server.ts';

/**
 * Placing an order from a checkout hold (decision 027), in one transaction that takes everything
 * or nothing: the hold (the cart's, unexpired) becomes an order with its lines, charging exactly
 * what the shopper confirmed (decision 080); the hold is deleted and the cart emptied; last, the
 * limited counters are taken by conditional updates in the lock order of holds.server.ts (the
 * products' stock, the gift cards' balance, the slot, the date stock, the coupons' uses: the
 * ledger's list, decision 121), so the rows many orders share are locked only for the end of the
 * transaction (decision 081). The
 * hold's id is the order's `checkout_id` (unique), so a second submit of the same checkout waits
 * on the cart's lock and answers the order the first one placed.
 */

/** How long an unpaid order keeps what it took before it expires. */
export const ORDER_PAYMENT_MINUTES = 30;

export type OrderRow = typeof orders.$inferSelect;

export interface PlaceOrder {
  siteId: string;
  lang: Lang;
  /** The session whose cart holds the checkout. */
  sessionId: string;
  customerId: string;
  checkoutId: string;
  paymentMethodCode: string;
  /** What the checkout showed the shopper when they confirmed: the order charges exactly this. */
  confirmed: ConfirmedTotals;
  now?: Date;
}

/**
 * The totals a checkout showed at confirmation, in cents: the cart's total and what its gift
 * cards pay of it (so `totalCents - usedGiftCardCents` is what is left to pay).
 */
export interface ConfirmedTotals {
  totalCents: number;
  usedGiftCardCents: number;
}

/**
 * The invariant of placement (decision 080): an order charges the total the shopper confirmed,
 * and takes from gift cards what the checkout said they pay, or it is not placed. Whatever
 * changed since the checkout was shown (a coupon used up or expired, a gift card spent by another
 * order, a price, a VAT rate, a delivery fee) shows here as a difference and refuses the order
 * with 409 naming what differs: `giftCards` when the cards pay another amount, `total` when the
 * total moved. Nothing is taken before this check, and what is taken afterwards is exactly the
 * amounts checked here.
 */
export function chargesAsConfirmed(computed: ConfirmedTotals, confirmed: ConfirmedTotals): void {
  const errors: Record<string, string> = {};
  const changes: string[] = [];
  if (computed.usedGiftCardCents !== confirmed.usedGiftCardCents) {
    errors.giftCards = 'shop.checkout.giftCardChanged';
    changes.push(
      `gift cards pay ${moneyString(computed.usedGiftCardCents)} now, not ${moneyString(confirmed.usedGiftCardCents)}`,
    );
  }
  if (computed.totalCents !== confirmed.totalCents) {
    errors.total = 'shop.checkout.totalChanged';
    changes.push(
      `the total is ${moneyString(computed.totalCents)} now, not ${moneyString(confirmed.totalCents)}`,
    );
  }
  if (changes.length > 0) {
    throw unavailable(
      errors,
      `The checkout changed since it was confirmed: ${changes.join('; ')}. Confirm the order again.`,
    );
  }
}

/**
 * Test-only pauses inside the placement transaction, null in the application: `afterTaking`
 * after the stock is taken and before the commit (the crash test kills the process there);
 * `whileWriting` once the order's own rows are written (the burst test makes the transaction as
 * slow as it is on a loaded server there).
 */
export const placementHooks: {
  afterTaking: (() => Promise<void>) | null;
  whileWriting: (() => Promise<void>) | null;
} = {
  afterTaking: null,
  whileWriting: null,
};

/** An order of this checkout placed by this customer, if any. */
async function orderOfCheckout(
  db: Database | Transaction,
  checkoutId: string,
  customerId: string,
): Promise<OrderRow | null> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.checkoutId, checkoutId), eq(orders.customerId, customerId)));
  return row ?? null;
}

const isUniqueViolation = (err: unknown): boolean => {
  const seen = new Set<unknown>();
  let cur: unknown = err;
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    if ((cur as { code?: unknown }).code === '23505') return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
};

/** What placement needs besides its input: the database, the order mails, the limit keys' secret. */
export type PlacementDeps = OrderMailDeps & {
  db: Database;
  /** Keys the mailbox and address a per-customer coupon is counted under (decision 082). */
  limitKeySecret: string;
};

/**
 * Places the order of a checkout, or answers the one already placed from it (`created` false).
 * Refusals are 409 problems naming what ran out: `checkoutId` (no live hold of this cart),
 * `cart` (empty), `time` (the slot), a line's code (stock), `couponCodes`, `giftCards`,
 * `deliveryAddress`.
 */

export async function placeOrder(
  deps: PlacementDeps,
  input: PlaceOrder,
): Promise<{ order: OrderRow; created: boolean }> {
  const { db } = deps;
  const placed = await orderOfCheckout(db, input.checkoutId, input.customerId);
  if (placed) return { order: placed, created: false };
  const key: CartKey = { sessionId: input.sessionId, siteId: input.siteId };
  const cartId = await existingCartId(db, key);
  if (!cartId) throw holdGone();
  try {
    return await db.transaction((tx) => placeInTransaction(deps, tx, input, key, cartId));
  } catch (err) {
    // Only another placement of this checkout can take its number: answer that order.
    if (isUniqueViolation(err)) {
      const order = await orderOfCheckout(db, input.checkoutId, input.customerId);
      if (order) return { order, created: false };
    }
    throw err;
  }
}

/** The customer row placement reads the contact and addresses from. */
type CustomerRow = typeof customers.$inferSelect;
type CartLine = Awaited<ReturnType<typeof cartContents>>[number];

/** Who buys and where it goes: the customer, the addresses, the held delivery time. */
interface Buyer {
  customer: CustomerRow;
  delivery: CustomerAddress;
  billing: CustomerAddress;
  /** Null for a cart of gift cards only, which are mailed. */
  held: HeldDelivery | null;
}

/** What the order charges, priced as the cart answer prices it (decision 019). */
interface Charge {
  priced: PricedCart;
  /** The coupons that gave a discount. */
  applied: CouponRow[];
  /** The mailbox and address keys a coupon limited per customer is counted under (decision 082). */
  limitKeys: string[];
  /** What each gift card pays, the cart answer's way (id order). */
  giftUses: { giftCardId: number; amountCents: number }[];
  usedGiftCardCents: number;
  /** What is left to pay after gift cards. */
  toPay: number;
}

async function placeInTransaction(
  deps: PlacementDeps,
  tx: Transaction,
  input: PlaceOrder,
  key: CartKey,
  cartId: string,
): Promise<{ order: OrderRow; created: boolean }> {
  const now = input.now ?? new Date();
  // The cart's lock first: a concurrent submit of this checkout waits here, then finds the order.
  if (!(await lockCart(tx, cartId))) throw holdGone();
  const hold = await liveHold(tx, input, cartId);
  if ('placed' in hold) return { order: hold.placed, created: false };
  const contents = await cartContents(tx, key, cartId, input.lang);
  if (contents.length === 0) throw emptyCartProblem();
  const buyer = await buyerOf(tx, input.customerId, hold.row, contents);
  const charge = await chargeOf(deps, tx, cartId, contents, buyer.customer, buyer.delivery, now);
  const { priced, usedGiftCardCents } = charge;
  chargesAsConfirmed({ totalCents: priced.totalCents, usedGiftCardCents }, input.confirmed);

  const written = await writeOrder(tx, input, hold.row, buyer, charge, contents);
  await placementHooks.whileWriting?.();
  // Nothing to pay (coupons or gift cards paid it all): paid now, with what paying brings.
  const order = charge.toPay === 0 ? await payOrder(deps, tx, written.order.id) : written.order;
  if (!order) throw new Error(`order ${written.order.number} could not be paid as it was placed`);
  // The hold became the sale; the cart starts again empty.
  await emptyCart(tx, hold.row.id, cartId);
  // The limited counters last (decision 081), each by one conditional update that locks its row
  // until the commit, in the lock order: other placements of the same product, card, slot or
  // coupon wait only for what follows here, not for the whole order.
  await takeAll(tx, written.takings, now);
  await placementHooks.afterTaking?.();
  return { order, created: true };
}

/**
 * The cart's hold of this checkout, locked and live; or the order a concurrent submit of the same
 * checkout placed while this one waited for the cart (its hold is gone with it).
 */
async function liveHold(
  tx: Transaction,
  input: PlaceOrder,
  cartId: string,
): Promise<{ row: HoldRow } | { placed: OrderRow }> {
  const [hold] = await tx
    .select({
      row: checkoutHolds,
      live: sql<boolean>`${checkoutHolds.expiresAt} > now()`,
    })
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.id, input.checkoutId), eq(checkoutHolds.cartId, cartId)))
    .for('update');
  if (!hold) {
    const order = await orderOfCheckout(tx, input.checkoutId, input.customerId);
    if (order) return { placed: order };
    throw holdGone();
  }
  if (!hold.live) throw holdGone();
  return { row: hold.row };
}

/**
 * The customer and where the order goes: the customer's delivery address, in the area of the
 * held delivery time. Refused with 409 naming `deliveryAddress` (or `checkoutId` for goods
 * without a held time).
 */
async function buyerOf(
  tx: Transaction,
  customerId: string,
  hold: HoldRow,
  contents: CartLine[],
): Promise<Buyer> {
  const [customer] = await tx.select().from(customers).where(eq(customers.id, customerId));
  const delivery = customer?.deliveryAddress;
  if (!customer || !delivery || delivery.streetAddress.trim() === '') {
    throw unavailable(
      { deliveryAddress: 'shop.checkout.addressMissing' },
      'The customer has no delivery address.',
    );
  }
  // A hold without a delivery time is only for gift cards, which are mailed; a cart that got
  // goods since lost that hold (any cart change deletes it), so this is a second line of defence.
  const held = deliveryOf(hold);
  const goodsInCart = contents.some(({ product }) => !product.isGiftCard);
  if (!held && goodsInCart) throw holdGone();
  // The held time is the area's: the goods go to an address in that area.
  const area = held ? await areaOfPostalCode(tx, delivery.postalCode) : null;
  if (held && area?.id !== held.areaId) {
    throw unavailable(
      { deliveryAddress: 'shop.delivery.notAvailable' },
      `The delivery address's postal code ${delivery.postalCode} is not in the area of the delivery time held for ${held.postalCode}.`,
    );
  }
  const billing = hold.useDeliveryAddressForBilling
    ? delivery
    : (customer.billingAddress ?? delivery);
  return { customer, delivery, billing, held };
}

/**
 * Re-prices the cart as the cart answer does (decision 019): a code the shopper saw that has
 * stopped being valid (used up, expired) refuses the order rather than silently charging more,
 * and a coupon once per customer needs a verified address (decision 082); both 409 naming
 * `couponCodes`. Reads only: nothing is locked or taken here.
 */
async function chargeOf(
  deps: PlacementDeps,
  tx: Transaction,
  cartId: string,
  contents: CartLine[],
  customer: CustomerRow,
  delivery: CustomerAddress,
  now: Date,
): Promise<Charge> {
  const rateOf = await vatRatesOn(tx, helsinkiDate(now));
  const entered = await couponsOfCart(tx, cartId);
  const lapsed = entered.find((c) => !couponIsValid(c, now));
  if (lapsed) {
    throw unavailable(
      { couponCodes: 'shop.checkout.couponUsedUp' },
      `The coupon ${lapsed.code} is no longer valid.`,
    );
  }
  const priced = priceCart(pricingLinesOf(contents, rateOf), entered.map(pricingCouponOf));
  const applied = entered.filter((c) => priced.appliedCoupons.includes(c.code));
  // Counted under the customer's mailbox and delivery address as well as the account.
  const perCustomer = applied.find((c) => c.maxUsesPerCustomer !== null);
  if (perCustomer && !customer.emailVerifiedAt) {
    throw unavailable(
      { couponCodes: 'shop.checkout.couponNeedsVerifiedEmail' },
      `The coupon ${perCustomer.code} is limited per customer and the customer's e-mail address is not verified.`,
    );
  }
  const limitKeys = perCustomer
    ? [mailboxKey(deps.limitKeySecret, customer.email), addressKey(deps.limitKeySecret, delivery)]
    : [];
  // What the cart's gift cards pay of it as they are now, the cart answer's way (id order).
  const giftUses = giftCardParts(await giftCardsOfCart(tx, cartId, now), priced.totalCents)
    .filter((card) => card.amountCents > 0)
    .map((card) => ({ giftCardId: card.id, amountCents: card.amountCents }));
  const usedGiftCardCents = giftUses.reduce((sum, use) => sum + use.amountCents, 0);
  const toPay = priced.totalCents - usedGiftCardCents;
  return { priced, applied, limitKeys, giftUses, usedGiftCardCents, toPay };
}

/**
 * Writes the order, its lines, the coupons it used and what its gift cards pay, and answers what
 * the order takes of the limited resources, from the same rows a release reads back.
 */
async function writeOrder(
  tx: Transaction,
  input: PlaceOrder,
  hold: HoldRow,
  buyer: Buyer,
  charge: Charge,
  contents: CartLine[],
): Promise<{ order: OrderRow; takings: Takings }> {
  // Which goods are sold per date (their line says what to give back). A read: nothing is locked.
  const { perDate } = buyer.held
    ? await goodsInCodeOrder(tx, contents)
    : { perDate: new Set<string>() };
  const [order] = await tx
    .insert(orders)
    .values(orderValues(input, hold, buyer, charge))
    .returning();
  if (!order) throw new Error('order insert returned no row');
  const lines = await tx
    .insert(orderLines)
    .values(
      contents.map(({ product, quantity }, i) => {
        const line = charge.priced.lines[i];
        return {
          orderId: order.id,
          code: product.code,
          productId: product.id,
          name: product.name,
          category: product.productGroup ?? '',
          quantity,
          unitPriceCents: product.priceCents ?? 0,
          linePriceWithoutDiscountsCents: line?.grossCents ?? 0,
          linePriceCents: line?.lineCents ?? 0,
          // What the line charges after its share of the order-wide coupons (decision 122).
          chargedCents: (line?.lineCents ?? 0) - (line?.orderShareCents ?? 0),
          vatBasisPoints: line?.vatBasisPoints ?? 0,
          isGiftCard: product.isGiftCard,
          tookDateStock: !product.isGiftCard && perDate.has(product.code),
        };
      }),
    )
    .returning();
  const uses = charge.applied.map((c) => ({
    couponId: c.id,
    code: c.code,
    maxUsesPerCustomer: c.maxUsesPerCustomer,
    customerKey: input.customerId,
    limitKeys: c.maxUsesPerCustomer === null ? [] : charge.limitKeys,
  }));
  if (uses.length > 0) {
    await tx.insert(orderCoupons).values(
      uses.map(({ couponId, customerKey, limitKeys }) => ({
        orderId: order.id,
        couponId,
        customerKey,
        limitKeys,
      })),
    );
  }
  const cards = charge.giftUses.map((use) => ({ orderId: order.id, ...use }));
  if (cards.length > 0) await tx.insert(orderGiftCards).values(cards);
  return { order, takings: takingsOf(order, lines, cards, uses) };
}

/** The order's row: who, where, when, and what it charges. */
function orderValues(
  input: PlaceOrder,
  hold: HoldRow,
  { customer, delivery, billing, held }: Buyer,
  { priced, applied, usedGiftCardCents, toPay }: Charge,
): PgInsertValue<typeof orders> {
  return {
    checkoutId: hold.id,
    siteId: input.siteId,
    language: input.lang,
    customerId: input.customerId,
    sessionId: input.sessionId,
    status: ORDER_INITIAL_STATUS,
    email: customer.email,
    // E.164-like, as the address form stores it: +358 and the number without its leading 0.
    phoneNumber: customer.phoneNumber ? `${customer.phoneCountryCode}${customer.phoneNumber}` : '',
    deliveryAddress: delivery,
    billingAddress: billing,
    additionalInformation: customer.additionalInformation,
    areaId: held?.areaId ?? null,
    postalCode: held?.postalCode ?? null,
    deliveryDate: held?.date ?? null,
    startTime: held?.startTime ?? null,
    endTime: held?.endTime ?? null,
    subTotalCents: priced.subTotalCents,
    discountCents: priced.orderDiscountCents,
    shippingCents: priced.shippingCents,
    vatCents: priced.vatTotalCents,
    usedGiftCardCents,
    totalCents: toPay,
    couponCodes: applied.map((c) => c.code),
    paymentMethodCode: input.paymentMethodCode,
    // An order with nothing to pay is paid before the commit: it never waits for a payment.
    expiresAt: toPay === 0 ? null : sql`now() + make_interval(mins => ${ORDER_PAYMENT_MINUTES})`,
  };
}

/** The hold became the sale: it goes, and the cart starts again empty. */
async function emptyCart(tx: Transaction, holdId: string, cartId: string): Promise<void> {
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.id, holdId));
  await tx.delete(cartLineItems).where(eq(cartLineItems.cartId, cartId));
  await tx.delete(cartCoupons).where(eq(cartCoupons.cartId, cartId));
  await tx.delete(cartGiftCards).where(eq(cartGiftCards.cartId, cartId));
}
