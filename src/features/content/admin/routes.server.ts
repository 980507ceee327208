import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer, problemAnswers } from '../../../server/openapi.ts';
import { adminRoute, scopeWhere } from '../../staff/index.server.ts';
import { kindAdminRoutes } from '../publishing/kind-routes.server.ts';
import { pageAdminRoutes } from '../publishing/page-routes.server.ts';
import { recipeAdminRoutes } from '../publishing/routes.server.ts';
import { pages } from '../tables.ts';
import { assertReleaseAccess, listNewsForPublishing, publishNewsRelease } from './news.server.ts';
import {
  ADMIN_NEWS_API,
  ADMIN_PAGES_API,
  adminNewsQuerySchema,
  adminNewsRowSchema,
  adminNewsSchema,
  adminPagesQuerySchema,
  adminPagesSchema,
  newsIdParamsSchema,
  publishNewsSchema,
} from './schemas.ts';

const PAGE_SIZE = 100;

/**
 * The content's routes in the back office. For now the list of pages an editor's grants reach
 * (`content.edit`), limited by the staff feature's one scope helper: an editor of jyvabroiler in
 * Finnish sees jyvabroiler's Finnish pages and nothing else, whatever `site` and `lang` say.
 */
export async function contentAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ADMIN_PAGES_API,
    {
      config: {
        staff: { permission: 'content.edit' },
        rateLimit: { max: 600, timeWindow: 60_000 },
      },
      schema: {
        tags: ['admin'],
        summary: 'The pages of the sites and languages the staff member may edit',
        description:
          '`site` and `lang` narrow the list; pages outside the grants are never listed. 100 at a time from `offset`.',
        querystring: adminPagesQuerySchema,
        response: {
          200: jsonAnswer(adminPagesSchema, 'Pages'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request) => {
      const grants = request.staff?.grants ?? [];
      const where: SQL[] = [
        scopeWhere(grants, 'content.edit', { site: pages.siteId, lang: pages.lang }),
      ];
      if (request.query.site) where.push(eq(pages.siteId, request.query.site));
      if (request.query.lang) where.push(eq(pages.lang, request.query.lang));
      const [total] = await app.db
        .select({ n: count() })
        .from(pages)
        .where(and(...where));
      const rows = await app.db
        .select({
          id: pages.id,
          siteId: pages.siteId,
          lang: pages.lang,
          path: pages.path,
          title: pages.title,
          type: pages.type,
        })
        .from(pages)
        .where(and(...where))
        .orderBy(asc(pages.siteId), asc(pages.lang), asc(pages.path))
        .limit(PAGE_SIZE)
        .offset(request.query.offset);
      return { pages: rows, total: Number(total?.n ?? 0) };
    },
  );

  adminRoute(app, 'GET', ADMIN_NEWS_API, {
    staff: { permission: 'content.publish' },
    rateLimit: { max: 600, timeWindow: 60_000 },
    summary:
      'The news releases the staff member may publish, the latest first, with their mailings',
    description:
      '`site` and `lang` narrow the list; releases outside the grants are never listed. 50 at a time from `offset`.',
    querystring: adminNewsQuerySchema,
    answer: jsonAnswer(adminNewsSchema, 'News releases'),
    problems: [400, 401, 403, 429],
    handler: (request) => listNewsForPublishing(app.db, request.staff?.grants ?? [], request.query),
  });
  adminRoute(app, 'POST', `${ADMIN_NEWS_API}/:id/publish`, {
    staff: { permission: 'content.publish' },
    rateLimit: { max: 120, timeWindow: 60_000 },
    bodyLimit: 4 * 1024,
    preValidation: assertReleaseAccess,
    summary: 'Publishes a news release now or at a time, mailing its categories’ subscribers once',
    description:
      'Sets the release’s date and categories and queues its mailing in one transaction; the mailing goes when the time comes, once to each confirmed subscriber of any of the categories. `mailingVersion` is the mailing’s version as shown (null: none yet); 409 when it changed or was already sent.',
    params: newsIdParamsSchema,
    body: publishNewsSchema,
    answer: jsonAnswer(adminNewsRowSchema, 'The release'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => publishNewsRelease(request, request.params.id, request.body),
  });
  recipeAdminRoutes(app);
  pageAdminRoutes(app);
  kindAdminRoutes(app);
}
