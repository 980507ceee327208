import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { products } from '../../content/index.server.ts';
import {
  couponCustomerUses,
  coupons,
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliveryClosedDates,
  deliverySlotBookings,
  giftCards,
  orderCoupons,
  orderGiftCards,
  orderLines,
  type orders,
  productDateStock,
} from '../tables.ts';
import { compareCodes, unavailable } from './holds.server.ts';

/**
 * The limited resources an order takes at placement and gives back when it is released
 * (decision 121): each is one pair, `take` beside `giveBack`, and `LIMITED_RESOURCES` lists them
 * in the lock order of holds.server.ts. Placement runs the list taking, a release runs the same
 * list giving back, in the same order, so a placement and a release never wait on each other in
 * a circle. Both read what to do from `Takings`, which placement builds from the rows it writes
 * and a release from the same rows read back (`takingsOf`), so a resource cannot be taken from
 * one description and given back from another.
 *
 * `take` is one conditional update a row (`where <there is enough>`), so it locks the row until
 * the commit and refuses (409 naming the field or line) what is not there; a refusal rolls the
 * placement back with whatever was taken before it. `giveBack` adds back what was taken, never
 * past the row's bounds.
 */

type OrderRow = typeof orders.$inferSelect;

/** What an order takes of the limited resources. */
export interface Takings {
  siteId: string;
  /** The delivery time's slot; null for an order of gift cards only. */
  delivery: {
    areaId: number;
    /** The postal code the order is delivered to, as the shopper gave it. */
    postalCode: string;
    date: string;
    startTime: string;
    endTime: string;
  } | null;
  /** The order's lines: every line's overall stock, the date stock of those that `tookDateStock`. */
  lines: readonly { code: string; quantity: number; tookDateStock: boolean }[];
  /** What the order pays with each gift card. */
  giftCards: readonly { giftCardId: number; amountCents: number }[];
  /** The coupons it used, each counted once for the coupon and once under each of `keys`. */
  coupons: readonly {
    couponId: number;
    code: string;
    maxUsesPerCustomer: number | null;
    /** The customer's key, and for a coupon limited per customer its mailbox and address keys. */
    keys: readonly string[];
  }[];
}

/** One limited resource: how placement takes it and how a release gives it back. */
export interface LimitedResource {
  name: string;
  take(tx: Transaction, takings: Takings, now: Date): Promise<void>;
  giveBack(tx: Transaction, takings: Takings): Promise<void>;
}

/** `order_coupons` with what taking needs of its coupon. */
export interface CouponUse {
  couponId: number;
  code: string;
  maxUsesPerCustomer: number | null;
  customerKey: string;
  limitKeys: readonly string[];
}

/** The takings of an order from its rows, the same at placement and at release. */
export function takingsOf(
  order: Pick<
    OrderRow,
    'siteId' | 'areaId' | 'postalCode' | 'deliveryDate' | 'startTime' | 'endTime'
  >,
  lines: readonly { code: string; quantity: number; tookDateStock: boolean }[],
  cards: readonly { giftCardId: number; amountCents: number }[],
  uses: readonly CouponUse[],
): Takings {
  const { areaId, postalCode, deliveryDate: date, startTime, endTime } = order;
  const delivered =
    areaId !== null &&
    postalCode !== null &&
    date !== null &&
    startTime !== null &&
    endTime !== null;
  return {
    siteId: order.siteId,
    delivery: delivered ? { areaId, postalCode, date, startTime, endTime } : null,
    lines: lines.map(({ code, quantity, tookDateStock }) => ({ code, quantity, tookDateStock })),
    giftCards: cards.map(({ giftCardId, amountCents }) => ({ giftCardId, amountCents })),
    coupons: uses.map((use) => ({
      couponId: use.couponId,
      code: use.code,
      maxUsesPerCustomer: use.maxUsesPerCustomer,
      keys: [use.customerKey, ...use.limitKeys].sort(compareCodes),
    })),
  };
}

