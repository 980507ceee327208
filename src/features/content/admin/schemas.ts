import { z } from 'zod';

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
  publishDate: z.string(),
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
  })
  .strict();
export type PublishNews = z.infer<typeof publishNewsSchema>;
