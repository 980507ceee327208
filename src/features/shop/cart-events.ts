import { useEffect, useState } from 'react';
import type { Cart } from './schemas.ts';

/**
 * The event that tells other widgets (the header's badge) that the cart changed. Here, not in
 * `api.ts`: the header listens for it on every page and needs none of the API client.
 */
export const CART_EVENT = 'shop:cart';

/** What `CART_EVENT` carries: the cart the server answered. */
export type CartEventDetail = Pick<Cart, 'lineItemCount' | 'lineItems' | 'total'>;

/**
 * The number of line items after the last cart change a shop widget made on this page (the buy
 * control, the cart page, the modal), or null before any: the header's badge follows the cart
 * without a reload.
 */
export function useShopCartCount(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const onCart = (event: Event) => {
      const detail = (event as CustomEvent<CartEventDetail>).detail;
      if (typeof detail?.lineItemCount === 'number') setCount(detail.lineItemCount);
    };
    window.addEventListener(CART_EVENT, onCart);
    return () => window.removeEventListener(CART_EVENT, onCart);
  }, []);
  return count;
}