/** The takings of a placed order, read back from its rows. */
export async function takingsOfOrder(tx: Transaction, order: OrderRow): Promise<Takings> {
  // One after the other: a transaction's connection runs one query at a time.
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const cards = await tx.select().from(orderGiftCards).where(eq(orderGiftCards.orderId, order.id));
  const uses = await tx
    .select({
      couponId: orderCoupons.couponId,
      code: coupons.code,
      maxUsesPerCustomer: coupons.maxUsesPerCustomer,
      customerKey: orderCoupons.customerKey,
      limitKeys: orderCoupons.limitKeys,
    })
    .from(orderCoupons)
    .innerJoin(coupons, eq(coupons.id, orderCoupons.couponId))
    .where(eq(orderCoupons.orderId, order.id));
  return takingsOf(order, lines, cards, uses);
}

/**
 * The products' rows with an overall stock that the lines' codes have (every language version of
 * a code), with the line's quantity, in the lock order: by code, then by id. A read: nothing is
 * locked.
 */
async function stockRows(
  tx: Transaction,
  takings: Takings,
): Promise<{ id: number; code: string; quantity: number }[]> {
  const quantities = new Map(takings.lines.map((line) => [line.code, line.quantity]));
  if (quantities.size === 0) return [];
  const rows = await tx
    .select({ id: products.id, code: products.code })
    .from(products)
    .where(
      and(
        eq(products.siteId, takings.siteId),
        inArray(products.code, [...quantities.keys()]),
        sql`${products.stock} is not null`,
      ),
    );
  return rows
    .map((row) => ({ ...row, quantity: quantities.get(row.code) ?? 0 }))
    .sort((a, b) => compareCodes(a.code, b.code) || a.id - b.id);
}

/** `products.stock`: every row of the code that carries a stock, or none (409 naming the code). */
export const stock: LimitedResource = {
  name: 'stock',
  async take(tx, takings) {
    for (const { id, code, quantity } of await stockRows(tx, takings)) {
      const taken = await tx
        .update(products)
        .set({ stock: sql`${products.stock} - ${quantity}` })
        .where(and(eq(products.id, id), sql`${products.stock} >= ${quantity}`))
        .returning({ id: products.id });
      if (taken.length === 0) {
        throw unavailable({ [code]: 'shop.stock.soldOut' }, `Product ${code} is sold out.`);
      }
    }
  },
  async giveBack(tx, takings) {
    for (const { id, quantity } of await stockRows(tx, takings)) {
      await tx
        .update(products)
        .set({ stock: sql`${products.stock} + ${quantity}` })
        .where(and(eq(products.id, id), sql`${products.stock} is not null`));
    }
  },
};

const byGiftCard = (takings: Takings) =>
  [...takings.giftCards].sort((a, b) => a.giftCardId - b.giftCardId);

/**
 * Gift cards' balance, by card id: exactly what the confirmed checkout said each card pays; a card
 * spent or expired since refuses the order (409 naming `giftCards`).
 */
export const giftCardBalance: LimitedResource = {
  name: 'giftCardBalance',
  async take(tx, takings, now) {
    for (const use of byGiftCard(takings)) {
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
        throw unavailable(
          { giftCards: 'shop.checkout.giftCardChanged' },
          'A gift card was spent or expired since the checkout was confirmed.',
        );
      }
    }
  },
  async giveBack(tx, takings) {
    for (const use of byGiftCard(takings)) {
      await tx
        .update(giftCards)
        .set({
          balanceCents: sql`least(${giftCards.initialCents}, ${giftCards.balanceCents} + ${use.amountCents})`,
        })
        .where(eq(giftCards.id, use.giftCardId));
    }
  },
};

/**
 * The delivery time's slot (`sold + 1 <= capacity`, else 409 naming `time`). The hold kept it for
 * this cart, counted against the other carts' holds, so taking turns the hold into a sale and
 * guards only against a capacity another sale or a staff change left too small (decision 081),
 * or a date staff closed since the hold (decision 142).
 */
