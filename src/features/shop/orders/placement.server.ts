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
  type CouponRow,
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
import { addressKey, mailboxKey } from '../customer/limit-keys.server.ts';
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
  unavailable,
} from './holds.server.ts';
import { type OrderMailDeps, orderPaid } from './paid.server.ts';

/**
 * Placing an order from a checkout hold (decision 027), in one transaction that takes everything
 * or nothing: the hold (the cart's, unexpired) becomes an order with its lines, charging exactly
 * what the shopper confirmed (decision 080); the hold is deleted and the cart emptied; last, the
 * limited counters are taken by conditional updates in the lock order of holds.server.ts (the
 * products' stock, the gift cards' balance, the slot, the date stock, the coupons' uses), so the
 * rows many orders share are locked only for the end of the transaction (decision 081). The
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
/** What placement needs besides its input: the database, the order mails, the limit keys' secret. */
export type PlacementDeps = OrderMailDeps & {
  db: Database;
  /** Keys the mailbox and address a per-customer coupon is counted under (decision 082). */
  limitKeySecret: string;
};

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

async function placeInTransaction(
  deps: PlacementDeps,
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
  // A coupon once per customer counts for a verified address only, and is counted under the
  // customer's mailbox and delivery address as well as the account (decision 082).
  const perCustomer = applied.find((c) => c.maxUsesPerCustomer !== null);
  if (perCustomer && !customer.emailVerifiedAt) {
    throw soldOut(
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
  chargesAsConfirmed({ totalCents: priced.totalCents, usedGiftCardCents }, input.confirmed);
  const toPay = priced.totalCents - usedGiftCardCents;

  // Which goods are sold per date (their line says what to give back). Reads only: nothing is
  // locked or taken until the order's own rows are written.
  const { perDate } = held ? await goodsInCodeOrder(tx, contents) : { perDate: new Set<string>() };
  const stocked = await stockedRowsOf(tx, input.siteId, contents);
  const customerKey = input.customerId;

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
    await tx.insert(orderCoupons).values(
      applied.map((c) => ({
        orderId: order.id,
        couponId: c.id,
        customerKey,
        limitKeys: c.maxUsesPerCustomer === null ? [] : limitKeys,
      })),
    );
  }
  if (giftUses.length > 0) {
    await tx.insert(orderGiftCards).values(giftUses.map((use) => ({ orderId: order.id, ...use })));
  }
  await placementHooks.whileWriting?.();
  // Nothing to pay (coupons or gift cards paid it all): paid now, with what paying brings.
  if (paid) await orderPaid(deps, tx, order);
  // The hold became the sale; the cart starts again empty.
  await tx.delete(checkoutHolds).where(eq(checkoutHolds.id, h.id));
  await tx.delete(cartLineItems).where(eq(cartLineItems.cartId, cartId));
  await tx.delete(cartCoupons).where(eq(cartCoupons.cartId, cartId));
  await tx.delete(cartGiftCards).where(eq(cartGiftCards.cartId, cartId));

  // The limited counters last (decision 081), each by one conditional update that locks its row
  // until the commit, in the lock order of holds.server.ts: other placements of the same product,
  // card, slot or coupon wait only for what follows here, not for the whole order. The coupons,
  // the rows every shopper of a campaign shares, come last of all.
  await takeStock(tx, stocked);
  await takeGiftCards(tx, giftUses, now);
  if (held) await takeDelivery(tx, input.siteId, held, contents, perDate);
  await takeCoupons(tx, applied, customerKey, limitKeys);
  await placementHooks.afterTaking?.();
  return { order, created: true };
}

/** A product with an overall stock: its rows (every language version) and the quantity taken. */
interface StockedProduct {
  code: string;
  quantity: number;
  /** The ids of the code's rows that carry a stock, ascending: every one is taken, or none. */
  ids: number[];
}

/** The cart's products that have an overall stock, in code order. A read: nothing is locked. */
async function stockedRowsOf(
  tx: Transaction,
  siteId: string,
  contents: readonly { product: { code: string }; quantity: number }[],
): Promise<StockedProduct[]> {
  const codes = [...new Set(contents.map(({ product }) => product.code))].sort();
  if (codes.length === 0) return [];
  const rows = await tx
    .select({ id: products.id, code: products.code })
    .from(products)
    .where(
      and(
        eq(products.siteId, siteId),
        inArray(products.code, codes),
        sql`${products.stock} is not null`,
      ),
    )
    .orderBy(asc(products.id));
  return codes.flatMap((code) => {
    const ids = rows.filter((row) => row.code === code).map((row) => row.id);
    const quantity = contents.find((c) => c.product.code === code)?.quantity ?? 0;
    return ids.length > 0 ? [{ code, quantity, ids }] : [];
  });
}

/**
 * Takes the overall stock, code by code and row by row in id order: one conditional update a row
 * (`stock >= quantity`, checked again on the row's latest version under its lock); a row short of
 * stock refuses the order (409 naming the code; the rollback undoes the rows taken).
 */
async function takeStock(tx: Transaction, stocked: readonly StockedProduct[]): Promise<void> {
  for (const { code, quantity, ids } of stocked) {
    for (const id of ids) {
      const taken = await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${quantity}` })
        .where(and(eq(products.id, id), sql`${products.stock} >= ${quantity}`))
        .returning({ id: products.id });
      if (taken.length === 0) {
        throw soldOut({ [code]: 'shop.stock.soldOut' }, `Product ${code} is sold out.`);
      }
    }
  }
}

/**
 * Takes from each gift card, in id order, exactly what the confirmed checkout said it pays, by a
 * conditional update under the card's row lock: a card spent or expired since the check refuses
 * the order (409 naming `giftCards`).
 */
async function takeGiftCards(
  tx: Transaction,
  uses: readonly { giftCardId: number; amountCents: number }[],
  now: Date,
): Promise<void> {
  for (const use of uses) {
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
}

/**
 * Counts one use of each applied coupon, in id order: first the customer's own uses, under the
 * account and, for a coupon limited per customer, also under its mailbox and delivery address
 * (`limitKeys`), each an upsert that does nothing at the limit (409 naming `couponCodes`); then
 * the coupon's (`used_count < max_uses`), one conditional statement. The coupon's row is the one
 * every shopper of a campaign shares, so it is the last row the placement locks.
 */
async function takeCoupons(
  tx: Transaction,
  applied: readonly CouponRow[],
  customerKey: string,
  limitKeys: readonly string[],
): Promise<void> {
  const ordered = [...applied].sort((a, b) => a.id - b.id);
  for (const coupon of ordered) {
    const limit = coupon.maxUsesPerCustomer;
    const keys = limit === null ? [customerKey] : [customerKey, ...limitKeys].sort();
    for (const key of keys) {
      const used = await tx
        .insert(couponCustomerUses)
        .values({ couponId: coupon.id, customerKey: key, uses: 1 })
        .onConflictDoUpdate({
          target: [couponCustomerUses.couponId, couponCustomerUses.customerKey],
          set: { uses: sql`${couponCustomerUses.uses} + 1` },
          ...(limit === null ? {} : { setWhere: sql`${couponCustomerUses.uses} < ${limit}` }),
        })
        .returning({ uses: couponCustomerUses.uses });
      if (used.length === 0 || (limit !== null && (used[0]?.uses ?? 0) > limit)) {
        throw soldOut(
          { couponCodes: 'shop.checkout.couponUsedByCustomer' },
          `The coupon ${coupon.code} has been used as often as one customer (account, mailbox or delivery address) may.`,
        );
      }
    }
  }
  for (const coupon of ordered) {
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
  }
}

/**
 * Sells the held slot and, line by line in code order, the per-date stock of the cart's goods,
 * each by one conditional update (`sold + n <= capacity`). The hold kept both for this cart
 * (other carts' holds count it under the same rows' locks), so this only turns the hold into a
 * sale and guards against selling past the capacity, which another sale or a lowered capacity
 * could leave too small: then 409 naming `time` or the line's code.
 */
async function takeDelivery(
  tx: Transaction,
  siteId: string,
  held: HeldDelivery,
  contents: readonly { product: { code: string; isGiftCard: boolean }; quantity: number }[],
  perDate: ReadonlySet<string>,
): Promise<void> {
  const slot = await tx
    .update(deliverySlotBookings)
    .set({ sold: sql`${deliverySlotBookings.sold} + 1` })
    .where(
      and(
        eq(deliverySlotBookings.areaId, held.areaId),
        eq(deliverySlotBookings.date, held.date),
        eq(deliverySlotBookings.startTime, held.startTime),
        sql`${deliverySlotBookings.sold} + 1 <= ${deliverySlotBookings.capacity}`,
      ),
    )
    .returning({ sold: deliverySlotBookings.sold });
  if (slot.length === 0) {
    throw soldOut(
      { time: 'shop.checkout.slotFull' },
      `The delivery time ${held.startTime}-${held.endTime} on ${held.date} is full.`,
    );
  }
  const goods = contents
    .filter(({ product }) => !product.isGiftCard && perDate.has(product.code))
    .sort((a, b) => a.product.code.localeCompare(b.product.code));
  for (const { product, quantity } of goods) {
    const taken = await tx
      .update(productDateStock)
      .set({ sold: sql`${productDateStock.sold} + ${quantity}` })
      .where(
        and(
          eq(productDateStock.siteId, siteId),
          eq(productDateStock.code, product.code),
          eq(productDateStock.date, held.date),
          sql`${productDateStock.sold} + ${quantity} <= ${productDateStock.capacity}`,
        ),
      )
      .returning({ sold: productDateStock.sold });
    if (taken.length === 0) {
      throw soldOut(
        { [product.code]: 'shop.stock.soldOut' },
        `Product ${product.code} is sold out on ${held.date}.`,
      );
    }
  }
}

/**
 * Gives back what an unpaid order took, once: the order moves from `pending_payment` to `to`
 * (cancelled after a failed payment, expired when its time ran out) by a conditional update, and
 * only the call that made that move gives back the products' stock, the gift cards' balance, the
 * slot, the date stock and the coupons' uses, in the lock order of placement (decision 081). Answers whether
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
  const lines = (await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId))).sort(
    (a, b) => a.code.localeCompare(b.code),
  );
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
  const used = await tx
    .select()
    .from(orderCoupons)
    .where(eq(orderCoupons.orderId, orderId))
    .orderBy(asc(orderCoupons.couponId));
  for (const use of used) {
    for (const key of [use.customerKey, ...use.limitKeys].sort()) {
      await tx
        .update(couponCustomerUses)
        .set({ uses: sql`greatest(${couponCustomerUses.uses} - 1, 0)` })
        .where(
          and(
            eq(couponCustomerUses.couponId, use.couponId),
            eq(couponCustomerUses.customerKey, key),
          ),
        );
    }
  }
  for (const use of used) {
    await tx
      .update(coupons)
      .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
      .where(eq(coupons.id, use.couponId));
  }
  return true;
}
