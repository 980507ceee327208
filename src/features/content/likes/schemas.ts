import { z } from 'zod';

/**
 * Likes (spec §4 and §7, decision 040): `POST /api/contentlikecount/{contentId}` without a body.
 * A content id names the liked recipe or product by its table and row: `recipe-12`,
 * `product-34` (the two tables number their rows apart, so a bare number would be ambiguous).
 */
export const LIKE_API = '/api/contentlikecount';

export const LIKE_KINDS = ['recipe', 'product'] as const;
export type LikeKind = (typeof LIKE_KINDS)[number];

const INVALID = 'validation.invalid';
const CONTENT_ID = /^(recipe|product)-([1-9][0-9]{0,9})$/;

export interface LikeTarget {
  kind: LikeKind;
  id: number;
}

/** The content id of a recipe or product row. */
export function likeContentId(target: LikeTarget): string {
  return `${target.kind}-${target.id}`;
}

export const likeParamsSchema = z
  .object({
    contentId: z
      .string()
      .regex(CONTENT_ID, INVALID)
      .transform((value): LikeTarget => {
        const [, kind, id] = CONTENT_ID.exec(value) ?? [];
        return { kind: kind as LikeKind, id: Number(id) };
      })
      .refine((target) => target.id <= 2_147_483_647, INVALID),
  })
  .strict();

export const likeAnswerSchema = z.object({
  contentId: z.string(),
  /** The stored count after this like. */
  likeCount: z.number().int().min(0),
  /** false: this visitor had liked it already (or the address's daily bound was reached). */
  counted: z.boolean(),
});
export type LikeAnswer = z.infer<typeof likeAnswerSchema>;

/** The local storage key of the liked content ids (spec §3: liked ids in local storage). */
export const LIKED_STORAGE_KEY = 'kattaus:liked-content';
