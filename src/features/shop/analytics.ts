import type { Cart, LineItem } from './schemas.ts';
import { centsOfMoney } from './values.ts';

/**
 * The shop's e-commerce events for the tag manager's data layer, in GA4's shape (spec §7):
 * `view_item`, `add_to_cart`, `remove_from_cart`, `view_cart`; currency EUR, prices in euros.
 */

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

export interface AnalyticsItem {
  item_id: string;
  item_name: string;
  item_category?: string;
  price: number;
  quantity: number;
  coupon?: string;
  discount?: number;
}

export type EcommerceEvent =
  | 'view_item'
  | 'add_to_cart'
  | 'remove_from_cart'
  | 'view_cart'
  | 'begin_checkout'
  | 'add_shipping_info'
  | 'add_payment_info';

/** Money of the contract (`12,90`) as euros (12.9); 0 for anything else. */
export function euros(money: string | null | undefined): number {
  const cents = money ? centsOfMoney(money) : null;
  return cents === null ? 0 : cents / 100;
}

/** A product the visitor sees: its price per piece and, on sale, the discount per piece. */
export function productItem(product: {
  code: string;
  name: string;
  category?: string | null;
  price: string | null;
  svhPrice?: string | null;
  quantity?: number;
  coupon?: string;
}): AnalyticsItem {
  const price = euros(product.price);
  const before = euros(product.svhPrice);
  return {
    item_id: product.code,
    item_name: product.name,
    ...(product.category ? { item_category: product.category } : {}),
    price,
    quantity: product.quantity ?? 1,
    ...(product.coupon ? { coupon: product.coupon } : {}),
    ...(before > price ? { discount: Math.round((before - price) * 100) / 100 } : {}),
  };
}

/** A line of the cart: its price per piece and the discount the cart gives it. */
export function lineItem(
  line: LineItem,
  coupons: string[],
  quantity = line.quantity,
): AnalyticsItem {
  const unit = euros(line.unitPrice);
  const discountCents =
    (centsOfMoney(line.linePriceWithoutDiscounts) ?? 0) - (centsOfMoney(line.linePrice) ?? 0);
  return {
    item_id: line.code,
    item_name: line.name,
    ...(line.category ? { item_category: line.category } : {}),
    price: unit,
    quantity,
    ...(coupons.length > 0 ? { coupon: coupons.join(',') } : {}),
    ...(discountCents > 0 ? { discount: Math.round(discountCents / line.quantity) / 100 } : {}),
  };
}

/** An event's own fields beside the items: `coupon`, `shipping_tier`, `payment_type`, … */
export type EcommerceExtra = Record<string, string | number>;

export function pushEcommerce(
  event: EcommerceEvent,
  items: AnalyticsItem[],
  extra: EcommerceExtra = {},
): void {
  const value =
    Math.round(items.reduce((sum, item) => sum + item.price * item.quantity, 0) * 100) / 100;
  window.dataLayer ??= [];
  // GA4 keeps the last `ecommerce` object: clear it so one event's items never leak into the next.
  window.dataLayer.push({ ecommerce: null });
  window.dataLayer.push({ event, ecommerce: { currency: 'EUR', value, ...extra, items } });
}

export function pushViewCart(cart: Cart): void {
  pushEcommerce(
    'view_cart',
    cart.lineItems.map((line) => lineItem(line, cart.couponCodes)),
  );
}

/**
 * The checkout's events (issue 13): `begin_checkout` on entering the checkout,
 * `add_shipping_info` on choosing the delivery time (`shipping_tier`: its label),
 * `add_payment_info` on the payment step (`payment_type`). The value is the cart's total.
 */
export function pushCheckoutEvent(
  event: 'begin_checkout' | 'add_shipping_info' | 'add_payment_info',
  cart: Cart,
  extra: EcommerceExtra = {},
): void {
  pushEcommerce(
    event,
    cart.lineItems.map((line) => lineItem(line, cart.couponCodes)),
    {
      value: euros(cart.total),
      ...(cart.couponCodes.length > 0 ? { coupon: cart.couponCodes.join(',') } : {}),
      ...extra,
    },
  );
}
