import { useEffect } from 'react';
import type { AnalyticsItem } from '../analytics.ts';

/** The `purchase` event of a paid order (spec §7, GA4's shape), as the confirmation page renders it. */
export interface PurchaseData {
  transaction_id: string;
  currency: 'EUR';
  value: number;
  tax: number;
  shipping: number;
  coupon?: string;
  payment_type: string;
  items: AnalyticsItem[];
}

/** The session-storage key that marks an order's purchase as pushed. */
export const purchaseKey = (transactionId: string) => `kattaus-purchase-${transactionId}`;

/**
 * Pushes the order's `purchase` event into the tag manager's data layer once: a reload or a
 * return to the page in the same browser session finds the key and pushes nothing. Shows nothing.
 */
export function PurchaseEvent({ purchase }: { purchase: PurchaseData }) {
  useEffect(() => {
    const key = purchaseKey(purchase.transaction_id);
    try {
      if (window.sessionStorage.getItem(key)) return;
      window.sessionStorage.setItem(key, '1');
    } catch {
      // Without session storage the event is still pushed, at most once per page view.
    }
    window.dataLayer ??= [];
    // GA4 keeps the last `ecommerce` object: clear it so another event's items never leak in.
    window.dataLayer.push({ ecommerce: null });
    window.dataLayer.push({ event: 'purchase', ecommerce: purchase });
  }, [purchase]);
  return null;
}
