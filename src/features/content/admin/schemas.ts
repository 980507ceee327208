import { z } from 'zod';
import { scheduleCreateSchema } from '../publishing/schedule-schemas.ts';
import {
  contentPathSchema,
  liveStateSchema,
  openSchemaOf,
  publishSchema,
  versionMetaSchema,
} from '../publishing/schemas.ts';

/** The back office's list of pages (`GET /api/admin/content/pages`). */
export const ADMIN_PAGES_API = '/api/admin/content/pages';

export const adminPagesQuerySchema = z
  .object({
    site: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/)
      .optional(),
    lang: z.enum(['fi', 'sv', 'en']).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();

export const adminPageRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  path: z.string(),
  title: z.string(),
  type: z.string(),
});
export type AdminPageRow = z.infer<typeof adminPageRowSchema>;

export const adminPagesSchema = z.object({
  pages: z.array(adminPageRowSchema),
  total: z.number().int(),
});

// News releases: publishing now or at a time, which mails the subscribers of the release's
// categories once (decision 158). The content-publishing work (issue 35) will take this over.

export const ADMIN_NEWS_API = '/api/admin/content/news';

export const adminNewsQuerySchema = z
  .object({
    site: z
      .string()
      .regex(/^[a-z0-9-]{1,40}$/, 'admin.error.invalid')
      .optional(),
    lang: z.enum(['fi', 'sv', 'en'], { error: 'admin.error.invalid' }).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  })
  .strict();

export const newsCategorySchema = z.object({ informationType: z.string(), name: z.string() });

export const newsMailingSchema = z.object({
  status: z.enum(['scheduled', 'sent']),
  sendAt: z.string(),
  /** Named by a change to it (409 when it changed since). */
  version: z.number().int(),
  recipients: z.number().int(),
  informationTypes: z.array(z.string()),
});
export type NewsMailing = z.infer<typeof newsMailingSchema>;

export const adminNewsRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  path: z.string(),
  title: z.string(),
  /** On the site since (or, for a release not on the site, null). */
  publishDate: z.string().nullable(),
  state: liveStateSchema,
  /** The newest version, named by a publish, an unpublish or a schedule (409 when stale). */
  version: z.number().int(),
  /** A waiting scheduled publish (decision 167): when and which. */
  schedule: z.object({ id: z.number().int(), at: z.string() }).nullable(),
  informationTypes: z.array(z.string()),
  /** The categories of the release's site and language its subscribers chose from. */
  categories: z.array(newsCategorySchema),
  /** Its mailing, once published through the back office. */
  mailing: newsMailingSchema.nullable(),
});
export type AdminNewsRow = z.infer<typeof adminNewsRowSchema>;

export const adminNewsSchema = z.object({
  releases: z.array(adminNewsRowSchema),
  total: z.number().int(),
  /** Where a new release may be made (`content.edit` and `content.publish` there). */
  scopes: z.array(z.object({ siteId: z.string(), lang: z.string() })),
});

export const newsIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

export const publishNewsSchema = z
  .object({
    /** When: null is now. */
    at: z
      .string({ error: 'admin.error.invalid' })
      .datetime({ offset: true, message: 'admin.error.invalid' })
      .nullable(),
    informationTypes: z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'admin.error.invalid'))
      .min(1, 'admin.news.error.noCategory')
      .max(20, 'admin.error.invalid'),
    /** The mailing's version as shown; null when none was queued. */
    mailingVersion: z.number({ error: 'admin.error.invalid' }).int().min(0).nullable(),
    /**
     * The release's newest version as shown (decision 167): a release not on the site is
     * published (or scheduled) at this version, 409 when a newer one was saved.
     */
    version: z.number({ error: 'admin.error.invalid' }).int().min(1).optional(),
  })
  .strict();
export type PublishNews = z.infer<typeof publishNewsSchema>;

// A news release as a document of the versions (decisions 162, 167): what its page renders.

const NEWS_INVALID = 'admin.error.invalid';
const newsLine = (max: number) =>
  z.string({ error: NEWS_INVALID }).trim().max(max, 'admin.error.tooLong');
const newsId = z.number({ error: NEWS_INVALID }).int(NEWS_INVALID).min(1).max(2_147_483_647);

export const newsDocumentSchema = z
  .object({
    path: contentPathSchema,
    title: newsLine(300).min(1, 'admin.error.required'),
    teaser: newsLine(2000),
    /** Rich text as the sanitiser keeps it (checked on save). */
    bodyHtml: z.string({ error: NEWS_INVALID }).max(200_000, 'admin.error.tooLong'),
    imageId: newsId.nullable(),
    authors: z.array(newsLine(200).min(1, 'admin.error.required')).max(20, NEWS_INVALID),
    textType: newsLine(100).nullable(),
    /** The release service it came from: the card style of listings. */
    source: z.enum(['cision', 'mynewsdesk'], { error: NEWS_INVALID }),
    categoryIds: z.array(newsId).max(50, NEWS_INVALID),
    facetTagIds: z.array(newsId).max(50, NEWS_INVALID),
  })
  .strict();
export type NewsDocument = z.infer<typeof newsDocumentSchema>;

/** A new release's first draft (its site and language in the query). */
export const newsCreateSchema = z.object({ document: newsDocumentSchema }).strict();
export const newsCreateQuerySchema = z
  .object({
    site: z.string().regex(/^[a-z0-9-]{1,40}$/, NEWS_INVALID),
    lang: z.enum(['fi', 'sv', 'en'], { error: NEWS_INVALID }),
  })
  .strict();
export const newsSaveSchema = z.object({ basedOn: newsId, document: newsDocumentSchema }).strict();
export type AdminNewsList = z.infer<typeof adminNewsSchema>;

// A news release in the shared content editor (decision 172): the item routes every kind has
// (open, versions, save, publish, restore, preview, presence), its schedules and bulk actions.

/** The news releases' content API, beside the list's `ADMIN_NEWS_API` (whose paths stay). */
export const NEWS_RELEASES_API = '/api/admin/content/news-releases';

export const newsVersionSchema = versionMetaSchema.extend({ document: newsDocumentSchema });
export type NewsVersion = z.infer<typeof newsVersionSchema>;
export const newsOpenSchema = openSchemaOf(newsVersionSchema);
export type NewsOpen = z.infer<typeof newsOpenSchema>;

/** What a release's publishing mails: its categories' subscribers, on the mailing's version. */
const mailingFields = {
  /** The categories whose subscribers are mailed; none: no mailing. */
  informationTypes: z
    .array(z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'admin.error.invalid'))
    .max(20, 'admin.error.invalid')
    .default([]),
  /** The mailing's version as shown; null when none was queued. */
  mailingVersion: z.number({ error: 'admin.error.invalid' }).int().min(0).nullable().default(null),
};

/** Publishing a release now from its editor: the newest version seen, and its mailing. */
export const newsPublishSchema = publishSchema.extend(mailingFields).strict();
export type NewsPublish = z.infer<typeof newsPublishSchema>;

/** A release's scheduled action from its editor: as every kind's, with its mailing. */
export const newsScheduleCreateSchema = scheduleCreateSchema.extend(mailingFields).strict();
