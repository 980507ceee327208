import { z } from 'zod';
import {
  RATING_MAX,
  RATING_MIN,
  REVIEW_PAGE_SIZE,
  REVIEW_PAGE_SIZE_MAX,
  REVIEW_TEXT_MAX,
  USER_NAME_MAX,
} from './values.ts';

/**
 * The reviews' contract (shop spec §3 "Review", §5, §7, §9): `GET /api/review/lihakauppa/` pages
 * a product's reviews, `POST` the same path writes one. Browser-safe: the review dialog uses it.
 * Error messages are message keys of the i18n catalogue. The plain values are in `values.ts`,
 * so the review list loads without zod (decision 160).
 */

export * from './values.ts';

const INVALID = 'validation.invalid';
export const REVIEW_REQUIRED = 'review.error.required';
export const REVIEW_RATING = 'review.error.rating';

/** One query value: a repeated parameter (an array) is invalid, not missing. */
const single = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (Array.isArray(value) ? '' : value), schema);

const wholeNumber = (min: number, max: number) =>
  single(
    z
      .string({ error: INVALID })
      .regex(/^\d{1,9}$/, INVALID)
      .transform(Number)
      .pipe(z.number().min(min, INVALID).max(max, INVALID)),
  );

export const reviewQuerySchema = z.object({
  language: single(z.enum(['fi', 'sv', 'se', 'en'], { error: INVALID })).default('fi'),
  page: wholeNumber(1, 100_000).default(1),
  pageSize: wholeNumber(1, REVIEW_PAGE_SIZE_MAX).default(REVIEW_PAGE_SIZE),
  productId: wholeNumber(1, 2_147_483_647),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

export const reviewSchema = z
  .object({
    id: z.number().int(),
    stars: z.number().int().min(RATING_MIN).max(RATING_MAX),
    /** Plain text as written: the widgets render it escaped, never as HTML. */
    text: z.string(),
    userName: z.string(),
    isVerified: z.boolean().meta({ description: 'The reviewer has a paid order of the product.' }),
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof reviewSchema>;

export const reviewPageSchema = z
  .object({
    hits: z.array(reviewSchema),
    hasMore: z.boolean(),
    totalCount: z.number().int(),
    productId: z.number().int(),
  })
  .meta({ id: 'ReviewPage', description: 'One page of a product’s reviews, newest first.' });
export type ReviewPage = z.infer<typeof reviewPageSchema>;

/** No NUL bytes: PostgreSQL text cannot hold them, and no one types them. */
const noNul = (value: string) => !value.includes('\u0000');

/** Text the reviewer types: trimmed, required, bounded, without NUL bytes. */
const typed = (max: number) =>
  z
    .string({ error: REVIEW_REQUIRED })
    .refine(noNul, INVALID)
    .transform((value) => value.trim())
    .pipe(z.string().min(1, REVIEW_REQUIRED).max(max, 'form.error.tooLong'));

export const reviewPostSchema = z
  .object({
    productId: z
      .number({ error: INVALID })
      .min(1, INVALID)
      .max(2_147_483_647, INVALID)
      .refine(Number.isInteger, INVALID)
      .meta({ type: 'integer' }),
    rating: z
      .number({ error: REVIEW_RATING })
      .min(RATING_MIN, REVIEW_RATING)
      .max(RATING_MAX, REVIEW_RATING)
      // Not `.int()`: its issue reads as a missing value to the error mapper.
      .refine(Number.isInteger, REVIEW_RATING)
      .meta({ type: 'integer' }),
    text: typed(REVIEW_TEXT_MAX),
    userName: typed(USER_NAME_MAX),
  })
  .describe('A review of a product: the rating 1–5, the text and the name shown with it');
export type ReviewPost = z.input<typeof reviewPostSchema>;
/** A validated post: trimmed texts. */
export type ReviewInput = z.output<typeof reviewPostSchema>;

export const reviewPostedSchema = z
  .object({
    review: reviewSchema,
    /** `pending`: it waits for a moderator and is not listed yet (decision 148). */
    state: z.enum(['pending', 'published']),
    productId: z.number().int(),
  })
  .meta({
    id: 'ReviewPosted',
    description:
      'The review as written, and whether it is listed now (`published`) or once a moderator approves it (`pending`).',
  });
export type ReviewPosted = z.infer<typeof reviewPostedSchema>;
