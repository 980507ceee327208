import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { AppError, Invalid } from '../../../server/errors.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import type { Lang } from '../../../sites/types.ts';
import { cartContents } from '../cart-products.server.ts';
import { type CartKey, existingCartId, lockCartRow } from '../cart-rows.server.ts';
import { weekdayOf } from '../dates.ts';
import {
  areaOfPostalCode,
  clockLabel,
  dateLabel,
  heldSlots,
  heldStock,
  openSlots,
} from '../delivery.server.ts';
import {
  checkoutHoldLines,
  checkoutHolds,
  deliveryCalendarSlots,
  deliverySlotBookings,
  productDateStock,
  productWeeklyStock,
} from '../tables.ts';
import type { CheckoutHold } from './schemas.ts';

/**
 * Checkout holds (decision 027): choosing a delivery time keeps the slot's capacity and the
 * per-date stock of the cart's lines for `HOLD_MINUTES`. A hold is a row that counts while
 * `expires_at > now()`; nothing has to run for it to stop counting.
 *
 * Lock order, the same in every transaction that writes here (taking a hold, placing an order,
 * releasing an order), so two of them never wait on each other in a circle (decision 081):
 * the cart row → the cart's hold → (the order row) → `products` rows by code and id → gift cards
 * by id → the slot's `delivery_slot_bookings` row → the `product_date_stock` rows by code → the
 * customer's `coupon_customer_uses` by key → coupons by id. Codes and keys are ordered by
 * `compareCodes` everywhere. Placement takes the counters from `products` on at its end, each by
 * one conditional update, so the rows many orders share stay locked only until its commit; a
 * release gives them back in the same order (`ledger.server.ts`, decision 121). A booking or
 * date-stock row is made when a hold first needs it (`insert … on conflict do nothing`, capacity
 * copied from the calendar or the weekday's stock) and then locked with `select … for update`.
 */

/**
 * The order of product codes and limit keys in the lock order: by UTF-16 code unit, the same in
 * every process whatever its locale (`localeCompare` is not).
 */
export const compareCodes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** How long a chosen delivery time is kept for the cart. */
export const HOLD_MINUTES = 20;

/** Problem+json 409 naming each field or line that cannot be had (`errors`: message keys). */
export function unavailable(errors: Record<string, string>, detail: string): AppError {
  return new AppError(409, 'unavailable', 'Not available', detail, { errors });
}

export function holdGone(): AppError {
  return unavailable(
    { checkoutId: 'shop.checkout.holdGone' },
    'The checkout has no delivery time held any more (it expired, the cart changed, or it is not this cart’s). Choose the delivery time again.',
  );
}

export function emptyCartProblem(): AppError {
  return unavailable({ cart: 'shop.cart.empty' }, 'The cart is empty.');
}

/** `08:00-12:00` → its start and end, or null when it is not such a value. */
export function parseTime(value: string): { start: string; end: string } | null {
  const match = /^([0-2]\d:[0-5]\d)-([0-2]\d:[0-5]\d)$/.exec(value);
  if (!match?.[1] || !match[2] || match[1] >= match[2]) return null;
  return { start: match[1], end: match[2] };
}

/** Locks the cart row: cart changes, holds and placement of one cart queue here. */
export const lockCart = (tx: Transaction, cartId: string) => lockCartRow(tx, cartId);

/** The slot's booking row, made with the calendar's capacity on first use, locked. */
export async function lockSlot(
  tx: Transaction,
  slot: { areaId: number; date: string; startTime: string },
): Promise<{ capacity: number; sold: number } | null> {
  const [calendar] = await tx
    .select({ capacity: deliveryCalendarSlots.capacity })
    .from(deliveryCalendarSlots)
    .where(
      and(
        eq(deliveryCalendarSlots.areaId, slot.areaId),
        eq(deliveryCalendarSlots.weekday, weekdayOf(slot.date)),
        eq(deliveryCalendarSlots.startTime, slot.startTime),
      ),
    );
  if (calendar) {
    await tx
      .insert(deliverySlotBookings)
      .values({ ...slot, capacity: calendar.capacity })
      .onConflictDoNothing();
  }
  const [row] = await tx
    .select({ capacity: deliverySlotBookings.capacity, sold: deliverySlotBookings.sold })
    .from(deliverySlotBookings)
    .where(
      and(
        eq(deliverySlotBookings.areaId, slot.areaId),
        eq(deliverySlotBookings.date, slot.date),
        eq(deliverySlotBookings.startTime, slot.startTime),
      ),
    )
    .for('update');
  return row ?? null;
}

