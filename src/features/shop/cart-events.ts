import { useEffect, useState } from 'react';
import { CART_EVENT, type CartEventDetail } from './api.ts';

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
