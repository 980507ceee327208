import { and, eq, gt, gte, inArray, lte, ne, sql, sum } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { NotFound } from '../../server/errors.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';
import { products } from '../content/index.server.ts';
import { cartContents } from './cart-products.server.ts';
import { type CartKey, existingCartId } from './cart-rows.server.ts';
import { addDays, helsinkiDate, helsinkiTime, weekdayOf } from './dates.ts';
import type { DeliveryDates, ProductAvailability } from './schemas.ts';
import {
  checkoutHoldLines,
  checkoutHolds,
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliveryCalendarSlots,
  deliveryClosedDates,
  deliverySlotBookings,
  productDateStock,
  productWeeklyStock,
} from './tables.ts';

/**
 * Delivery (spec §4, §5, §7; decision 019): postal codes belong to delivery areas, each area has a
 * weekly calendar of slots with an order cut-off (Helsinki time) and a capacity, and products may
 * be sold per delivery date. Reads only: the checkout holds (`checkout_holds`, decision 027) and
 * sells (`sold` of `delivery_slot_bookings` and `product_date_stock`) what these queries count.
 * What is free is the capacity less what is sold and less the active holds (`expires_at > now()`)
 * of other carts; the asking cart's own hold never counts against it.
 */

/** Holds of carts other than `ownCartId` that still count (`expires_at > now()`). */
function otherActiveHolds(ownCartId: string | null | undefined) {
  return and(
    gt(checkoutHolds.expiresAt, sql`now()`),
    ownCartId ? ne(checkoutHolds.cartId, ownCartId) : undefined,
  );
}

/** How many active holds of other carts each slot of an area has, keyed `date start`. */
export async function heldSlots(
  db: Database,
  areaId: number,
  dates: { from: string; to: string },
  ownCartId?: string | null,
): Promise<Map<string, number>> {
  const rows = await db
    .select({
      date: checkoutHolds.date,
      startTime: checkoutHolds.startTime,
      n: sql<number>`count(*)::int`,
    })
    .from(checkoutHolds)
    .where(
      and(
        eq(checkoutHolds.areaId, areaId),
        gte(checkoutHolds.date, dates.from),
        lte(checkoutHolds.date, dates.to),
        otherActiveHolds(ownCartId),
      ),
    )
    .groupBy(checkoutHolds.date, checkoutHolds.startTime);
  return new Map(rows.map((row) => [`${row.date} ${row.startTime}`, Number(row.n)]));
}

/** What active holds of other carts keep of products' per-date stock, keyed `code date`. */
export async function heldStock(
  db: Database,
  codes: readonly string[],
  dates: readonly string[],
  ownCartId?: string | null,
): Promise<Map<string, number>> {
  if (codes.length === 0 || dates.length === 0) return new Map();
  const rows = await db
    .select({
      code: checkoutHoldLines.code,
      date: checkoutHoldLines.date,
      n: sum(checkoutHoldLines.quantity).mapWith(Number),
    })
    .from(checkoutHoldLines)
    .innerJoin(checkoutHolds, eq(checkoutHolds.id, checkoutHoldLines.holdId))
    .where(
      and(
        eq(checkoutHoldLines.siteId, SHOP_SITE_ID),
        inArray(checkoutHoldLines.code, [...codes]),
        inArray(checkoutHoldLines.date, [...dates]),
        otherActiveHolds(ownCartId),
      ),
    )
    .groupBy(checkoutHoldLines.code, checkoutHoldLines.date);
  return new Map(rows.map((row) => [`${row.code} ${row.date}`, row.n ?? 0]));
}

/** How far ahead delivery dates are offered, in days from today. */
export const DELIVERY_HORIZON_DAYS = 21;

/**
 * The active area of a normalised postal code. A code with a prefix (`FI-00100`) is looked up as
 * written first, then by its five digits.
 */
export async function areaOfPostalCode(db: Database, postalCode: string) {
  const candidates = [...new Set([postalCode, postalCode.slice(-5)])];
  const rows = await db
    .select({
      id: deliveryAreas.id,
      name: deliveryAreas.name,
      code: deliveryAreaPostalCodes.postalCode,
    })
    .from(deliveryAreaPostalCodes)
    .innerJoin(deliveryAreas, eq(deliveryAreas.id, deliveryAreaPostalCodes.areaId))
    .where(
      and(
        eq(deliveryAreaPostalCodes.siteId, SHOP_SITE_ID),
        inArray(deliveryAreaPostalCodes.postalCode, candidates),
        eq(deliveryAreas.active, true),
      ),
    );
  return rows.find((row) => row.code === postalCode) ?? rows[0];
}

export interface SlotOnDate {
  start: string;
  end: string;
  free: number;
}

/**
 * The area's open slots per date from today for the horizon: the weekday's slots, less closed
 * dates, slots whose cut-off has passed (Helsinki time) and slots with no capacity left (sold and
 * held by other carts than `ownCartId`). `withFull` keeps full slots too (with `free` 0 or less),
 * for telling a full slot from one that is not offered.
 */
