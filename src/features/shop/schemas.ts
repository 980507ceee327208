import { z } from 'zod';
import type { Lang } from '../../sites/types.ts';
import { COUPON_ERRORS, POSTAL_CODE_INVALID } from './message-keys.ts';
import {
  COUPON_CODE_PATTERN,
  MAX_QUANTITY,
  MIN_QUANTITY,
  normaliseCouponCode,
  normalisePostalCode,
  POSTAL_CODE_PATTERN,
} from './values.ts';

/**
 * The shop cart's contract: the query parameters of `/api/v1/lihakauppa/shoppingcart/*` and the
 * cart they answer (spec shop-and-widgets §3, §7). Browser-safe: the shop's widgets use it too.
 */

export * from './message-keys.ts';
export * from './values.ts';

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
const quantity = (min: number, max = MAX_QUANTITY) =>
  single(
    z
      .string({ error: INVALID })
      .regex(/^\d{1,3}$/, INVALID)
      .transform(Number)
      .pipe(z.number().min(min, INVALID).max(max, INVALID)),
  );

/** What the cart page's quantity field takes: three digits (decision 100). */
export const TYPED_QUANTITY_MAX = 999;

export const loadQuerySchema = z.object({ language: languageSchema.default('fi') });

/** `add`: the quantity is added to what the cart already has of the code. */
export const addQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: codeSchema,
  quantity: quantity(MIN_QUANTITY).default(1),
});

/**
 * `changequantity`: the quantity replaces the line's; 0 removes the line (spec §4). More than the
 * line may hold (its stock, or 99) sets what it may hold, and the answer's `warnings` says so
 * (decision 100); up to three digits are taken, as typed in the cart page's field.
 */
export const changeQuantityQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: codeSchema,
  quantity: quantity(0, TYPED_QUANTITY_MAX),
});

export type LoadQuery = z.infer<typeof loadQuerySchema>;
export type AddQuery = z.infer<typeof addQuerySchema>;
export type ChangeQuantityQuery = z.infer<typeof changeQuantityQuerySchema>;

/** Money as the contract carries it: euros with a decimal comma, no symbol (`12,90`, `0,00`). */
const money = z.string().regex(/^-?\d+,\d{2}$/);

/** One VAT rate's share of the cart: gross (VAT included), the VAT in it, and the net. */
export const vatLineSchema = z
  .object({ percent: z.number(), gross: money, vat: money, net: money })
  .meta({ id: 'VatLine' });

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
    /** The line's VAT rate in percent (0 for a gift card). */
    vatPercent: z.number(),
  })
  .meta({ id: 'LineItem' });

/**
 * A gift card entered into the cart that can still pay. Only a code's SHA-256 is kept, so the card
 * is named by its `id` (what `removegiftcard` takes besides the code), its `balance` and the
 * `amount` it pays of this cart now, in the order the order placement takes them.
 */
export const cartGiftCardSchema = z
  .object({ id: z.number().int(), balance: money, amount: money })
  .meta({ id: 'CartGiftCard' });

