import { z } from 'zod';
import {
  CART_API,
  CHECKOUT_API,
  cartSchema,
  normalisePostalCode,
  POSTAL_CODE_INVALID,
  POSTAL_CODE_PATTERN,
} from '../schemas.ts';

/**
 * The checkout's contract (shop3 checkout contract items 2–4; decision 027): the hold of a
 * delivery time, the order placed from it, and gift cards in the cart. Browser-safe.
 */

export { CHECKOUT_API };
export const CHECKOUT_HOLD_API = `${CHECKOUT_API}/hold`;
export const CHECKOUT_ORDER_API = `${CHECKOUT_API}/order`;
export const GIFT_CARD_ADD_API = `${CART_API}/addgiftcard`;
export const GIFT_CARD_REMOVE_API = `${CART_API}/removegiftcard`;

const INVALID = 'validation.invalid';
const REQUIRED = 'validation.required';

const languageSchema = z.enum(['fi', 'sv', 'se', 'en'], { error: INVALID });
export const checkoutQuerySchema = z.object({ language: languageSchema.default('fi') });

export const checkoutHoldSchema = z
  .object({
    /** The checkout's idempotency key: send it with the order. */
    checkoutId: z.string(),
    /** Null, as `date` and `time`, for a cart of gift cards only: nothing is delivered. */
    postalCode: z.string().nullable(),
    /** `YYYY-MM-DD`. */
    date: z.string().nullable(),
    /** `HH:MM-HH:MM`, the value of the delivery API's time. */
    time: z.string().nullable(),
    /** `ti 24.11.2026 klo 8.00–12.00`, or how gift cards come when nothing is delivered. */
    label: z.string(),
    /** When the hold stops counting (ISO 8601). */
    expiresAt: z.string(),
    useDeliveryAddressForBilling: z.boolean(),
  })
  .meta({ id: 'CheckoutHold' });
export type CheckoutHold = z.infer<typeof checkoutHoldSchema>;

export const checkoutSchema = z
  .object({ cart: cartSchema, hold: checkoutHoldSchema.nullable() })
  .meta({ id: 'Checkout' });
export type Checkout = z.infer<typeof checkoutSchema>;

const postalCodeSchema = z
  .string({ error: REQUIRED })
  .transform(normalisePostalCode)
  .pipe(z.string().max(20, POSTAL_CODE_INVALID).regex(POSTAL_CODE_PATTERN, POSTAL_CODE_INVALID));

/**
 * `POST /checkout/hold`: the chosen delivery time. Unknown fields are refused. The postal code,
 * date and time are required (400 naming each missing one) unless the cart holds gift cards
 * only, which are mailed: then they are not needed and not used.
 */
export const holdBodySchema = z.strictObject(
  {
    postalCode: postalCodeSchema.optional(),
    date: z
      .string({ error: REQUIRED })
      .regex(/^\d{4}-\d{2}-\d{2}$/, INVALID)
      .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), INVALID)
      .optional(),
    time: z
      .string({ error: REQUIRED })
      .regex(/^[0-2]\d:[0-5]\d-[0-2]\d:[0-5]\d$/, INVALID)
      .optional(),
    useDeliveryAddressForBilling: z.boolean({ error: INVALID }).default(true),
  },
  { error: INVALID },
);
export type HoldBody = z.infer<typeof holdBodySchema>;

/** Payment method codes of the providers: letters and digits (FI50, FI54, nordea…). */
export const PAYMENT_METHOD_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/** Money as the cart answers it: euros with a decimal comma (`40,79`). */
export const MONEY_PATTERN = /^\d{1,9},\d{2}$/;
const moneySchema = z.string({ error: REQUIRED }).regex(MONEY_PATTERN, INVALID);

/**
 * `POST /checkout/order`: the hold's id, the payment method, and what the checkout showed when
 * the shopper confirmed: the cart's `total` and `usedGiftCardAmount`, as the cart answered them.
 * The order charges exactly that or is refused (409, decision 080).
 */
export const orderBodySchema = z.strictObject(
  {
    checkoutId: z.uuid({ error: INVALID }),
    PaymentMethodCode: z.string({ error: REQUIRED }).regex(PAYMENT_METHOD_PATTERN, INVALID),
    total: moneySchema,
    usedGiftCardAmount: moneySchema,
  },
  { error: INVALID },
);
export type OrderBody = z.infer<typeof orderBodySchema>;

export const orderAnswerSchema = z
  .object({
    orderId: z.string(),
    orderNumber: z.number().int(),
    status: z.enum(['pending_payment', 'paid', 'cancelled', 'expired']),
    /** Where to send the browser: the payment page, or the confirmation when nothing is to pay. */
    next: z.string(),
  })
  .meta({ id: 'PlacedOrder' });
export type OrderAnswer = z.infer<typeof orderAnswerSchema>;

/** Message keys of gift card refusals; the texts are in src/i18n. */
export const GIFT_CARD_ERRORS = {
  empty: 'shop.giftCard.empty',
  invalid: 'shop.giftCard.invalid',
  duplicate: 'shop.giftCard.duplicate',
  tooMany: 'shop.giftCard.tooMany',
  general: 'shop.giftCard.error',
} as const;

/** Gift card codes: letters, digits and `-`, compared without case (hashed upper case). */
export const GIFT_CARD_CODE_PATTERN = /^[A-Z0-9-]{4,40}$/;
export const normaliseGiftCardCode = (code: string) => code.trim().toUpperCase();

/**
 * A code as the shop may show it back: only its last four characters (`•••• 5000`), so a
 * screen, a screenshot or the notice of a plain-form post never holds a whole code.
 */
export function maskGiftCardCode(code: string): string {
  return `•••• ${normaliseGiftCardCode(code).slice(-4)}`;
}

const giftCardCodeSchema = z.preprocess(
  (value) => (Array.isArray(value) ? '' : value),
  z
    .string({ error: GIFT_CARD_ERRORS.empty })
    .transform(normaliseGiftCardCode)
    .pipe(
      z
        .string()
        .min(1, GIFT_CARD_ERRORS.empty)
        .regex(GIFT_CARD_CODE_PATTERN, GIFT_CARD_ERRORS.invalid),
    ),
);

export const giftCardQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: giftCardCodeSchema,
});

/**
 * `removegiftcard`: the card by its `code`, or by `giftCardId`, the `id` the cart answer lists it
 * with (the cart keeps no codes, so a page loaded later removes a card by its id). One of them is
 * needed; without either the refusal names `code`.
 */
export const giftCardRemoveQuerySchema = z
  .object({
    language: languageSchema.default('fi'),
    code: giftCardCodeSchema.optional(),
    giftCardId: z.preprocess(
      (value) => (Array.isArray(value) ? '' : value),
      z
        .string({ error: INVALID })
        .regex(/^\d{1,9}$/, INVALID)
        .transform(Number)
        .optional(),
    ),
  })
  .superRefine((query, ctx) => {
    if (query.code === undefined && query.giftCardId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: GIFT_CARD_ERRORS.empty });
    }
  });
