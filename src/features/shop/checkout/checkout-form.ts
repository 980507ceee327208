import { z } from 'zod';
import type { MessageKey } from '../../../i18n/fi.ts';

/**
 * The checkout page (`/kassa`, decision 029) and its plain forms: what the page posts to `/kassa`
 * with or without script, and the one-time notice the page shows after a refused post (a signed
 * cookie, as the cart page's of decision 022). Browser-safe.
 */

export const CHECKOUT_PAGE_PATH = '/kassa';
/** The checkout's steps (spec §2): the hash of `/kassa`. */
export const STEPS = { delivery: 'toimitus', payment: 'maksu' } as const;
export type Step = (typeof STEPS)[keyof typeof STEPS];
/** The query parameter with the delivery postal code (spec §2). */
export const POSTAL_CODE_PARAM = 'postinumero';
/** The payment return sends a cancelled payment back with `maksu=peruttu` (decision 024). */
export const PAYMENT_PARAM = 'maksu';
export const PAYMENT_CANCELLED = 'peruttu';

/** The form the order is confirmed with (spec §2, §7). */
export const PURCHASE_FORM_ID = 'purchase-form';
export const PAYMENT_METHOD_FIELD = 'PaymentMethodCode';
export const CHECKOUT_ID_FIELD = 'checkoutId';
/**
 * The cart's total and what its gift cards pay, as the page showed them when the shopper
 * confirmed: the order charges exactly that or is refused (decision 080).
 */
export const TOTAL_FIELD = 'total';
export const GIFT_CARD_AMOUNT_FIELD = 'usedGiftCardAmount';
export const ACTION_FIELD = 'action';
/** The posts: take the delivery time's hold, or place the order and go to pay. */
export const ACTIONS = { hold: 'hold', purchase: 'purchase' } as const;
/** Without script one select carries both: `<date> <time>` (`2026-03-02 08:00-12:00`). */
export const SLOT_FIELD = 'slot';
export const DATE_FIELD = 'date';
export const TIME_FIELD = 'time';
export const BILLING_FIELD = 'useDeliveryAddressForBilling';

/** `/kassa?postinumero=00100#toimitus` */
export function checkoutUrl(postalCode: string, step: Step = STEPS.delivery): string {
  return `${CHECKOUT_PAGE_PATH}?${new URLSearchParams({ [POSTAL_CODE_PARAM]: postalCode })}#${step}`;
}

/** The message keys a refused post can show; nothing else is read back from the cookie. */
export const checkoutNoticeKeys = [
  'checkout.error.chooseDate',
  'checkout.error.chooseTime',
  'checkout.error.slotFull',
  'checkout.error.soldOut',
  'checkout.error.holdExpired',
  'checkout.error.postalCode',
  'checkout.error.address',
  'checkout.error.general',
  'checkout.error.forbidden',
  'checkout.error.orderRefused',
  'checkout.error.giftCardChanged',
  'checkout.error.totalChanged',
  'checkout.error.couponUsedUp',
  'checkout.error.busy',
  'checkout.error.verifyEmail',
  'checkout.error.couponUsedByCustomer',
] as const satisfies readonly MessageKey[];

export const checkoutNoticeSchema = z.object({
  step: z.enum([STEPS.delivery, STEPS.payment]),
  /** Field (or `_` for the form) → message key. */
  errors: z.record(z.string().max(60), z.enum(checkoutNoticeKeys)),
  /** Product names a sold-out refusal names. */
  products: z.array(z.string().max(200)).max(100).optional(),
  /** What was chosen, kept for the form. */
  typed: z
    .object({
      date: z.string().max(10).optional(),
      time: z.string().max(11).optional(),
      useDeliveryAddressForBilling: z.boolean().optional(),
    })
    .optional(),
});
export type CheckoutNotice = z.infer<typeof checkoutNoticeSchema>;
