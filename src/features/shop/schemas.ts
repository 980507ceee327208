import { z } from 'zod';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';

/**
 * The shop cart's contract: the query parameters of `/api/v1/lihakauppa/shoppingcart/*` and the
 * cart they answer (spec shop-and-widgets §3, §7). Browser-safe: the shop's widgets use it too.
 */

export const CART_API = `/api/v1/${SHOP_SITE_ID}/shoppingcart`;

/** Quantity limits of one line item (spec §5: min 1, max 99, step 1). */
export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 99;

const INVALID = 'validation.invalid';

/** `se` travels for Swedish as elsewhere in the contract; `sv` is taken too. */
const languageSchema = z.enum(['fi', 'sv', 'se', 'en'], { error: INVALID });

export function langOfCartLanguage(language: z.infer<typeof languageSchema>): Lang {
  return language === 'se' ? 'sv' : language;
}

/**
 * One query value: a repeated parameter (an array) is invalid, not missing. Zod reports no input
 * with a type issue, which the error mapper would take for a missing field.
 */
const single = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (Array.isArray(value) ? '' : value), schema);

/** Product codes are short identifiers (digits in the catalogue). */
const codeSchema = single(
  z
    .string({ error: INVALID })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, INVALID),
);

/** Whole numbers only: `1.5`, `1e1` and `abc` are invalid rather than rounded or coerced. */
const quantity = (min: number) =>
  single(
    z
      .string({ error: INVALID })
      .regex(/^\d{1,3}$/, INVALID)
      .transform(Number)
      .pipe(z.number().min(min, INVALID).max(MAX_QUANTITY, INVALID)),
  );

export const loadQuerySchema = z.object({ language: languageSchema.default('fi') });

/** `add`: the quantity is added to what the cart already has of the code. */
export const addQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: codeSchema,
  quantity: quantity(MIN_QUANTITY).default(1),
});

/** `changequantity`: the quantity replaces the line's; 0 removes the line (spec §4). */
export const changeQuantityQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: codeSchema,
  quantity: quantity(0),
});

export type LoadQuery = z.infer<typeof loadQuerySchema>;
export type AddQuery = z.infer<typeof addQuerySchema>;
export type ChangeQuantityQuery = z.infer<typeof changeQuantityQuerySchema>;

/** Money as the contract carries it: euros with a decimal comma, no symbol (`12,90`, `0,00`). */
const money = z.string().regex(/^-?\d+,\d{2}$/);

export const lineItemSchema = z
  .object({
    code: z.string(),
    productId: z.number().int(),
    name: z.string(),
    /** The product group. */
    category: z.string(),
    quantity: z.number().int().min(MIN_QUANTITY).max(MAX_QUANTITY),
    linePrice: money,
    linePriceWithoutDiscounts: money,
    imageUrl: z.string().nullable(),
    isGiftCard: z.boolean(),
    /** The product page, for the cart page's links. */
    url: z.string(),
    unitPrice: money,
    /** The most the line may hold: the stock when it is below the quantity limit. */
    maxQuantity: z.number().int(),
  })
  .meta({ id: 'LineItem' });

export const cartSchema = z
  .object({
    loading: z.boolean(),
    currency: z.literal('EUR'),
    currencySymbol: z.literal('€'),
    /** Tax classes and rates are data that arrive with the checkout; until then not computed. */
    vatTotal: money.nullable(),
    vatPercent: z.number().nullable(),
    orderDiscount: money,
    total: money,
    subTotal: money,
    usedGiftCardAmount: money,
    shippingTotal: money,
    shippingTotalWithoutDiscounts: money,
    warnings: z.array(z.string()),
    checkoutWarnings: z.array(z.string()),
    /** The number of line items (distinct products), not the sum of their quantities. */
    lineItemCount: z.number().int().min(0),
    lineItems: z.array(lineItemSchema),
    couponCodes: z.array(z.string()),
    handlingTotal: money,
    hasGiftCardsOnly: z.boolean(),
    shippingMethodId: z.string().nullable(),
    paymentMethodCode: z.string().nullable(),
    isEditable: z.boolean(),
    usedLoyaltyCouponAmount: money,
    usedRefundCodeAmount: money,
  })
  .meta({ id: 'Cart' });

export type LineItem = z.infer<typeof lineItemSchema>;
export type Cart = z.infer<typeof cartSchema>;

/** Cents as the contract's money string: 1290 → `12,90`. */
export function moneyString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}