export async function openSlots(
  db: Database,
  areaId: number,
  now: Date,
  ownCartId?: string | null,
  withFull = false,
): Promise<Map<string, SlotOnDate[]>> {
  const today = helsinkiDate(now);
  const clock = helsinkiTime(now);
  const last = addDays(today, DELIVERY_HORIZON_DAYS);
  const [calendar, closed, bookings, held] = await Promise.all([
    db.select().from(deliveryCalendarSlots).where(eq(deliveryCalendarSlots.areaId, areaId)),
    db
      .select({ date: deliveryClosedDates.date })
      .from(deliveryClosedDates)
      .where(
        and(
          eq(deliveryClosedDates.areaId, areaId),
          gte(deliveryClosedDates.date, today),
          lte(deliveryClosedDates.date, last),
        ),
      ),
    db
      .select()
      .from(deliverySlotBookings)
      .where(
        and(
          eq(deliverySlotBookings.areaId, areaId),
          gte(deliverySlotBookings.date, today),
          lte(deliverySlotBookings.date, last),
        ),
      ),
    heldSlots(db, areaId, { from: today, to: last }, ownCartId),
  ]);
  const closedDates = new Set(closed.map((row) => row.date));
  const booked = new Map(bookings.map((row) => [`${row.date} ${row.startTime}`, row]));
  const dates = new Map<string, SlotOnDate[]>();
  for (let day = 0; day <= DELIVERY_HORIZON_DAYS; day += 1) {
    const date = addDays(today, day);
    if (closedDates.has(date)) continue;
    const weekday = weekdayOf(date);
    const slots: SlotOnDate[] = [];
    for (const slot of calendar) {
      if (slot.weekday !== weekday) continue;
      const cutoffDate = addDays(date, -slot.cutoffDaysBefore);
      const open = today < cutoffDate || (today === cutoffDate && clock < slot.cutoffTime);
      if (!open) continue;
      const booking = booked.get(`${date} ${slot.startTime}`);
      const capacity = booking ? booking.capacity : slot.capacity;
      const free =
        capacity - (booking ? booking.sold : 0) - (held.get(`${date} ${slot.startTime}`) ?? 0);
      if (free > 0 || withFull) slots.push({ start: slot.startTime, end: slot.endTime, free });
    }
    slots.sort((a, b) => a.start.localeCompare(b.start));
    if (slots.length > 0) dates.set(date, slots);
  }
  return dates;
}

/**
 * What is left of products per date: null when a product is not sold per date (then only its
 * overall `stock` limits it), otherwise the date's capacity (its own row, else the weekday's, else
 * 0) less what is sold and what other carts' active holds keep (never the hold of `ownCartId`).
 * The overall stock caps it too.
 */
export async function perDateStock(
  db: Database,
  items: readonly { code: string; stock: number | null }[],
  dates: readonly string[],
  ownCartId?: string | null,
): Promise<Map<string, Map<string, number | null>>> {
  const codes = [...new Set(items.map((item) => item.code))];
  const result = new Map<string, Map<string, number | null>>();
  if (codes.length === 0 || dates.length === 0) return result;
  const [weekly, dated, held] = await Promise.all([
    db
      .select()
      .from(productWeeklyStock)
      .where(
        and(eq(productWeeklyStock.siteId, SHOP_SITE_ID), inArray(productWeeklyStock.code, codes)),
      ),
    db
      .select()
      .from(productDateStock)
      .where(
        and(
          eq(productDateStock.siteId, SHOP_SITE_ID),
          inArray(productDateStock.code, codes),
          inArray(productDateStock.date, [...dates]),
        ),
      ),
    heldStock(db, codes, dates, ownCartId),
  ]);
  const perDateCodes = new Set(
    (
      await db
        .selectDistinct({ code: productDateStock.code })
        .from(productDateStock)
        .where(
          and(eq(productDateStock.siteId, SHOP_SITE_ID), inArray(productDateStock.code, codes)),
        )
    ).map((row) => row.code),
  );
  for (const row of weekly) perDateCodes.add(row.code);
  for (const item of items) {
    const byDate = new Map<string, number | null>();
    for (const date of dates) {
      let left: number | null = null;
      if (perDateCodes.has(item.code)) {
        const own = dated.find((row) => row.code === item.code && row.date === date);
        const usual = weekly.find(
          (row) => row.code === item.code && row.weekday === weekdayOf(date),
        );
        const capacity = own ? own.capacity : (usual?.quantity ?? 0);
        const kept = held.get(`${item.code} ${date}`) ?? 0;
        left = Math.max(0, capacity - (own ? own.sold : 0) - kept);
      }
      if (item.stock !== null) left = left === null ? item.stock : Math.min(left, item.stock);
      byDate.set(date, left);
    }
    result.set(item.code, byDate);
  }
  return result;
}

/** `availability`: whether the shop delivers to the postal code at all. */
export async function isDeliveredTo(db: Database, postalCode: string): Promise<boolean> {
  return (await areaOfPostalCode(db, postalCode)) !== undefined;
}

/**
 * `delivery-availability`: the dates a product can be delivered to the postal code, with what is
 * left of it on each (null: unlimited). 404 for a product the shop does not sell.
 */
