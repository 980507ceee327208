import { z } from 'zod';
import { cardTypes, productCardFields, socialCardFields } from '../blocks.ts';

/**
 * What a card grid shows and `GET /api/filtered-cards/{dropdownItemId}/{cardType}` answers: the
 * spec's card fields (§3), with the image resolved to what markup needs (id, size, alt), so the
 * browser draws a card with its width and height and nothing shifts while pictures load.
 * Shared by the server, the island and the tests.
 */

export const cardImageSchema = z.object({
  id: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  alt: z.string(),
});
export type CardImage = z.infer<typeof cardImageSchema>;

export const cardDtoSchema = z
  .object({
    type: z.enum(cardTypes),
    link: z.string().min(1),
    image: cardImageSchema.optional(),
    header: z.string().min(1),
    ctaButton: z.string().optional(),
    likeCount: z.number().int().min(0).optional(),
    /** Minutes; shown as 'Xh Ymin'. */
    totalTime: z.number().int().min(0).optional(),
    imagePreset: z.string().optional(),
    cisionTextType: z.string().optional(),
    publishDate: z.string().optional(),
    productCode: z.string().optional(),
    valoCode: z.string().optional(),
    gtinCode: z.string().optional(),
    ...productCardFields(),
    ...socialCardFields(),
    profileImage: cardImageSchema.optional(),
  })
  .strict()
  .meta({ id: 'Card' });
export type CardDto = z.infer<typeof cardDtoSchema>;

export const filteredCardsSchema = z.array(cardDtoSchema);

/** A choice of a grid's dropdown filter (§3: Id, Label). The id is a facet tag's. */
export const dropdownItemSchema = z.object({
  Id: z.number().int().positive(),
  Label: z.string().min(1).max(80),
});
export type DropdownItem = z.infer<typeof dropdownItemSchema>;

const INVALID = 'validation.invalid';

/** The path's two parts: a positive whole number (digits only) and one of the card types. */
export const filteredCardsParamsSchema = z
  .object({
    dropdownItemId: z
      .string()
      .regex(/^[1-9][0-9]{0,9}$/, INVALID)
      .transform(Number)
      .pipe(z.number().int().max(2_147_483_647, INVALID)),
    cardType: z.enum(cardTypes, { message: INVALID }),
  })
  .strict();

/** Most cards one filter answers: twelve full rows of four (and of three, two or one). */
export const FILTERED_CARDS_MAX = 48;
