import { z } from 'zod';
import { REVIEW_STATES } from '../statuses.ts';

/**
 * Review moderation in the back office (decision 148): the queue by state, and a review approved
 * or rejected with a reason, each from the state the moderator saw.
 */
export const REVIEWS_API = '/api/admin/reviews';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';
/** A rejection's reason: a sentence or two for the next moderator and the audit log. */
export const REJECTION_REASON_MAX = 500;

const reviewState = z.enum(REVIEW_STATES, { error: INVALID });

export const reviewsQuerySchema = z
  .object({
    state: reviewState.default('pending'),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const reviewIdParamsSchema = z.object({
  id: z.coerce.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647, INVALID),
});

export const reviewRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  productId: z.number().int(),
  code: z.string(),
  /** The product's name and its page on the shop; null when the product is gone. */
  productName: z.string().nullable(),
  productUrl: z.string().nullable(),
  stars: z.number().int(),
  text: z.string(),
  userName: z.string(),
  /** The reviewer had a paid order of the product when writing. */
  isVerified: z.boolean(),
  createdAt: z.string(),
  state: reviewState,
  rejectionReason: z.string().nullable(),
  moderatedAt: z.string().nullable(),
  /** The name of the staff member who last approved or rejected it. */
  moderatedBy: z.string().nullable(),
});
export type ReviewRow = z.infer<typeof reviewRowSchema>;

export const reviewsListSchema = z.object({
  reviews: z.array(reviewRowSchema),
  /** How many reviews of the asked state there are (in the staff member's grants). */
  total: z.number().int(),
  /** How many there are of each state, for the queue's filter. */
  counts: z.object({
    pending: z.number().int(),
    published: z.number().int(),
    rejected: z.number().int(),
  }),
  /** The shop's mode (`SHOP_REVIEW_MODERATION`): `pre` hides new reviews until approved. */
  moderation: z.enum(['pre', 'post']),
});
export type ReviewsList = z.infer<typeof reviewsListSchema>;

/** Approves a review that was `from` when the moderator saw it. */
export const reviewApproveSchema = z
  .object({ from: z.enum(['pending', 'rejected'], { error: INVALID }) })
  .strict();
export type ReviewApprove = z.infer<typeof reviewApproveSchema>;

/** Rejects a review that was `from` when the moderator saw it, with a reason. */
export const reviewRejectSchema = z
  .object({
    from: z.enum(['pending', 'published'], { error: INVALID }),
    reason: z
      .string({ error: REQUIRED })
      // PostgreSQL text holds no NUL byte, and nobody types one.
      .refine((value) => !value.includes('\u0000'), INVALID)
      .trim()
      .min(1, REQUIRED)
      .max(REJECTION_REASON_MAX, TOO_LONG),
  })
  .strict();
export type ReviewReject = z.infer<typeof reviewRejectSchema>;
