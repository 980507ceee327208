import { z } from 'zod';
import {
  CONTENT_ID_PATTERN,
  type ContentKind,
  type ContentRef,
  contentIdOf,
  parseContentId,
} from '../content-id.ts';

export { LIKE_API, LIKED_STORAGE_KEY } from './values.ts';

/** The content that takes likes: recipes and products (the hits and cards that show a count). */
export const LIKE_KINDS = ['recipe', 'product'] as const satisfies readonly ContentKind[];
export type LikeKind = (typeof LIKE_KINDS)[number];

const INVALID = 'validation.invalid';

export interface LikeTarget {
  kind: LikeKind;
  id: number;
}

/** The content id of a recipe or product row. */
export const likeContentId = (target: LikeTarget): string => contentIdOf(target);

/** A content that takes likes, or undefined for one that does not (a page, a news release). */
export function likeTargetOf(ref: ContentRef): LikeTarget | undefined {
  return ref.kind === 'recipe' || ref.kind === 'product'
    ? { kind: ref.kind, id: ref.id }
    : undefined;
}

export const likeParamsSchema = z
  .object({
    /** Any content id the API hands out (decision 105); only recipes and products are liked. */
    contentId: z
      .string()
      .regex(CONTENT_ID_PATTERN, INVALID)
      .transform((value) => parseContentId(value))
      .refine((ref): ref is ContentRef => ref !== undefined, INVALID),
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
