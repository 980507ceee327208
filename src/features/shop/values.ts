import { SHOP_SITE_ID } from '../../sites/shop-id.ts';

/**
 * The shop contract's plain values: API paths, limits, message keys and the normalisation of
 * money, coupon codes and postal codes. Without zod, so the widgets on every page (the header's
 * cart badge, the buy control) do not load the schemas; `schemas.ts` re-exports all of it.
 */

export const CART_API = `/api/v1/${SHOP_SITE_ID}/shoppingcart`;

/** Quantity limits of one line item (spec §5: min 1, max 99, step 1). */
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 99;

/** Cents as the contract's money string: 1290 → `12,90`. */
export function moneyString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** Euros with a decimal comma (`12,90`) → cents; null for anything else. */
export function centsOfMoney(value: string): number | null {
  const match = /^(-?)(\d+),(\d{2})$/.exec(value);
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -cents : cents;
}

/** Coupon codes are letters, digits, `-` and `_`; compared without case (stored upper case). */
export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{1,40}$/;

export function normaliseCouponCode(code: string): string {
  return code.trim().toUpperCase();
}

export const PRODUCTS_API = '/api/products';

export const CHECKOUT_API = `/api/v1/${SHOP_SITE_ID}/checkout`;

/** Postal codes: trimmed, inner spaces dropped, upper case; must end in exactly five digits. */
export function normalisePostalCode(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export const POSTAL_CODE_PATTERN = /^(?:.*\D)?\d{5}$/;

/** What is left to pay of a cart after its gift cards, in cents. */
export function payableCents(cart: { total: string; usedGiftCardAmount: string }): number {
  return Math.max(
    0,
    (centsOfMoney(cart.total) ?? 0) - (centsOfMoney(cart.usedGiftCardAmount) ?? 0),
  );
}

/** Where the cart page's plain forms post (decision 022), and the buy control's without script. */
export const CART_FORM_PATH = '/ostoskori';
/** The plain form's field naming what the post asks for (`update`, `add:<code>`, …). */
export const ACTION_FIELD = 'action';
/** The buy control's quantity field, posted with `add:<code>` (decision 055). */
export const ADD_QUANTITY_FIELD = 'quantity';
/** The buy control's plain-form action for a product. */
export const addAction = (code: string) => `add:${code}`;

/** Below this many, the exact number is shown; from it on, '5+' (spec §9). */
export const FEW_IN_STOCK = 5;
