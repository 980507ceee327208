import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import {
  cartCoupons,
  cartGiftCards,
  cartLineItems,
  checkoutHolds,
  couponCustomerUses,
  coupons,
  customers,
  deliverySlotBookings,
  giftCards,
  orderCoupons,
  orderGiftCards,
  orderLines,
  orders,
  productDateStock,
  products,
} from '../../../db/schema.ts';
import type { AppError } from '../../../server/errors.ts';
import type { Lang } from '../../../sites/types.ts';
import {
  type CartKey,
  cartContents,
  couponIsValid,
  couponsOfCart,
  existingCartId,
  giftCardParts,
  giftCardsOfCart,
  pricingCouponOf,
  pricingLinesOf,
  type Transaction,
  vatRatesOn,
} from '../cart.server.ts';
import { helsinkiDate } from '../dates.ts';
import { areaOfPostalCode } from '../delivery.server.ts';
import { priceCart } from '../pricing.ts';
import { moneyString } from '../schemas.ts';
import {
  deliveryOf,
  emptyCartProblem,
  goodsInCodeOrder,
  type HeldDelivery,
  holdGone,
  lockCart,
  lockDateStock,
  lockSlot,
  otherHoldsOfSlot,
  otherHoldsOfStock,
  unavailable,
} from './holds.server.ts';
import { type OrderMailDeps, orderPaid } from './paid.server.ts';

/**
 * Placing an order from a checkout hold (decision 027), in one transaction that takes everything
 * or nothing: the hold (the cart's, unexpired) becomes an order with its lines, the products'
 * stock, the date stock and the slot are sold, the coupons' uses counted and the gift cards'
 * balance taken, all with row locks and conditional updates in the lock order of holds.server.ts;
 * then the hold is deleted and the cart emptied. The hold's id is the order's `checkout_id`
 * (unique), so a second submit of the same checkout waits on the cart's lock and answers the
 * order the first one placed.
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
 * A test-only pause inside the placement transaction, after the stock is taken and before the
 * commit (the crash test kills the process there). Set only by tests; null in the application.
 */
