import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { ProductRow } from './cart-products.server.ts';
import { type PricingCoupon, type PricingLine, rateOn } from './pricing.ts';
import { cartCoupons, cartGiftCards, coupons, giftCards, vatRates } from './tables.ts';

/**
 * What a cart's price is made of: the VAT rates on a date, the cart's coupons and gift cards, and
 * its lines as the pricing takes them (decision 019).
 */

/** The VAT rate of a product on a date; gift cards are sold without VAT. */
export async function vatRatesOn(
  db: Database,
  date: string,
): Promise<(taxClass: string, isGiftCard: boolean) => number> {
  const rows = await db.select().from(vatRates);
  return (taxClass, isGiftCard) => {
    if (isGiftCard) return 0;
    const rate = rateOn(rows, taxClass, date);
    if (rate === null) throw new Error(`No VAT rate for class ${taxClass} on ${date}`);
    return rate;
  };
}

/** A coupon row as the cart keeps it: its rule, validity and limits. */
export type CouponRow = typeof coupons.$inferSelect;

/** Whether a coupon can be used at an instant: active, in its window, uses left. */
export function couponIsValid(coupon: CouponRow, now: Date): boolean {
  if (!coupon.active) return false;
  if (coupon.validFrom && coupon.validFrom > now) return false;
  if (coupon.validTo && coupon.validTo <= now) return false;
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return false;
  return true;
}

export function pricingCouponOf(coupon: CouponRow): PricingCoupon {
  return {
    code: coupon.code,
    percentOff: coupon.percentOff,
    amountOffCents: coupon.amountOffCents,
    productGroup: coupon.productGroup,
    minOrderCents: coupon.minOrderCents,
  };
}

/** The coupons entered into a cart, in the order they were entered. */
export async function couponsOfCart(db: Database, cartId: string): Promise<CouponRow[]> {
  const rows = await db
    .select({ coupon: coupons })
    .from(cartCoupons)
    .innerJoin(coupons, eq(coupons.id, cartCoupons.couponId))
    .where(eq(cartCoupons.cartId, cartId))
    .orderBy(asc(cartCoupons.addedAt), asc(coupons.code));
  return rows.map((row) => row.coupon);
}

/**
 * The gift cards entered into a cart that can still pay (balance left, not past `valid_to`), in
 * id order (the order placement takes them in), with their balances in cents; `forUpdate` takes
 * their row locks (inside the placement's transaction).
 */
export async function giftCardsOfCart(
  db: Database | Transaction,
  cartId: string,
  now: Date,
  { forUpdate = false } = {},
): Promise<{ id: number; balanceCents: number }[]> {
  const query = db
    .select({ id: giftCards.id, balanceCents: giftCards.balanceCents })
    .from(cartGiftCards)
    .innerJoin(giftCards, eq(giftCards.id, cartGiftCards.giftCardId))
    .where(
      and(
        eq(cartGiftCards.cartId, cartId),
        gt(giftCards.balanceCents, 0),
        sql`(${giftCards.validTo} is null or ${giftCards.validTo} > ${now})`,
      ),
    )
    .orderBy(asc(giftCards.id));
  return forUpdate ? query.for('update', { of: giftCards }) : query;
}

/** What gift cards pay of a total: their balances, at most the total. */
export function giftCardShare(balances: readonly { balanceCents: number }[], totalCents: number) {
  const sum = balances.reduce((total, card) => total + card.balanceCents, 0);
  return Math.min(sum, totalCents);
}

/**
 * Each card's part of a total, in the order given (the placement's: id order): a card pays its
 * balance or what is left, whichever is less. The parts add up to `giftCardShare`.
 */
export function giftCardParts<C extends { balanceCents: number }>(
  cards: readonly C[],
  totalCents: number,
): (C & { amountCents: number })[] {
  let left = Math.max(0, totalCents);
  return cards.map((card) => {
    const amountCents = Math.min(card.balanceCents, left);
    left -= amountCents;
    return { ...card, amountCents };
  });
}

/** A cart's contents as the pricing takes them, each line's VAT rate from `rateOf`. */
export function pricingLinesOf(
  contents: { product: ProductRow; quantity: number }[],
  rateOf: (taxClass: ProductRow['taxClass'], isGiftCard: boolean) => number,
): PricingLine[] {
  return contents.map(({ product, quantity }) => ({
    code: product.code,
    productGroup: product.productGroup,
    unitCents: product.priceCents ?? 0,
    quantity,
    vatBasisPoints: rateOf(product.taxClass, product.isGiftCard),
    isGiftCard: product.isGiftCard,
  }));
}