export const slot: LimitedResource = {
  name: 'slot',
  async take(tx, { delivery }) {
    if (!delivery) return;
    const taken = await tx
      .update(deliverySlotBookings)
      .set({ sold: sql`${deliverySlotBookings.sold} + 1` })
      .where(
        and(
          eq(deliverySlotBookings.areaId, delivery.areaId),
          eq(deliverySlotBookings.date, delivery.date),
          eq(deliverySlotBookings.startTime, delivery.startTime),
          sql`${deliverySlotBookings.sold} + 1 <= ${deliverySlotBookings.capacity}`,
        ),
      )
      .returning({ sold: deliverySlotBookings.sold });
    if (taken.length === 0) {
      throw unavailable(
        { time: 'shop.checkout.slotFull' },
        `The delivery time ${delivery.startTime}-${delivery.endTime} on ${delivery.date} is full.`,
      );
    }
    // Read after the slot's row is locked: staff closing the date lock it first (decision 142),
    // so a date closed while the shopper held it refuses the order here.
    const [closed] = await tx
      .select({ date: deliveryClosedDates.date })
      .from(deliveryClosedDates)
      .where(
        and(
          eq(deliveryClosedDates.areaId, delivery.areaId),
          eq(deliveryClosedDates.date, delivery.date),
        ),
      );
    if (closed) {
      throw unavailable(
        { time: 'shop.checkout.timeInvalid' },
        `No delivery on ${delivery.date}: the date was closed.`,
      );
    }
    // Likewise an area staff turned off, or a postal code they removed from it, since the hold
    // (placement checks the address's area before, without this lock): the code matched as the
    // checkout matches it (whole, or its last five characters).
    const [served] = await tx
      .select({ code: deliveryAreaPostalCodes.postalCode })
      .from(deliveryAreaPostalCodes)
      .innerJoin(deliveryAreas, eq(deliveryAreas.id, deliveryAreaPostalCodes.areaId))
      .where(
        and(
          eq(deliveryAreas.id, delivery.areaId),
          eq(deliveryAreas.active, true),
          inArray(deliveryAreaPostalCodes.postalCode, [
            ...new Set([delivery.postalCode, delivery.postalCode.slice(-5)]),
          ]),
        ),
      )
      .limit(1);
    if (!served) {
      throw unavailable(
        { deliveryAddress: 'shop.delivery.notAvailable' },
        `The shop no longer delivers to ${delivery.postalCode} in this area.`,
      );
    }
  },
  async giveBack(tx, { delivery }) {
    if (!delivery) return;
    await tx
      .update(deliverySlotBookings)
      .set({ sold: sql`greatest(${deliverySlotBookings.sold} - 1, 0)` })
      .where(
        and(
          eq(deliverySlotBookings.areaId, delivery.areaId),
          eq(deliverySlotBookings.date, delivery.date),
          eq(deliverySlotBookings.startTime, delivery.startTime),
        ),
      );
  },
};

/** The lines that are sold per date, in code order (the lock order). */
const datedLines = ({ delivery, lines }: Takings) =>
  delivery
    ? lines
        .filter((line) => line.tookDateStock)
        .sort((a, b) => compareCodes(a.code, b.code))
        .map((line) => ({ ...line, date: delivery.date }))
    : [];

/** The per-date stock of the delivery date, line by line (`sold + n <= capacity`, else 409). */
export const dateStock: LimitedResource = {
  name: 'dateStock',
  async take(tx, takings) {
    for (const { code, quantity, date } of datedLines(takings)) {
      const taken = await tx
        .update(productDateStock)
        .set({ sold: sql`${productDateStock.sold} + ${quantity}` })
        .where(
          and(
            eq(productDateStock.siteId, takings.siteId),
            eq(productDateStock.code, code),
            eq(productDateStock.date, date),
            sql`${productDateStock.sold} + ${quantity} <= ${productDateStock.capacity}`,
          ),
        )
        .returning({ sold: productDateStock.sold });
      if (taken.length === 0) {
        throw unavailable(
          { [code]: 'shop.stock.soldOut' },
          `Product ${code} is sold out on ${date}.`,
        );
      }
    }
  },
  async giveBack(tx, takings) {
    for (const { code, quantity, date } of datedLines(takings)) {
      await tx
        .update(productDateStock)
        .set({ sold: sql`greatest(${productDateStock.sold} - ${quantity}, 0)` })
        .where(
          and(
            eq(productDateStock.siteId, takings.siteId),
            eq(productDateStock.code, code),
            eq(productDateStock.date, date),
          ),
        );
    }
  },
};