export async function productDeliveryTimes(
  db: Database,
  productId: number,
  postalCode: string,
  now: Date = new Date(),
  key: CartKey | null = null,
): Promise<ProductAvailability> {
  const [product] = await db
    .select({
      code: products.code,
      stock: products.stock,
      isGiftCard: products.isGiftCard,
      priceCents: products.priceCents,
    })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.siteId, SHOP_SITE_ID)));
  if (!product || product.priceCents === null) {
    throw new NotFound(`The shop sells no product with id ${productId}.`);
  }
  const area = await areaOfPostalCode(db, postalCode);
  if (!area) return { isAvailable: false, deliveryTimes: [] };
  if (product.isGiftCard) return { isAvailable: true, deliveryTimes: [] };
  const ownCartId = key ? await existingCartId(db, key) : undefined;
  const slots = await openSlots(db, area.id, now, ownCartId);
  const dates = [...slots.keys()];
  const left = (await perDateStock(db, [product], dates, ownCartId)).get(product.code);
  return {
    isAvailable: true,
    deliveryTimes: dates
      .map((date) => ({ date, stock: left?.get(date) ?? null }))
      .filter((time) => time.stock === null || time.stock > 0),
  };
}

const weekdayNames: Record<Lang, string> = { fi: 'fi-FI', sv: 'sv-FI', en: 'en-GB' };

/** The weekday formatter of each language, made once (formatters are costly to make). */
const weekdayFormats = new Map<Lang, Intl.DateTimeFormat>();

/** `ma 2.3.2026` (in the language's weekday abbreviation). */
export function dateLabel(date: string, lang: Lang): string {
  let format = weekdayFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(weekdayNames[lang], { weekday: 'short', timeZone: 'UTC' });
    weekdayFormats.set(lang, format);
  }
  const weekday = format.format(new Date(`${date}T12:00:00Z`));
  const [y, m, d] = date.split('-').map(Number);
  return `${weekday} ${d}.${m}.${y}`;
}

/** `08:00` → `8.00`. */
export const clockLabel = (time: string) => `${Number(time.slice(0, 2))}.${time.slice(3)}`;

/**
 * `delivery`: the dates and times the session's cart can be delivered to the postal code: the
 * area's open slots on dates where every line (gift cards aside) has per-date stock for its
 * quantity. A cart of gift cards only needs no delivery. When there is no date although the area
 * is delivered to, `message` says why and what to do, and `reason` names the case: the area has
 * no free slot (`noSlots`), some lines cannot come on any of its dates in their quantity
 * (`unavailableProducts`, named in the message, as each line's own availability says), or every
 * line has dates of its own but the lines share none (`noCommonDate`).
 */
export async function deliveryDates(
  db: Database,
  key: CartKey | null,
  lang: Lang,
  postalCode: string,
  now: Date = new Date(),
): Promise<DeliveryDates> {
  const t = serverT(lang);
  const area = await areaOfPostalCode(db, postalCode);
  if (!area) {
    return { isAvailable: false, deliveryRequired: true, dates: [], message: null, reason: null };
  }
  const cartId = key ? await existingCartId(db, key) : undefined;
  const contents = key && cartId ? await cartContents(db, key, cartId, lang) : [];
  const goods = contents.filter(({ product }) => !product.isGiftCard);
  if (contents.length > 0 && goods.length === 0) {
    return { isAvailable: true, deliveryRequired: false, dates: [], message: null, reason: null };
  }
  const slots = await openSlots(db, area.id, now, cartId);
  const left = await perDateStock(
    db,
    goods.map(({ product }) => product),
    [...slots.keys()],
    cartId,
  );
  const fitsOn = (date: string, item: (typeof goods)[number]) => {
    const stock = left.get(item.product.code)?.get(date) ?? null;
    return stock === null || stock >= item.quantity;
  };
  const dates = [...slots.entries()]
    .filter(([date]) => goods.every((item) => fitsOn(date, item)))
    .map(([date, times]) => ({
      value: date,
      label: dateLabel(date, lang),
      times: times.map((time) => ({
        value: `${time.start}-${time.end}`,
        label: t('shop.delivery.timeLabel', {
          start: clockLabel(time.start),
          end: clockLabel(time.end),
        }),
      })),
    }));
  const answer = { isAvailable: true, deliveryRequired: true, dates };
  if (dates.length > 0 || goods.length === 0) return { ...answer, message: null, reason: null };
  if (slots.size === 0) {
    return {
      ...answer,
      message: t('shop.delivery.noSlots', { postalCode }),
      reason: 'noSlots',
    };
  }
  // A line with no date at all is named, as its own availability on the cart page says; only
  // when each line has dates of its own is the lack of a common one the reason.
  const unavailable = goods.filter((item) => ![...slots.keys()].some((date) => fitsOn(date, item)));
  if (unavailable.length > 0) {
    return {
      ...answer,
      message: t('shop.delivery.productsNotDelivered', {
        postalCode,
        products: unavailable.map(({ product }) => product.name).join(', '),
      }),
      reason: 'unavailableProducts',
    };
  }
  return { ...answer, message: t('shop.delivery.noCommonDate'), reason: 'noCommonDate' };
}