export const placementHooks: { afterTaking: (() => Promise<void>) | null } = {
  afterTaking: null,
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

function soldOut(errors: Record<string, string>, detail: string): AppError {
  return unavailable(errors, detail);
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

/**
 * Places the order of a checkout, or answers the one already placed from it (`created` false).
 * Refusals are 409 problems naming what ran out: `checkoutId` (no live hold of this cart),
 * `cart` (empty), `time` (the slot), a line's code (stock), `couponCodes`, `giftCards`,
 * `deliveryAddress`.
 */
export async function placeOrder(
  deps: OrderMailDeps & { db: Database },
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

async function placeInTransaction(
  deps: OrderMailDeps,
  tx: Transaction,
  input: PlaceOrder,
  key: CartKey,
  cartId: string,
): Promise<{ order: OrderRow; created: boolean }> {
  const now = input.now ?? new Date();
  const asDb = tx as unknown as Database;
  // The cart's lock first: a concurrent submit of this checkout waits here, then finds the order.
  if (!(await lockCart(tx, cartId))) throw holdGone();
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
    if (order) return { order, created: false };
    throw holdGone();
  }
  if (!hold.live) throw holdGone();
  const h = hold.row;

  const contents = await cartContents(asDb, key, cartId, input.lang);
  if (contents.length === 0) throw emptyCartProblem();
  const [customer] = await tx.select().from(customers).where(eq(customers.id, input.customerId));
  const delivery = customer?.deliveryAddress;
  if (!customer || !delivery || delivery.streetAddress.trim() === '') {
    throw unavailable(
      { deliveryAddress: 'shop.checkout.addressMissing' },
      'The customer has no delivery address.',
    );
  }
  // A hold without a delivery time is only for gift cards, which are mailed; a cart that got
  // goods since lost that hold (any cart change deletes it), so this is a second line of defence.
  const held = deliveryOf(h);
  const goodsInCart = contents.some(({ product }) => !product.isGiftCard);
  if (!held && goodsInCart) throw holdGone();
  // The held time is the area's: the goods go to an address in that area.
  if (held && (await areaOfPostalCode(asDb, delivery.postalCode))?.id !== held.areaId) {
    throw unavailable(
      { deliveryAddress: 'shop.delivery.notAvailable' },
      `The delivery address's postal code ${delivery.postalCode} is not in the area of the delivery time held for ${held.postalCode}.`,
    );
  }
  const billing = h.useDeliveryAddressForBilling ? delivery : (customer.billingAddress ?? delivery);

  // Re-price as the cart answer does (decision 019).
  const rateOf = await vatRatesOn(asDb, helsinkiDate(now));
  // A code the shopper saw that has stopped being valid (used up, expired) refuses the order
  // rather than silently charging more; the cart answer says which.
  const entered = await couponsOfCart(asDb, cartId);
  const lapsed = entered.find((c) => !couponIsValid(c, now));
  if (lapsed) {
    throw soldOut(
      { couponCodes: 'shop.checkout.couponUsedUp' },
      `The coupon ${lapsed.code} is no longer valid.`,
    );
  }
  const priced = priceCart(pricingLinesOf(contents, rateOf), entered.map(pricingCouponOf));
  const applied = entered.filter((c) => priced.appliedCoupons.includes(c.code));
  // What the cart's gift cards pay of it as they are now, the cart answer's way (id order).
  const giftUses = giftCardParts(await giftCardsOfCart(tx, cartId, now), priced.totalCents)
    .filter((card) => card.amountCents > 0)
    .map((card) => ({ giftCardId: card.id, amountCents: card.amountCents }));
  const usedGiftCardCents = giftUses.reduce((sum, use) => sum + use.amountCents, 0);
  chargesAsConfirmed({ totalCents: priced.totalCents, usedGiftCardCents }, input.confirmed);
  const toPay = priced.totalCents - usedGiftCardCents;

  // The slot and the per-date stock (none for gift cards only), then overall stock.
  const perDate = held ? await takeDelivery(tx, input.siteId, cartId, held, contents) : new Set();
  const allCodes = contents.map(({ product }) => product.code).sort();
  for (const code of allCodes) {
    const quantity = contents.find((c) => c.product.code === code)?.quantity ?? 0;
    // Every language version of the product carries the stock: all are taken, or none.
    const limited = await tx
      .select({ id: products.id, stock: products.stock })
      .from(products)
      .where(
        and(
          eq(products.siteId, input.siteId),
          eq(products.code, code),
          sql`${products.stock} is not null`,
        ),
      )
      .orderBy(asc(products.id))
      .for('update');
    if (limited.length === 0) continue;
    if (limited.some((row) => (row.stock ?? 0) < quantity)) {
      throw soldOut({ [code]: 'shop.stock.soldOut' }, `Product ${code} is sold out.`);
    }
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} - ${quantity}` })
      .where(
        inArray(
          products.id,
          limited.map((row) => row.id),
        ),
      );
  }

  // Coupons: one use each (conditional on uses left), and the customer's own uses.
  const customerKey = input.customerId;
  for (const coupon of [...applied].sort((a, b) => a.id - b.id)) {
    const taken = await tx
      .update(coupons)
      .set({ usedCount: sql`${coupons.usedCount} + 1` })
      .where(
        and(
          eq(coupons.id, coupon.id),
          eq(coupons.active, true),
          sql`(${coupons.maxUses} is null or ${coupons.usedCount} < ${coupons.maxUses})`,
        ),
      )
      .returning({ id: coupons.id });
    if (taken.length === 0) {
      throw soldOut(
        { couponCodes: 'shop.checkout.couponUsedUp' },
        `The coupon ${coupon.code} has been used up.`,
      );
    }
    const limit = coupon.maxUsesPerCustomer;
    const used = await tx
      .insert(couponCustomerUses)
      .values({ couponId: coupon.id, customerKey, uses: 1 })
      .onConflictDoUpdate({
        target: [couponCustomerUses.couponId, couponCustomerUses.customerKey],
        set: { uses: sql`${couponCustomerUses.uses} + 1` },
        ...(limit === null ? {} : { setWhere: sql`${couponCustomerUses.uses} < ${limit}` }),
      })
      .returning({ uses: couponCustomerUses.uses });
    if (used.length === 0 || (limit !== null && (used[0]?.uses ?? 0) > limit)) {
      throw soldOut(
        { couponCodes: 'shop.checkout.couponUsedUp' },
        `The coupon ${coupon.code} has been used as often as one customer may.`,
      );
    }
  }

  // Gift cards pay what they were confirmed to pay, in id order, each taken by a conditional
  // update under its row lock: a card spent since then refuses the order.
  for (const use of giftUses) {
    const taken = await tx
      .update(giftCards)
      .set({ balanceCents: sql`${giftCards.balanceCents} - ${use.amountCents}` })
      .where(
        and(
          eq(giftCards.id, use.giftCardId),
          sql`${giftCards.balanceCents} >= ${use.amountCents}`,
          sql`(${giftCards.validTo} is null or ${giftCards.validTo} > ${now})`,
        ),
      )
      .returning({ id: giftCards.id });
    if (taken.length === 0) {
      throw soldOut(
        { giftCards: 'shop.checkout.giftCardChanged' },
        'A gift card was spent or expired since the checkout was confirmed.',
      );
    }
  }

  await placementHooks.afterTaking?.();

  const paid = toPay === 0;
  const [order] = await tx
    .insert(orders)
    .values({
      checkoutId: h.id,
      siteId: input.siteId,
      language: input.lang,
      customerId: input.customerId,
      sessionId: input.sessionId,
      status: paid ? 'paid' : 'pending_payment',
      email: customer.email,
      // E.164-like, as the address form stores it: +358 and the number without its leading 0.
      phoneNumber: customer.phoneNumber
        ? `${customer.phoneCountryCode}${customer.phoneNumber}`
        : '',
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
      expiresAt: paid ? null : sql`now() + make_interval(mins => ${ORDER_PAYMENT_MINUTES})`,
      paidAt: paid ? sql`now()` : null,
    })
    .returning();
  if (!order) throw new Error('order insert returned no row');
  await tx.insert(orderLines).values(
    contents.map(({ product, quantity }, i) => {
      const line = priced.lines[i];
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
        vatBasisPoints: line?.vatBasisPoints ?? 0,
        isGiftCard: product.isGiftCard,
        tookDateStock: !product.isGiftCard && perDate.has(product.code),
      };
    }),
  );
  if (applied.length > 0) {
    await tx
      .insert(orderCoupons)
      .values(applied.map((c) => ({ orderId: order.id, couponId: c.id, customerKey })));
  }
  if (giftUses.length > 0) {
    await tx.insert(orderGiftCards).values(giftUses.map((use) => ({ orderId: order.id, ...use })));
  }
  // Nothing to pay (coupons or gift cards paid it all): paid now, with what paying brings.
  if (paid) await orderPaid(deps, tx, order);
  // The hold became the sale; the cart starts again empty.
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.id, h.id));
  await tx.delete(cartLineItems).where(eq(cartLineItems.cartId, cartId));
  await tx.delete(cartCoupons).where(eq(cartCoupons.cartId, cartId));
  await tx.delete(cartGiftCards).where(eq(cartGiftCards.cartId, cartId));
  return { order, created: true };
}

/**
 * Sells the held slot and, line by line in code order, the per-date stock of the cart's goods;
 * 409 naming `time` or the line's code when other carts' holds or sales left too little. Answers
 * the codes whose per-date stock was taken.
 */
async function takeDelivery(
  tx: Transaction,
  siteId: string,
  cartId: string,
  held: HeldDelivery,
  contents: readonly { product: { code: string; isGiftCard: boolean }; quantity: number }[],
): Promise<Set<string>> {
  const slot = { areaId: held.areaId, date: held.date, startTime: held.startTime };
  const booking = await lockSlot(tx, slot);
  if (
    !booking ||
    booking.capacity - booking.sold - (await otherHoldsOfSlot(tx, slot, cartId)) < 1
  ) {
    throw soldOut(
      { time: 'shop.checkout.slotFull' },
      `The delivery time ${held.startTime}-${held.endTime} on ${held.date} is full.`,
    );
  }
  await tx
    .update(deliverySlotBookings)
    .set({ sold: sql`${deliverySlotBookings.sold} + 1` })
    .where(
      and(
        eq(deliverySlotBookings.areaId, slot.areaId),
        eq(deliverySlotBookings.date, slot.date),
        eq(deliverySlotBookings.startTime, slot.startTime),
      ),
    );
  const { goods, perDate } = await goodsInCodeOrder(tx, contents);
  for (const { product, quantity } of goods) {
    if (!perDate.has(product.code)) continue;
    const stock = await lockDateStock(tx, product.code, held.date);
    const others = await otherHoldsOfStock(tx, product.code, held.date, cartId);
    if (stock.capacity - stock.sold - others < quantity) {
      throw soldOut(
        { [product.code]: 'shop.stock.soldOut' },
        `Product ${product.code} is sold out on ${held.date}.`,
      );
    }
    await tx
      .update(productDateStock)
      .set({ sold: sql`${productDateStock.sold} + ${quantity}` })
      .where(
        and(
          eq(productDateStock.siteId, siteId),
          eq(productDateStock.code, product.code),
          eq(productDateStock.date, held.date),
        ),
      );
  }
  return perDate;
}

/**
 * Gives back what an unpaid order took, once: the order moves from `pending_payment` to `to`
 * (cancelled after a failed payment, expired when its time ran out) by a conditional update, and
 * only the call that made that move gives back the slot, the date stock, the products' stock,
 * the coupons' uses and the gift cards' balance, in the lock order of placement. Answers whether
 * this call released it (false: it was paid, or released already). Runs in the caller's
 * transaction, so a payment's status and the release commit together.
 */
export async function releaseOrder(
  tx: Transaction,
  orderId: string,
  to: 'cancelled' | 'expired' = 'expired',
): Promise<boolean> {
  const [order] = await tx
    .update(orders)
    .set({ status: to, updatedAt: sql`now()` })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending_payment')))
    .returning();
  if (!order) return false;
  const date = order.deliveryDate;
  if (order.areaId !== null && date !== null && order.startTime !== null) {
    await tx
      .update(deliverySlotBookings)
      .set({ sold: sql`greatest(${deliverySlotBookings.sold} - 1, 0)` })
      .where(
        and(
          eq(deliverySlotBookings.areaId, order.areaId),
          eq(deliverySlotBookings.date, date),
          eq(deliverySlotBookings.startTime, order.startTime),
        ),
      );
  }
  const lines = (await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId))).sort(
    (a, b) => a.code.localeCompare(b.code),
  );
  for (const line of lines) {
    if (!line.tookDateStock || date === null) continue;
    await tx
      .update(productDateStock)
      .set({ sold: sql`greatest(${productDateStock.sold} - ${line.quantity}, 0)` })
      .where(
        and(
          eq(productDateStock.siteId, order.siteId),
          eq(productDateStock.code, line.code),
          eq(productDateStock.date, date),
        ),
      );
  }
  for (const line of lines) {
    await tx
      .update(products)
      .set({ stock: sql`${products.stock} + ${line.quantity}` })
      .where(
        and(
          eq(products.siteId, order.siteId),
          eq(products.code, line.code),
          sql`${products.stock} is not null`,
        ),
      );
  }
  const used = await tx
    .select()
    .from(orderCoupons)
    .where(eq(orderCoupons.orderId, orderId))
    .orderBy(asc(orderCoupons.couponId));
  for (const use of used) {
    await tx
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
      .where(eq(coupons.id, use.couponId));
    await tx
      .update(couponCustomerUses)
      .set({ uses: sql`greatest(${couponCustomerUses.uses} - 1, 0)` })
      .where(
        and(
          eq(couponCustomerUses.couponId, use.couponId),
          eq(couponCustomerUses.customerKey, use.customerKey),
        ),
      );
  }
  const cards = await tx
    .select()
    .from(orderGiftCards)
    .where(eq(orderGiftCards.orderId, orderId))
    .orderBy(asc(orderGiftCards.giftCardId));
  for (const card of cards) {
    await tx
      .update(giftCards)
      .set({
        balanceCents: sql`least(${giftCards.initialCents}, ${giftCards.balanceCents} + ${card.amountCents})`,
      })
      .where(eq(giftCards.id, card.giftCardId));
  }
  return true;
}
