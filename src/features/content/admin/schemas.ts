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
