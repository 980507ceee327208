import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer, problemAnswers } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute, queryScope, scopeWhere } from '../../staff/index.server.ts';
import { mediaAdminRoutes } from '../media/routes.server.ts';
import { contentItemRoutes, itemGuard } from '../publishing/item-routes.server.ts';
import { kindAdminRoutes } from '../publishing/kind-routes.server.ts';
import { newsAdapter, newsKind } from '../publishing/news.server.ts';
import { pageAdminRoutes } from '../publishing/page-routes.server.ts';
import { recipeAdminRoutes } from '../publishing/routes.server.ts';
import { contentScheduleRoutes } from '../publishing/schedule-routes.server.ts';
import { assertMayEdit, createItem, saveDraft } from '../publishing/versions.server.ts';
import { pages } from '../tables.ts';
import {
  assertReleaseAccess,
  listNewsForPublishing,
  newsRowOf,
  publishNewsRelease,
  publishReleaseFromEditor,
  releaseSchedulePayload,
} from './news.server.ts';
import {
  ADMIN_NEWS_API,
  ADMIN_PAGES_API,
  adminNewsQuerySchema,
  adminNewsRowSchema,
  adminNewsSchema,
  adminPagesQuerySchema,
  adminPagesSchema,
  NEWS_RELEASES_API,
  newsCreateQuerySchema,
  newsCreateSchema,
  newsIdParamsSchema,
  newsOpenSchema,
  newsPublishSchema,
  newsSaveSchema,
  newsScheduleCreateSchema,
  newsVersionSchema,
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
  pageListRoute(app);
  newsPublishingRoutes(app);
  newsReleaseRoutes(app);
  recipeAdminRoutes(app);
  pageAdminRoutes(app);
  mediaAdminRoutes(app);
  kindAdminRoutes(app);
}

/** The pages an editor's grants reach, 100 at a time. */
function pageListRoute(app: ZodApp) {
  app.get(
    ADMIN_PAGES_API,
    {
      config: {
        staff: { permission: 'content.edit' },
        rateLimit: perMinute(600),
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
}

/**
 * The news publishing list (decision 158): the releases a publisher may publish with their
 * mailings, a release's publish with its categories, a new release and its drafts.
 */
function newsPublishingRoutes(app: ZodApp) {
  adminRoute(app, 'GET', ADMIN_NEWS_API, {
    staff: { permission: 'content.publish' },
    rateLimit: perMinute(600),
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
    rateLimit: perMinute(120),
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
  adminRoute(app, 'POST', ADMIN_NEWS_API, {
    staff: { permission: 'content.edit', scope: queryScope },
    rateLimit: perMinute(120),
    bodyLimit: 256 * 1024,
    summary: 'Makes a news release of a site and language (`site`, `lang`) as a first draft',
    description:
      'Nothing shows on the site until it is published (now, or at a time: decision 167). 400 with field errors (`document.path` taken, rich text the sanitiser would change, a picture or tag that does not exist there).',
    querystring: newsCreateQuerySchema,
    body: newsCreateSchema,
    answer: jsonAnswer(adminNewsRowSchema, 'The release'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request) => {
      const { site: siteId, lang } = request.query;
      const id = await createItem(request, newsAdapter, { siteId, lang }, request.body.document);
      return newsRowOf(request, id);
    },
  });
  adminRoute(app, 'PUT', `${ADMIN_NEWS_API}/:id`, {
    staff: { permission: 'content.edit' },
    rateLimit: perMinute(240),
    bodyLimit: 256 * 1024,
    preValidation: async (request) => {
      const id = Number((request.params as { id?: unknown }).id);
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
      await assertMayEdit(request, newsAdapter, id);
    },
    summary: 'Saves a draft of a news release: a new version; the site is not changed',
    description:
      '`basedOn` is the version the editor started from (409 `/problems/stale-version` with `current` when someone saved since).',
    params: newsIdParamsSchema,
    body: newsSaveSchema,
    answer: jsonAnswer(adminNewsRowSchema, 'The release'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request) => {
      const { basedOn, document } = request.body;
      await saveDraft(request, newsAdapter, request.params.id, basedOn, document);
      return newsRowOf(request, request.params.id);
    },
  });
  // Unpublishing and scheduled actions of a release (decision 167); a release's publish with its
  // mailing categories, now or at a time, is the route above.
  contentScheduleRoutes(app, ADMIN_NEWS_API, newsKind, { noun: 'news release', bulk: false });
}

function newsReleaseRoutes(app: ZodApp) {
  // A release in the shared content editor (decision 172): the routes every kind has, its
  // publish carrying the mailing's categories (queued in the publishing transaction), its
  // scheduled publish carrying them to the job, and the news list's bulk actions.
  contentItemRoutes(app, {
    api: NEWS_RELEASES_API,
    adapter: newsAdapter,
    noun: 'news release',
    openSchema: newsOpenSchema,
    versionSchema: newsVersionSchema,
    saveSchema: newsSaveSchema,
    saveNote: 'The text is rich text as the site’s sanitiser keeps it (400 otherwise).',
    publish: {
      body: newsPublishSchema,
      run: (request, id, body) =>
        publishReleaseFromEditor(request, id, newsPublishSchema.parse(body)),
      note: '`informationTypes` names the categories whose subscribers are mailed, queued in the publishing transaction (none: no mailing); `mailingVersion` is the mailing’s version as shown.',
    },
  });
  adminRoute(app, 'GET', `${NEWS_RELEASES_API}/:id/mailing`, {
    ...itemGuard(newsAdapter),
    rateLimit: perMinute(600),
    summary: 'A news release’s state on the site with its mailing and its site’s categories',
    description:
      'For the editor’s publish: the categories whose subscribers can be mailed, the mailing queued or sent, a waiting scheduled publish.',
    params: newsIdParamsSchema,
    answer: jsonAnswer(adminNewsRowSchema, 'The release'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => newsRowOf(request, request.params.id),
  });
  contentScheduleRoutes(app, NEWS_RELEASES_API, newsKind, {
    noun: 'news release',
    schedule: {
      body: newsScheduleCreateSchema,
      payload: (request, id, body) => releaseSchedulePayload(request, id, body),
      note: 'A publish may name `informationTypes`: their subscribers are mailed when it runs.',
    },
  });
}