export const cartSchema = z
  .object({
    loading: z.boolean(),
    currency: z.literal('EUR'),
    currencySymbol: z.literal('€'),
    /**
     * The VAT included in `total` (prices include VAT; decision 019). `vatPercent` is the rate of
     * the cart's goods when one rate applies, else the rate carrying most of the total; null for an
     * empty cart or one of VAT-free lines only. `vatBreakdown` has every rate.
     */
    vatTotal: money,
    vatPercent: z.number().nullable(),
    vatBreakdown: z.array(vatLineSchema),
    orderDiscount: money,
    total: money,
    subTotal: money,
    usedGiftCardAmount: money,
    /** The gift cards entered (not in the spec's fields; the cart page lists them to remove). */
    giftCards: z.array(cartGiftCardSchema),
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
export type VatLine = z.infer<typeof vatLineSchema>;
export type CartGiftCard = z.infer<typeof cartGiftCardSchema>;
export type Cart = z.infer<typeof cartSchema>;

// ---------------------------------------------------------------------------------------------
// Coupons (spec §4, §5, §7, §8): `addcouponcode` / `removecouponcode` answer the cart.
// ---------------------------------------------------------------------------------------------

/** An empty or missing code is `shop.coupon.empty`; one with other characters is invalid. */
const couponCodeSchema = single(
  z
    .string({ error: COUPON_ERRORS.empty })
    .optional()
    .transform((value) => normaliseCouponCode(value ?? ''))
    .pipe(z.string().min(1, COUPON_ERRORS.empty).regex(COUPON_CODE_PATTERN, COUPON_ERRORS.invalid)),
);

/**
 * `addcouponcode` and `removecouponcode`. Refusals are problem+json naming the field `code` with
 * one of `COUPON_ERRORS`: empty 400, unknown, expired or used up 400, a duplicate 409, one that
 * does not combine with the cart's other codes 409, a minimum order not reached 409 (with
 * `minOrder`). Removing a code the cart does not hold changes and stores nothing: the answer is
 * the cart as it is (a double click removes once).
 */
export const couponQuerySchema = z.object({
  language: languageSchema.default('fi'),
  code: couponCodeSchema,
});
export type CouponQuery = z.infer<typeof couponQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Products: `GET /api/products/{code}` and the shop's product cards.
// ---------------------------------------------------------------------------------------------

export const productParamsSchema = z.object({
  code: z
    .string({ error: INVALID })
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, INVALID),
});

/** `language` picks the catalogue (Finnish by default). */
export const productQuerySchema = z.object({ language: languageSchema.default('fi') });

/** Product detail (spec §3). `description` is sanitised HTML; ratings arrive with reviews. */
export const productDetailSchema = z
  .object({
    name: z.string(),
    url: z.string(),
    /** The main image's URL (product-large preset), or null. */
    image: z.string().nullable(),
    /** Every image, main first. */
    images: z.array(z.string()),
    description: z.string(),
    price: money.nullable(),
    pricePerKg: money.nullable(),
    svhPrice: money.nullable(),
    discountPercentage: z.number().int().nullable(),
    /** null: unlimited; 0: sold out. */
    stock: z.number().int().nullable(),
    code: z.string(),
    productId: z.number().int(),
    /** The product group ('' when none), as the cart's line carries it. */
    category: z.string(),
    isGiftCard: z.boolean(),
    vatPercent: z.number(),
    averageRating: z.number().nullable(),
    reviewCount: z.number().int(),
  })
  .meta({ id: 'ProductDetail' });
export type ProductDetail = z.infer<typeof productDetailSchema>;

/** Product card data (spec §3): the shop's search grid cards and product lists. */
export const productCardSchema = z
  .object({
    title: z.string(),
    url: z.string(),
    /** Image URLs (product-card preset), main first. */
    image: z.array(z.string()),
    price: money.nullable(),
    pricePerKg: money.nullable(),
    svhPrice: money.nullable(),
    discountPercentage: z.number().int().nullable(),
    stock: z.number().int().nullable(),
    isGiftCard: z.boolean(),
    code: z.string(),
    /** The product's id (`products.id`): what `delivery-availability` and reviews take. */
    productId: z.number().int(),
    /** The content id (`product-{id}`, decision 105), as search hits give it and likes take it. */
    contentId: z.string(),
  })
  .meta({ id: 'ProductCard' });
export type ProductCard = z.infer<typeof productCardSchema>;

// ---------------------------------------------------------------------------------------------
// Delivery (spec §4, §5, §7): `/api/v1/lihakauppa/checkout/*`.
// ---------------------------------------------------------------------------------------------

const postalCodeSchema = single(
  z
    .string({ error: POSTAL_CODE_INVALID })
    .transform(normalisePostalCode)
    .pipe(z.string().max(20, POSTAL_CODE_INVALID).regex(POSTAL_CODE_PATTERN, POSTAL_CODE_INVALID)),
);

export const availabilityQuerySchema = z.object({ postalCode: postalCodeSchema });
export const availabilitySchema = z
  .object({ isAvailable: z.boolean() })
  .meta({ id: 'DeliveryAvailability' });

/**
 * `delivery`: the dates and times the visitor's cart can be delivered to the postal code. The
 * dates are those of the area's calendar (weekdays, order cut-off in Helsinki time, free slot
 * capacity) on which every line of the cart has per-date stock for its quantity.
 */
export const deliveryQuerySchema = z.object({
  postalCode: postalCodeSchema,
  language: languageSchema.default('fi'),
});

export const deliveryTimeSchema = z.object({
  /** `HH:MM-HH:MM` (Helsinki time). */
  value: z.string(),
  /** `klo 8–12`. */
  label: z.string(),
});

export const deliveryDateSchema = z.object({
  /** ISO date `2026-03-02`. */
  value: z.string(),
  /** `ma 2.3.2026`. */
  label: z.string(),
  times: z.array(deliveryTimeSchema),
});

/** Why a cart has no delivery date in a delivered area (`DeliveryDates.reason`). */
export const DELIVERY_REASONS = ['unavailableProducts', 'noCommonDate', 'noSlots'] as const;

export const deliveryDatesSchema = z
  .object({
    /** false: the area is not delivered to (then `dates` is empty). */
    isAvailable: z.boolean(),
    /** false when the cart holds only gift cards: nothing to deliver. */
    deliveryRequired: z.boolean(),
    dates: z.array(deliveryDateSchema),
    /**
     * Why `dates` is empty although the area is delivered to, and what to do about it, in the
     * request's language; else null.
     */
    message: z.string().nullable(),
    /**
     * What `message` is about: `unavailableProducts` (some lines cannot come on any offered date
     * in their quantity; the message names them), `noCommonDate` (each line can, but on no date
     * together), `noSlots` (the area has no free delivery time at all); else null.
     */
    reason: z.enum(DELIVERY_REASONS).nullable(),
  })
  .meta({ id: 'DeliveryDates' });
export type DeliveryDates = z.infer<typeof deliveryDatesSchema>;

export const productAvailabilityQuerySchema = z.object({
  productId: single(
    z
      .string({ error: INVALID })
      .regex(/^\d{1,9}$/, INVALID)
      .transform(Number),
  ),
  postalCode: postalCodeSchema,
});

export const productAvailabilitySchema = z
  .object({
    /** false: the postal code's area is not delivered to (then `deliveryTimes` is empty). */
    isAvailable: z.boolean(),
    /** The area's delivery dates on which the product can be had, with what is left (null: unlimited). */
    deliveryTimes: z.array(z.object({ date: z.string(), stock: z.number().int().nullable() })),
  })
  .meta({ id: 'ProductDeliveryAvailability' });
export type ProductAvailability = z.infer<typeof productAvailabilitySchema>;