/** How many active holds of carts other than `cartId` keep the slot (the availability's count). */
export async function otherHoldsOfSlot(
  tx: Transaction,
  slot: { areaId: number; date: string; startTime: string },
  cartId: string,
): Promise<number> {
  const held = await heldSlots(tx, slot.areaId, { from: slot.date, to: slot.date }, cartId);
  return held.get(`${slot.date} ${slot.startTime}`) ?? 0;
}

/**
 * The cart's goods (gift cards left out) in code order, the order their stock rows are locked in,
 * and which of them are sold per date.
 */
export async function goodsInCodeOrder<
  Line extends { product: { code: string; isGiftCard: boolean } },
>(
  tx: Database | Transaction,
  contents: readonly Line[],
): Promise<{ goods: Line[]; perDate: Set<string> }> {
  const goods = contents
    .filter(({ product }) => !product.isGiftCard)
    .sort((a, b) => compareCodes(a.product.code, b.product.code));
  const perDate = await perDateCodes(
    tx,
    goods.map(({ product }) => product.code),
  );
  return { goods, perDate };
}

/** The codes among `codes` that are sold per date (rows in the weekly or the dated stock). */
export async function perDateCodes(
  tx: Database | Transaction,
  codes: readonly string[],
): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const [dated, weekly] = await Promise.all([
    tx
      .selectDistinct({ code: productDateStock.code })
      .from(productDateStock)
      .where(
        and(eq(productDateStock.siteId, SHOP_SITE_ID), inArray(productDateStock.code, [...codes])),
      ),
    tx
      .selectDistinct({ code: productWeeklyStock.code })
      .from(productWeeklyStock)
      .where(
        and(
          eq(productWeeklyStock.siteId, SHOP_SITE_ID),
          inArray(productWeeklyStock.code, [...codes]),
        ),
      ),
  ]);
  return new Set([...dated, ...weekly].map((row) => row.code));
}

/** A product's stock row for a date, made from the weekday's quantity (else 0) on first use, locked. */
export async function lockDateStock(
  tx: Transaction,
  code: string,
  date: string,
): Promise<{ capacity: number; sold: number }> {
  const [usual] = await tx
    .select({ quantity: productWeeklyStock.quantity })
    .from(productWeeklyStock)
    .where(
      and(
        eq(productWeeklyStock.siteId, SHOP_SITE_ID),
        eq(productWeeklyStock.code, code),
        eq(productWeeklyStock.weekday, weekdayOf(date)),
      ),
    );
  await tx
    .insert(productDateStock)
    .values({ siteId: SHOP_SITE_ID, code, date, capacity: usual?.quantity ?? 0 })
    .onConflictDoNothing();
  const [row] = await tx
    .select({ capacity: productDateStock.capacity, sold: productDateStock.sold })
    .from(productDateStock)
    .where(
      and(
        eq(productDateStock.siteId, SHOP_SITE_ID),
        eq(productDateStock.code, code),
        eq(productDateStock.date, date),
      ),
    )
    .for('update');
  if (!row) throw new Error(`product_date_stock row of ${code} on ${date} missing after insert`);
  return row;
}

/** What active holds of carts other than `cartId` keep of a product on a date. */
export async function otherHoldsOfStock(
  tx: Transaction,
  code: string,
  date: string,
  cartId: string,
): Promise<number> {
  const held = await heldStock(tx, [code], [date], cartId);
  return held.get(`${code} ${date}`) ?? 0;
}

export type HoldRow = typeof checkoutHolds.$inferSelect;

/** A held delivery time: the area's slot on a date, for a postal code. */
export interface HeldDelivery {
  areaId: number;
  postalCode: string;
  date: string;
  startTime: string;
  endTime: string;
}

/**
 * The hold's delivery time, or null for a hold of a cart of gift cards only, which keeps no slot
 * and no stock (the check constraint makes the columns all set or all null).
 */
export function deliveryOf(hold: HoldRow): HeldDelivery | null {
  const { areaId, postalCode, date, startTime, endTime } = hold;
  if (areaId === null || postalCode === null || date === null) return null;
  if (startTime === null || endTime === null) return null;
  return { areaId, postalCode, date, startTime, endTime };
}

