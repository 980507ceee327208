import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { formatPrice } from '../../i18n/format.ts';
import { imageUrl } from '../../images/presets.ts';
import { sessions } from '../../server/tables.ts';
import type { Lang } from '../../sites/types.ts';
import { products } from '../content/index.server.ts';
import {
  couponIsValid,
  couponsOfCart,
  giftCardParts,
  giftCardShare,
  giftCardsOfCart,
  pricingCouponOf,
  pricingLinesOf,
  vatRatesOn,
} from './cart-pricing.server.ts';
import { cartContents, limitOf } from './cart-products.server.ts';
import { type CartKey, existingCartId } from './cart-rows.server.ts';
import { helsinkiDate } from './dates.ts';
import { percentOfBasisPoints, priceCart } from './pricing.ts';
import { type Cart, type LineItem, moneyString, type VatLine } from './schemas.ts';
import { cartLineItems, carts, checkoutHolds } from './tables.ts';

/**
 * The shop cart: one per session and site, its line items keyed by product code (decision 014).
 * Prices, names and stock are read from the catalogue at every answer, so a cart never shows a
 * stale price; the line items hold only code and quantity.
 */

/**
 * Whether a cart holds a delivery time that still counts (decision 027). Such a cart is what the
 * checkout's payment step stands on, so it is not editable (decision 101).
 */
async function holdsDeliveryTime(db: Database, cartId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutHolds.id })
    .from(checkoutHolds)
    .where(and(eq(checkoutHolds.cartId, cartId), gt(checkoutHolds.expiresAt, sql`now()`)))
    .limit(1);
  return row !== undefined;
}

const emptyMoney = moneyString(0);

function emptyCart(): Cart {
  return {
    loading: false,
    currency: 'EUR',
    currencySymbol: '€',
    vatTotal: emptyMoney,
    vatPercent: null,
    vatBreakdown: [],
    orderDiscount: emptyMoney,
    total: emptyMoney,
    subTotal: emptyMoney,
    usedGiftCardAmount: emptyMoney,
    giftCards: [],
    shippingTotal: emptyMoney,
    shippingTotalWithoutDiscounts: emptyMoney,
    warnings: [],
    checkoutWarnings: [],
    lineItemCount: 0,
    lineItems: [],
    couponCodes: [],
    handlingTotal: emptyMoney,
    hasGiftCardsOnly: false,
    shippingMethodId: null,
    paymentMethodCode: null,
    isEditable: true,
    usedLoyaltyCouponAmount: emptyMoney,
    usedRefundCodeAmount: emptyMoney,
  };
}

/**
 * The cart as the contract answers it, in the given language; empty when there is none. It is
 * not editable while it holds a delivery time (decision 101). Prices
 * come from the catalogue, VAT rates from `vat_rates` on today's Helsinki date, discounts from the
 * cart's coupons through `priceCart` (decision 019). A coupon that has stopped being valid since
 * it was entered is left out (the spec: a code the cart does not return is invalid) with a
 * warning; one the order is below the minimum of stays, takes nothing off, and says so.
 */
export async function loadCart(
  db: Database,
  key: CartKey | null,
  lang: Lang,
  now: Date = new Date(),
): Promise<Cart> {
  const cartId = key ? await existingCartId(db, key) : undefined;
  if (!key || !cartId) return emptyCart();
  const t = serverT(lang);
  const contents = await cartContents(db, key, cartId, lang);
  const rateOf = await vatRatesOn(db, helsinkiDate(now));
  const entered = await couponsOfCart(db, cartId);
  const warnings: string[] = [];
  const valid = entered.filter((coupon) => {
    const ok = couponIsValid(coupon, now);
    if (!ok) warnings.push(`${coupon.code}: ${t('shop.coupon.invalid')}`);
    return ok;
  });
  const priced = priceCart(pricingLinesOf(contents, rateOf), valid.map(pricingCouponOf));
  for (const coupon of priced.belowMinimum) {
    warnings.push(
      `${coupon.code}: ${t('shop.coupon.minimumOrder', { amount: formatPrice(coupon.minOrderCents, '').trim() })}`,
    );
  }
  const cards = giftCardParts(await giftCardsOfCart(db, cartId, now), priced.totalCents);
  const items: LineItem[] = contents.map(({ product, quantity }, i) => {
    const line = priced.lines[i];
    const imageId = product.imageIds[0];
    return {
      code: product.code,
      productId: product.id,
      name: product.name,
      category: product.productGroup ?? '',
      quantity,
      linePrice: moneyString(line?.lineCents ?? 0),
      linePriceWithoutDiscounts: moneyString(line?.grossCents ?? 0),
      imageUrl:
        imageId === undefined
          ? null
          : imageUrl({ id: imageId, slug: product.name }, 'product-thumbnail-medium'),
      isGiftCard: product.isGiftCard,
      url: product.path,
      unitPrice: moneyString(product.priceCents ?? 0),
      maxQuantity: limitOf(product),
      vatPercent: percentOfBasisPoints(line?.vatBasisPoints ?? 0),
    };
  });
  const breakdown: VatLine[] = priced.vat.map((share) => ({
    percent: percentOfBasisPoints(share.basisPoints),
    gross: moneyString(share.grossCents),
    vat: moneyString(share.vatCents),
    net: moneyString(share.netCents),
  }));
  const main = priced.vat
    .filter((share) => share.basisPoints > 0)
    .reduce<(typeof priced.vat)[number] | null>(
      (best, share) => (best && best.grossCents >= share.grossCents ? best : share),
      null,
    );
  return {
    ...emptyCart(),
    vatTotal: moneyString(priced.vatTotalCents),
    vatPercent: main ? percentOfBasisPoints(main.basisPoints) : null,
    vatBreakdown: breakdown,
    orderDiscount: moneyString(priced.orderDiscountCents),
    total: moneyString(priced.totalCents),
    subTotal: moneyString(priced.subTotalCents),
    shippingTotal: moneyString(priced.shippingCents),
    shippingTotalWithoutDiscounts: moneyString(priced.shippingCents),
    warnings,
    lineItemCount: items.length,
    lineItems: items,
    couponCodes: valid.map((coupon) => coupon.code),
    usedGiftCardAmount: moneyString(giftCardShare(cards, priced.totalCents)),
    giftCards: cards.map((card) => ({
      id: card.id,
      balance: moneyString(card.balanceCents),
      amount: moneyString(card.amountCents),
    })),
    hasGiftCardsOnly: items.length > 0 && items.every((item) => item.isGiftCard),
    isEditable: !(await holdsDeliveryTime(db, cartId)),
  };
}

/**
 * The header's count: the same line items `loadCart` answers (products still for sale in the
 * language), counted in one statement.
 */
export async function lineItemCount(db: Database, key: CartKey, lang: Lang): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(cartLineItems)
    .innerJoin(carts, eq(carts.id, cartLineItems.cartId))
    .innerJoin(sessions, eq(sessions.id, carts.sessionId))
    .where(
      and(
        eq(carts.sessionId, key.sessionId),
        eq(carts.siteId, key.siteId),
        gt(sessions.expiresAt, sql`now()`),
        sql`exists (select 1 from ${products} p where p.site_id = ${carts.siteId}
          and p.lang = ${lang} and p.code = ${cartLineItems.code} and p.price_cents is not null)`,
      ),
    );
  return row?.n ?? 0;
}