const byCoupon = (takings: Takings) => [...takings.coupons].sort((a, b) => a.couponId - b.couponId);

/**
 * Coupon uses, by coupon id: first the customer's own uses under each of the use's keys (an
 * upsert that does nothing at a per-customer limit), then the coupons' (`used_count <
 * max_uses`); 409 naming `couponCodes`. The coupon's row is the one every shopper of a campaign
 * shares, so it is the last row a placement locks (decision 081).
 */
export const couponUses: LimitedResource = {
  name: 'couponUses',
  async take(tx, takings) {
    const used = byCoupon(takings);
    for (const coupon of used) {
      for (const key of coupon.keys) await takeCustomerUse(tx, coupon, key);
    }
    for (const coupon of used) {
      const taken = await tx
        .update(coupons)
        .set({ usedCount: sql`${coupons.usedCount} + 1` })
        .where(
          and(
            eq(coupons.id, coupon.couponId),
            eq(coupons.active, true),
            sql`(${coupons.maxUses} is null or ${coupons.usedCount} < ${coupons.maxUses})`,
          ),
        )
        .returning({ id: coupons.id });
      if (taken.length === 0) {
        throw unavailable(
          { couponCodes: 'shop.checkout.couponUsedUp' },
          `The coupon ${coupon.code} has been used up.`,
        );
      }
    }
  },
  async giveBack(tx, takings) {
    const used = byCoupon(takings);
    for (const coupon of used) {
      for (const key of coupon.keys) {
        await tx
          .update(couponCustomerUses)
          .set({ uses: sql`greatest(${couponCustomerUses.uses} - 1, 0)` })
          .where(
            and(
              eq(couponCustomerUses.couponId, coupon.couponId),
              eq(couponCustomerUses.customerKey, key),
            ),
          );
      }
    }
    for (const coupon of used) {
      await tx
        .update(coupons)
        .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
        .where(eq(coupons.id, coupon.couponId));
    }
  },
};

async function takeCustomerUse(
  tx: Transaction,
  coupon: Takings['coupons'][number],
  key: string,
): Promise<void> {
  const limit = coupon.maxUsesPerCustomer;
  const used = await tx
    .insert(couponCustomerUses)
    .values({ couponId: coupon.couponId, customerKey: key, uses: 1 })
    .onConflictDoUpdate({
      target: [couponCustomerUses.couponId, couponCustomerUses.customerKey],
      set: { uses: sql`${couponCustomerUses.uses} + 1` },
      ...(limit === null ? {} : { setWhere: sql`${couponCustomerUses.uses} < ${limit}` }),
    })
    .returning({ uses: couponCustomerUses.uses });
  if (used.length === 0 || (limit !== null && (used[0]?.uses ?? 0) > limit)) {
    throw unavailable(
      { couponCodes: 'shop.checkout.couponUsedByCustomer' },
      `The coupon ${coupon.code} has been used as often as one customer (account, mailbox or delivery address) may.`,
    );
  }
}

/** Every limited resource, in the lock order (holds.server.ts). */
export const LIMITED_RESOURCES: readonly LimitedResource[] = [
  stock,
  giftCardBalance,
  slot,
  dateStock,
  couponUses,
];

/** Takes everything the order takes, resource by resource in the lock order. */
export async function takeAll(tx: Transaction, takings: Takings, now: Date): Promise<void> {
  for (const resource of LIMITED_RESOURCES) await resource.take(tx, takings, now);
}

/** Gives back everything the order took, in the same lock order as taking. */
export async function giveBackAll(tx: Transaction, takings: Takings): Promise<void> {
  for (const resource of LIMITED_RESOURCES) await resource.giveBack(tx, takings);
}
