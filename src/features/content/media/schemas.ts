import { z } from 'zod';
import { IMAGE_UPLOAD_MAX_BYTES } from '../publishing/schemas.ts';

/**
 * The media library of the back office (decision 168): the images every site shares, their alt
 * text per language, focus point, where each is used, a new file for an image and deleting an
 * unused one. Browser-safe: the /admin screen and the routes share these. Error messages are
 * keys of the admin catalogue.
 */
export const MEDIA_ADMIN_API = '/api/admin/content/media';

const INVALID = 'admin.error.invalid';
const TOO_LONG = 'admin.error.tooLong';

const version = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647);
const altText = z.string({ error: INVALID }).trim().max(300, TOO_LONG);
/** 0 is the left (top) edge of the picture, 1 the right (bottom) one. */
const fraction = z.number({ error: INVALID }).min(0, INVALID).max(1, INVALID);

export const MEDIA_LANGS = ['fi', 'sv', 'en'] as const;
export type MediaLang = (typeof MEDIA_LANGS)[number];

export const altSchema = z
  .object({ fi: altText.optional(), sv: altText.optional(), en: altText.optional() })
  .strict();
export type AltTexts = z.infer<typeof altSchema>;

/**
 * The library's search. Not strict: the library is shared by every site, so a site or language
 * in the query (as lists of one site's rows take) narrows nothing and is left out.
 */
export const mediaQuerySchema = z.object({
  q: z.string().trim().max(100, TOO_LONG).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const mediaIdParamsSchema = z
  .object({ id: z.coerce.number().int().min(1).max(2_147_483_647) })
  .strict();

/** A delete names the version the staff member saw (`?version=`). */
export const mediaDeleteQuerySchema = z
  .object({ version: z.coerce.number().int().min(1).max(2_147_483_647) })
  .strict();

/**
 * A change of an image's alt texts and focus point, on the version it was made on. A language
 * left out keeps its text; an empty text removes it.
 */
export const mediaEditSchema = z
  .object({
    version,
    alt: altSchema.optional(),
    focus: z.object({ x: fraction, y: fraction }).strict().optional(),
  })
  .strict();

/** A new file for an image (a data URL, checked as an upload is), on the version it was made on. */
export const mediaReplaceSchema = z
  .object({
    version,
    data: z
      .string({ error: 'admin.error.required' })
      .max(Math.ceil(IMAGE_UPLOAD_MAX_BYTES / 3) * 4 + 100, 'admin.recipe.imageTooLarge')
      .regex(/^data:[\w/+.-]*;base64,[A-Za-z0-9+/=]+$/, 'admin.recipe.imageType'),
  })
  .strict();

export const USE_KINDS = ['page', 'recipe', 'product', 'news', 'timeline'] as const;
export type UseKind = (typeof USE_KINDS)[number];

/**
 * One place an image shows, or will when a draft is published: those of the sites and languages
 * the staff member may edit content in (the others are only counted, `elsewhere`).
 */
export const imageUseSchema = z.object({
  kind: z.enum(USE_KINDS),
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  title: z.string(),
  path: z.string().nullable(),
  /** `live`: the site shows it; `draft`: the newest, not published version of an item uses it. */
  state: z.enum(['live', 'draft']),
});
export type ImageUse = z.infer<typeof imageUseSchema>;

export const mediaRowSchema = z.object({
  id: z.number().int(),
  alt: altSchema,
  width: z.number().int(),
  height: z.number().int(),
  thumbUrl: z.string(),
  createdAt: z.string(),
});
export type MediaRow = z.infer<typeof mediaRowSchema>;

export const mediaListSchema = z.object({
  images: z.array(mediaRowSchema),
  total: z.number().int(),
  pageSize: z.number().int(),
  /** Where the staff member may upload: a new image's alt text is in that site's language. */
  scopes: z.array(z.object({ siteId: z.string(), lang: z.string() })),
});
export type MediaList = z.infer<typeof mediaListSchema>;

export const mediaImageSchema = mediaRowSchema.extend({
  mime: z.string(),
  focus: z.object({ x: z.number(), y: z.number() }),
  version: z.number().int(),
  revision: z.number().int(),
  updatedAt: z.string(),
  /** The whole picture, 800 px wide at most: what the focus point is set on. */
  previewUrl: z.string(),
  /** The picture as the widest crop (`card-wide`) shows it, around its focus point. */
  cropUrl: z.string(),
  uses: z.array(imageUseSchema),
  /**
   * How many places on sites or languages the staff member may not edit use the image: while any
   * do, they may not change it (only someone who may edit every place that shows it may).
   */
  elsewhere: z.number().int(),
});
export type MediaImage = z.infer<typeof mediaImageSchema>;

/** What a delete answers: the id that is gone. */
export const deletedSchema = z.object({ deleted: z.number().int() });

/** The admin screen's address of the editor of a place that uses an image, when there is one. */
export function editPathOf(use: Pick<ImageUse, 'kind' | 'id'>): string | null {
  if (use.kind === 'recipe') return `/content/recipes/${use.id}`;
  if (use.kind === 'page') return `/content/pages/${use.id}`;
  if (use.kind === 'news') return `/content/news/${use.id}`;
  return null;
}
