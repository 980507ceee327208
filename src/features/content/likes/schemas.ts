import { z } from 'zod';

export { LIKE_API, LIKED_STORAGE_KEY } from './values.ts';

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