/** The hold as the checkout API answers it. */
export function holdAnswer(hold: HoldRow, lang: Lang): CheckoutHold {
  const t = serverT(lang);
  const delivery = deliveryOf(hold);
  const common = {
    checkoutId: hold.id,
    expiresAt: hold.expiresAt.toISOString(),
    useDeliveryAddressForBilling: hold.useDeliveryAddressForBilling,
  };
  if (!delivery) {
    return {
      ...common,
      postalCode: null,
      date: null,
      time: null,
      label: t('checkout.byEmail.label'),
    };
  }
  const times = t('shop.delivery.timeLabel', {
    start: clockLabel(delivery.startTime),
    end: clockLabel(delivery.endTime),
  });
  return {
    ...common,
    postalCode: delivery.postalCode,
    date: delivery.date,
    time: `${delivery.startTime}-${delivery.endTime}`,
    label: `${dateLabel(delivery.date, lang)} ${times}`,
  };
}

/** The cart's hold while it counts (null when there is none or it has expired). */
export async function activeHoldOfCart(
  db: Database | Transaction,
  cartId: string,
): Promise<HoldRow | null> {
  const [row] = await db
    .select()
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.cartId, cartId), gt(checkoutHolds.expiresAt, sql`now()`)));
  return row ?? null;
}

/** The session's cart's active hold, if any. */
export async function currentHold(db: Database, key: CartKey | null): Promise<HoldRow | null> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  return cartId ? activeHoldOfCart(db, cartId) : null;
}

export interface HoldRequest {
  /** The delivery time's postal code, date and `HH:MM-HH:MM`: needed unless the cart is all gift cards. */
  postalCode?: string | undefined;
  date?: string | undefined;
  time?: string | undefined;
  useDeliveryAddressForBilling: boolean;
}

/** Whether every line of the cart is a gift card (nothing to deliver; `hasGiftCardsOnly`). */
const giftCardsOnly = (contents: readonly { product: { isGiftCard: boolean } }[]) =>
  contents.length > 0 && contents.every(({ product }) => product.isGiftCard);

/**
 * Takes the cart's hold, replacing one it had: the slot must be offered (the area's calendar,
 * not closed, before its cut-off) and have room besides what is sold and what other carts hold;
 * every line sold per date must have its quantity left on the date, every line with an overall
 * stock that much stock. Refusals are 409 naming `time` or the line's code; a refusal keeps the
 * hold the cart had. Everything happens with the cart, slot and date-stock rows locked.
 */
export async function takeHold(
  db: Database,
  key: CartKey,
  lang: Lang,
  request: HoldRequest,
  now: Date = new Date(),
): Promise<HoldRow> {
  const cartId = await existingCartId(db, key);
  if (!cartId) throw emptyCartProblem();
  if (giftCardsOnly(await cartContents(db, key, cartId, lang))) {
    return takeHoldWithoutDelivery(db, key, lang, cartId, request);
  }
  const missing = (['postalCode', 'date', 'time'] as const).filter((field) => !request[field]);
  if (missing.length > 0) {
    throw new Invalid(Object.fromEntries(missing.map((field) => [field, 'validation.required'])));
  }
  const asked = request as Required<HoldRequest>;
  return takeDeliveryHold(db, key, lang, cartId, asked, now);
}

/**
 * The hold of a cart of gift cards only: no slot and no stock to keep, only the checkout's
 * idempotency key for the order (decision 030). Refused if the cart got goods meanwhile.
 */
async function takeHoldWithoutDelivery(
  db: Database,
  key: CartKey,
  lang: Lang,
  cartId: string,
  request: HoldRequest,
): Promise<HoldRow> {
  return db.transaction(async (tx) => {
    if (!(await lockCart(tx, cartId))) throw emptyCartProblem();
    await tx.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cartId));
    const contents = await cartContents(tx, key, cartId, lang);
    if (contents.length === 0) throw emptyCartProblem();
    if (!giftCardsOnly(contents)) {
      throw unavailable(
        { time: 'shop.checkout.timeInvalid' },
        'The cart has goods to deliver now: choose a delivery time.',
      );
    }
    const [hold] = await tx
      .insert(checkoutHolds)
      .values({
        cartId,
        siteId: key.siteId,
        useDeliveryAddressForBilling: request.useDeliveryAddressForBilling,
        expiresAt: sql`now() + make_interval(mins => ${HOLD_MINUTES})`,
      })
      .returning();
    if (!hold) throw new Error('hold insert returned no row');
    return hold;
  });
}

