import { xsrfToken } from '../../client/send.ts';
import { CART_EVENT, type CartEventDetail } from './cart-events.ts';
import type { Cart, DeliveryDates, ProductAvailability, ProductDetail } from './schemas.ts';
import { CART_API, CHECKOUT_API, PRODUCTS_API } from './values.ts';

/**
 * The browser side of the shop's API: the cart calls with the anti-forgery header, the product
 * detail, the delivery checks, the postal-code cookie and the event that tells other widgets (the
 * header's badge) that the cart changed.
 */

export { CART_EVENT, type CartEventDetail };
/** A postal code the delivery-area check accepted (detail: the code). */
export const POSTAL_CODE_EVENT = 'shop:postal-code';

export { xsrfToken };

/** A refusal of the API: its status and the message key of its `code` field, when it names one. */
export class ShopApiError extends Error {
  constructor(
    readonly status: number,
    readonly fieldError: string | undefined,
    readonly maxQuantity: number | undefined,
    readonly body: Record<string, unknown>,
  ) {
    super(`shop API answered ${status}`);
  }
}

async function answerOf<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as {
    errors?: Record<string, string>;
    maxQuantity?: number;
  };
  throw new ShopApiError(
    response.status,
    body.errors?.code ?? body.errors?.postalCode,
    body.maxQuantity,
    body as Record<string, unknown>,
  );
}

/** Tells the page's other widgets that the cart changed. */
export function announceCart(cart: Cart): void {
  window.dispatchEvent(new CustomEvent<CartEventDetail>(CART_EVENT, { detail: cart }));
}

async function cartChange(call: string, params: Record<string, string>): Promise<Cart> {
  const query = new URLSearchParams({ language: document.documentElement.lang || 'fi', ...params });
  const response = await fetch(`${CART_API}/${call}?${query}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'x-xsrf-token': xsrfToken() },
  });
  const cart = await answerOf<Cart>(response);
  announceCart(cart);
  return cart;
}

export const addToCart = (code: string, quantity: number) =>
  cartChange('add', { code, quantity: String(quantity) });
export const changeQuantity = (code: string, quantity: number) =>
  cartChange('changequantity', { code, quantity: String(quantity) });
export const addCouponCode = (code: string) => cartChange('addcouponcode', { code });
export const removeCouponCode = (code: string) => cartChange('removecouponcode', { code });
export const addGiftCard = (code: string) => cartChange('addgiftcard', { code });
/** By the id the cart answer lists the card with (the cart keeps no codes). */
export const removeGiftCard = (giftCardId: number) =>
  cartChange('removegiftcard', { giftCardId: String(giftCardId) });

export async function loadCart(): Promise<Cart> {
  const language = document.documentElement.lang || 'fi';
  return answerOf<Cart>(
    await fetch(`${CART_API}/load?language=${language}`, { credentials: 'same-origin' }),
  );
}

export async function fetchProduct(code: string): Promise<ProductDetail> {
  const language = document.documentElement.lang || 'fi';
  return answerOf<ProductDetail>(
    await fetch(`${PRODUCTS_API}/${encodeURIComponent(code)}?language=${language}`, {
      credentials: 'same-origin',
    }),
  );
}

export async function checkAreaAvailability(postalCode: string): Promise<boolean> {
  const query = new URLSearchParams({ postalCode });
  const answer = await answerOf<{ isAvailable: boolean }>(
    await fetch(`${CHECKOUT_API}/availability?${query}`, { credentials: 'same-origin' }),
  );
  return answer.isAvailable;
}

export async function productDeliveryAvailability(
  productId: number,
  postalCode: string,
): Promise<ProductAvailability> {
  const query = new URLSearchParams({ productId: String(productId), postalCode });
  return answerOf<ProductAvailability>(
    await fetch(`${CHECKOUT_API}/delivery-availability?${query}`, { credentials: 'same-origin' }),
  );
}

/** The dates the session's cart can be delivered to the postal code (with why there are none). */
export async function cartDeliveryDates(postalCode: string): Promise<DeliveryDates> {
  const query = new URLSearchParams({
    postalCode,
    language: document.documentElement.lang || 'fi',
  });
  return answerOf<DeliveryDates>(
    await fetch(`${CHECKOUT_API}/delivery?${query}`, { credentials: 'same-origin' }),
  );
}

/** The visitor's postal code, remembered for 7 days (spec §9) in the cookie `lkPostalCode`. */
export const POSTAL_CODE_COOKIE = 'lkPostalCode';
const POSTAL_CODE_DAYS = 7;

export function rememberedPostalCode(): string {
  const match = new RegExp(`(?:^|;\\s*)${POSTAL_CODE_COOKIE}=([^;]*)`).exec(document.cookie);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

export function rememberPostalCode(postalCode: string): void {
  const maxAge = POSTAL_CODE_DAYS * 24 * 60 * 60;
  const secure = location.protocol === 'https:' ? '; secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the shop serves
  document.cookie = `${POSTAL_CODE_COOKIE}=${encodeURIComponent(postalCode)}; max-age=${maxAge}; path=/; samesite=lax${secure}`;
}
