import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import { AppError, Invalid } from '../../server/errors.ts';
import type { Lang } from '../../sites/types.ts';
import { type CouponRow, couponIsValid, couponsOfCart } from './cart-pricing.server.ts';
import { cartContents } from './cart-products.server.ts';
import {
  type CartKey,
  type CartTarget,
  cartIdOf,
  dropCheckoutHold,
  existingCartId,
  lockCartRow,
} from './cart-rows.server.ts';
import { COUPON_ERRORS, moneyString } from './schemas.ts';
import { cartCoupons, coupons } from './tables.ts';

/**
 * Coupon codes in the cart (spec §4, §5, §8; decision 019). A code is checked when entered
 * (exists, active, in its window, uses left, not entered twice, combines with the others, the
 * order reaches its minimum) and again at every answer of the cart; its use is counted when an
 * order is placed, not here.
 */

/** 409 naming the field `code`, like a validation problem but about the cart's state. */
function refused(key: string, detail: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError(409, 'coupon', 'Coupon refused', detail, {
    errors: { code: key },
    ...extra,
  });
}

async function couponByCode(db: Database, siteId: string, code: string) {
  const [row] = await db
    .select()
    .from(coupons)
    .where(and(eq(coupons.siteId, siteId), eq(coupons.code, code)));
  return row;
}

/** The refusals that depend on the cart: duplicate, combination, minimum order. */
function checkAgainst(entered: CouponRow[], coupon: CouponRow, goodsCents: number): void {
  if (entered.some((other) => other.id === coupon.id)) {
    throw refused(COUPON_ERRORS.duplicate, `The code ${coupon.code} is already in the cart.`);
  }
  if (entered.length > 0 && (!coupon.combinable || entered.some((other) => !other.combinable))) {
    throw refused(
      COUPON_ERRORS.notCombinable,
      `The code ${coupon.code} does not combine with the cart's other codes.`,
    );
  }
  if (goodsCents < coupon.minOrderCents) {
    throw refused(
      COUPON_ERRORS.minimumOrder,
      `The code ${coupon.code} needs an order of at least ${moneyString(coupon.minOrderCents)} €.`,
      { minOrder: moneyString(coupon.minOrderCents) },
    );
  }
}

/** What the cart's goods cost before discounts (gift cards do not count toward a minimum). */
async function goodsOf(db: Database, key: CartKey, cartId: string, lang: Lang): Promise<number> {
  const contents = await cartContents(db, key, cartId, lang);
  return contents
    .filter(({ product }) => !product.isGiftCard)
    .reduce((sum, { product, quantity }) => sum + (product.priceCents ?? 0) * quantity, 0);
}

/**
 * Enters a coupon code (already normalised by the schema). Every check runs before the session
 * is stored, so a refusal writes nothing; the checks run again inside the transaction with the
 * cart row locked, so two codes entered at once cannot both pass the combination rule.
 */
export async function addCoupon(
  db: Database,
  target: CartTarget,
  lang: Lang,
  code: string,
  now: Date = new Date(),
): Promise<CartKey> {
  const coupon = await couponByCode(db, target.siteId, code);
  if (!coupon || !couponIsValid(coupon, now)) {
    throw new Invalid(
      { code: COUPON_ERRORS.invalid },
      `The code ${code} is unknown or not valid now.`,
    );
  }
  const cartId = target.existing ? await existingCartId(db, target.existing) : undefined;
  const entered = cartId ? await couponsOfCart(db, cartId) : [];
  const goods = target.existing && cartId ? await goodsOf(db, target.existing, cartId, lang) : 0;
  checkAgainst(entered, coupon, goods);
  const key = await target.store();
  await db.transaction(async (tx: Transaction) => {
    // The upsert locks the cart row until the transaction ends: entries into one cart queue here.
    const lockedId = await cartIdOf(tx, key);
    checkAgainst(await couponsOfCart(tx, lockedId), coupon, await goodsOf(tx, key, lockedId, lang));
    await tx.insert(cartCoupons).values({ cartId: lockedId, couponId: coupon.id });
    await dropCheckoutHold(tx, lockedId);
  });
  return key;
}

/** Removes a coupon code; one the cart does not hold changes and stores nothing. */
export async function removeCoupon(
  db: Database,
  target: CartTarget,
  code: string,
): Promise<CartKey | null> {
  const cartId = target.existing ? await existingCartId(db, target.existing) : undefined;
  if (!cartId) return target.existing;
  const coupon = await couponByCode(db, target.siteId, code);
  if (!coupon) return target.existing;
  const removed = await db.transaction(async (tx) => {
    await lockCartRow(tx, cartId);
    const rows = await tx
      .delete(cartCoupons)
      .where(and(eq(cartCoupons.cartId, cartId), eq(cartCoupons.couponId, coupon.id)))
      .returning({ couponId: cartCoupons.couponId });
    if (rows.length > 0) await dropCheckoutHold(tx, cartId);
    return rows;
  });
  return removed.length > 0 ? target.store() : target.existing;
}