async function takeDeliveryHold(
  db: Database,
  key: CartKey,
  lang: Lang,
  cartId: string,
  request: Required<HoldRequest>,
  now: Date,
): Promise<HoldRow> {
  const area = await areaOfPostalCode(db, request.postalCode);
  if (!area) {
    throw unavailable(
      { postalCode: 'shop.delivery.unrecognised' },
      `The shop does not deliver to ${request.postalCode}.`,
    );
  }
  const time = parseTime(request.time);
  const offered = time
    ? (await openSlots(db, area.id, now, cartId, true))
        .get(request.date)
        ?.find((slot) => slot.start === time.start && slot.end === time.end)
    : undefined;
  if (!time || !offered) {
    throw unavailable(
      { time: 'shop.checkout.timeInvalid' },
      `No delivery at ${request.time} on ${request.date} to ${request.postalCode}.`,
    );
  }
  return db.transaction(async (tx) => {
    if (!(await lockCart(tx, cartId))) throw emptyCartProblem();
    await tx.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cartId));
    const contents = await cartContents(tx, key, cartId, lang);
    if (contents.length === 0) throw emptyCartProblem();
    const slot = { areaId: area.id, date: request.date, startTime: time.start };
    const errors: Record<string, string> = {};
    const problems: string[] = [];
    const booking = await lockSlot(tx, slot);
    const slotFree = booking
      ? booking.capacity - booking.sold - (await otherHoldsOfSlot(tx, slot, cartId))
      : 0;
    if (slotFree < 1) {
      errors.time = 'shop.checkout.slotFull';
      problems.push(`the delivery time ${request.time} on ${request.date} is full`);
    }
    const { goods, perDate } = await goodsInCodeOrder(tx, contents);
    const lines: { code: string; quantity: number }[] = [];
    for (const { product, quantity } of goods) {
      let left = product.stock;
      if (perDate.has(product.code)) {
        const stock = await lockDateStock(tx, product.code, request.date);
        const onDate =
          stock.capacity -
          stock.sold -
          (await otherHoldsOfStock(tx, product.code, request.date, cartId));
        left = left === null ? onDate : Math.min(left, onDate);
        lines.push({ code: product.code, quantity });
      }
      if (left !== null && left < quantity) {
        errors[product.code] = 'shop.stock.soldOut';
        problems.push(
          `product ${product.code} is sold out on ${request.date} (${Math.max(0, left)} left, ${quantity} wanted)`,
        );
      }
    }
    if (problems.length > 0) {
      throw unavailable(errors, `Not available: ${problems.join('; ')}.`);
    }
    const [hold] = await tx
      .insert(checkoutHolds)
      .values({
        cartId,
        siteId: key.siteId,
        areaId: area.id,
        postalCode: request.postalCode,
        date: request.date,
        startTime: time.start,
        endTime: time.end,
        useDeliveryAddressForBilling: request.useDeliveryAddressForBilling,
        expiresAt: sql`now() + make_interval(mins => ${HOLD_MINUTES})`,
      })
      .returning();
    if (!hold) throw new Error('hold insert returned no row');
    if (lines.length > 0) {
      await tx.insert(checkoutHoldLines).values(
        lines.map((line) => ({
          holdId: hold.id,
          siteId: key.siteId,
          code: line.code,
          date: request.date,
          quantity: line.quantity,
        })),
      );
    }
    return hold;
  });
}

/** Lets the cart's hold go (`DELETE /checkout/hold`); nothing to let go is no error. */
export async function releaseHold(db: Database, key: CartKey | null): Promise<void> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  if (cartId) await db.delete(checkoutHolds).where(eq(checkoutHolds.cartId, cartId));
}

/** Deletes holds that expired more than a minute ago: tidying only, they already count for nothing. */
export async function deleteExpiredHolds(db: Database): Promise<number> {
  const rows = await db
    .delete(checkoutHolds)
    .where(sql`${checkoutHolds.expiresAt} < now() - interval '1 minute'`)
    .returning({ id: checkoutHolds.id });
  return rows.length;
}
