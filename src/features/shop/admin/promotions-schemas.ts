import { z } from 'zod';

/**
 * Coupons and gift cards in the back office (decision 144). Shared by the routes and the /admin
 * app; error messages are keys of the admin catalogue.
 */
export const COUPONS_API = '/api/admin/coupons';
export const GIFT_CARDS_API = '/api/admin/gift-cards';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';
const cents = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(100_000_000, INVALID);
const limit = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(10_000_000, INVALID);
const instant = z.iso.datetime({ offset: true, error: INVALID });

export const couponsQuerySchema = z
  .object({
    q: z.string().trim().max(100, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

/** What staff set of a coupon: a percentage or an amount, never both. */
export const couponFieldsSchema = z
  .object({
    code: z
      .string()
      .trim()
      .min(1, REQUIRED)
      .max(40, TOO_LONG)
      .regex(/^[A-Za-z0-9_-]+$/, INVALID)
      .transform((code) => code.toUpperCase()),
    description: z.string().trim().max(500, TOO_LONG).default(''),
    percentOff: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(1, INVALID)
      .max(100, INVALID)
      .nullable(),
    amountOffCents: cents.nullable(),
    productGroup: z.string().trim().min(1, INVALID).max(100, TOO_LONG).nullable(),
    minOrderCents: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(0, INVALID)
      .max(100_000_000, INVALID),
    validFrom: instant.nullable(),
    validTo: instant.nullable(),
    maxUses: limit.nullable(),
    maxUsesPerCustomer: limit.nullable(),
    combinable: z.boolean(),
    active: z.boolean(),
  })
  .strict()
  .refine((c) => (c.percentOff === null) !== (c.amountOffCents === null), {
    path: ['percentOff'],
    message: 'admin.error.couponKind',
  })
  .refine((c) => !c.validFrom || !c.validTo || c.validFrom < c.validTo, {
    path: ['validTo'],
    message: 'admin.error.invalid',
  });
export type CouponFields = z.infer<typeof couponFieldsSchema>;

/** An edit, on the version the staff member saw. */
export const couponEditSchema = z
  .object({ coupon: couponFieldsSchema, version: z.number().int().min(0) })
  .strict();

export const couponIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

export const couponRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  code: z.string(),
  description: z.string(),
  percentOff: z.number().int().nullable(),
  amountOffCents: z.number().int().nullable(),
  productGroup: z.string().nullable(),
  minOrderCents: z.number().int(),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  maxUses: z.number().int().nullable(),
  usedCount: z.number().int(),
  maxUsesPerCustomer: z.number().int().nullable(),
  combinable: z.boolean(),
  active: z.boolean(),
  version: z.number().int(),
});
export type CouponRow = z.infer<typeof couponRowSchema>;

export const couponsListSchema = z.object({
  coupons: z.array(couponRowSchema),
  total: z.number().int(),
});

/** A gift card is found by its code only: codes are kept hashed. */
export const giftCardLookupSchema = z
  .object({ code: z.string().trim().min(4, INVALID).max(60, INVALID) })
  .strict();

export const giftCardIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

export const giftCardSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  initialCents: z.number().int(),
  balanceCents: z.number().int(),
  validTo: z.string().nullable(),
  createdAt: z.string(),
  /** The order that bought it, if an order did. */
  boughtWith: z.number().int().nullable(),
  /** Uses by orders and staff adjustments, oldest first. */
  history: z.array(
    z.object({
      at: z.string(),
      kind: z.enum(['order', 'adjustment']),
      /** Negative: taken from the card. */
      deltaCents: z.number().int(),
      orderNumber: z.number().int().nullable(),
      orderStatus: z.string().nullable(),
      reason: z.string().nullable(),
      staff: z.string().nullable(),
    }),
  ),
});
export type GiftCard = z.infer<typeof giftCardSchema>;

export const giftCardIssueSchema = z
  .object({
    amountCents: cents,
    /** The last day it is valid, in Helsinki; 24 months from today without it. */
    validTo: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, INVALID)
      .nullable(),
    reason: z.string().trim().min(1, REQUIRED).max(500, TOO_LONG),
  })
  .strict();

export const giftCardIssuedSchema = z.object({
  /** Shown this once: only its hash is kept. */
  code: z.string(),
  card: giftCardSchema,
});

export const giftCardAdjustSchema = z
  .object({
    deltaCents: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(-100_000_000, INVALID)
      .max(100_000_000, INVALID)
      .refine((n) => n !== 0, INVALID),
    /** The balance the staff member saw. */
    expectedBalanceCents: z.number().int().min(0),
    reason: z.string().trim().min(1, REQUIRED).max(500, TOO_LONG),
  })
  .strict();
