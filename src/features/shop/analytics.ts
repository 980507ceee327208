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

/** What a GA4 item is made of, whether it is a product shown or a line of the cart. */
export interface ItemSource {
  code: string;
  name: string;
  /** The product group; null or '' leaves `item_category` out. */
  category: string | null;
  /** The price of one piece, in cents. */
  unitCents: number;
  quantity: number;
  /** What one piece is off, in cents (0: none). */
  discountCents: number;
  coupons: readonly string[];
}

/**
 * The one mapper of GA4 items: every e-commerce event's items are made here, so one product
 * reads the same in each event, whichever widget sent it.
 */
export function ga4Item(source: ItemSource): AnalyticsItem {
  return {
    item_id: source.code,
    item_name: source.name,
    ...(source.category ? { item_category: source.category } : {}),
    price: source.unitCents / 100,
    quantity: source.quantity,
    ...(source.coupons.length > 0 ? { coupon: source.coupons.join(',') } : {}),
    ...(source.discountCents > 0 ? { discount: Math.round(source.discountCents) / 100 } : {}),
  };
}

/** A product the visitor sees (`view_item`): its price per piece and, on sale, the discount. */
export function productItem(product: {
  code: string;
  name: string;
  category?: string | null;
  price: string | null;
  svhPrice?: string | null;
  quantity?: number;
}): AnalyticsItem {
  const unitCents = Math.round(euros(product.price) * 100);
  const beforeCents = Math.round(euros(product.svhPrice) * 100);
  return ga4Item({
    code: product.code,
    name: product.name,
    category: product.category ?? null,
    unitCents,
    quantity: product.quantity ?? 1,
    discountCents: Math.max(0, beforeCents - unitCents),
    coupons: [],
  });
}

/**
 * A line of the cart (`add_to_cart`, `remove_from_cart`, `view_cart`, the checkout's events):
 * its price per piece and the discount the cart gives each piece. `quantity` is what the event
 * is about (the pieces added or removed), the line's own quantity by default.
 */
export function lineItem(
  line: LineItem,
  coupons: readonly string[],
  quantity = line.quantity,
): AnalyticsItem {
  const discountCents =
    (centsOfMoney(line.linePriceWithoutDiscounts) ?? 0) - (centsOfMoney(line.linePrice) ?? 0);
  return ga4Item({
    code: line.code,
    name: line.name,
    category: line.category,
    unitCents: centsOfMoney(line.unitPrice) ?? 0,
    quantity,
    discountCents: line.quantity > 0 ? discountCents / line.quantity : 0,
    coupons,
  });
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
