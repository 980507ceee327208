import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import { contentItems, contentVersions, pages } from '../tables.ts';
import { atHeadVersion, editableScopes } from './item-list.server.ts';
import { contentCreateRoute, contentItemRoutes, READ } from './item-routes.server.ts';
import { pageAdapter } from './pages.server.ts';
import { contentScheduleRoutes } from './schedule-routes.server.ts';
import {
  PAGES_ADMIN_API,
  type PageTreeRow,
  pageCreateSchema,
  pageOpenSchema,
  pageSaveSchema,
  pageTreeQuerySchema,
  pageTreeSchema,
  pageVersionSchema,
} from './schemas.ts';
import { assertMay } from './versions.server.ts';

/**
 * The pages of one site and language, all of them (a site has some hundreds), for the tree:
 * published ones with whether a newer draft waits, and new pages not yet published (where their
 * newest draft puts them). Without `site` and `lang`, the first the grants reach.
 */
async function pageTree(
  request: FastifyRequest,
  query: { site?: string | undefined; lang?: string | undefined },
) {
  const db = request.server.db;
  const scopes = editableScopes(request.staff?.grants ?? []);
  const first = scopes[0];
  const scope =
    query.site && query.lang
      ? { siteId: query.site, lang: query.lang }
      : first
        ? { siteId: first.siteId, lang: first.lang }
        : null;
  if (!scope) return { siteId: null, lang: null, pages: [], scopes };
  assertMay(request, 'content.edit', scope);
  const [live, drafts] = await Promise.all([
    db
      .select({
        id: pages.id,
        parentId: pages.parentId,
        path: pages.path,
        title: pages.title,
        type: pages.type,
        sortOrder: pages.sortOrder,
        head: contentItems.headVersion,
        published: contentItems.publishedVersion,
      })
      .from(pages)
      .leftJoin(contentItems, and(eq(contentItems.kind, 'page'), eq(contentItems.itemId, pages.id)))
      .where(and(eq(pages.siteId, scope.siteId), eq(pages.lang, scope.lang)))
      .orderBy(asc(pages.sortOrder), asc(pages.path)),
    db
      .select({ id: contentItems.itemId, document: contentVersions.document })
      .from(contentItems)
      .innerJoin(contentVersions, atHeadVersion)
      .where(
        and(
          eq(contentItems.kind, 'page'),
          eq(contentItems.siteId, scope.siteId),
          eq(contentItems.lang, scope.lang),
          isNull(contentItems.publishedVersion),
        ),
      ),
  ]);
  const rows: PageTreeRow[] = live.map((r) => ({
    id: r.id,
    parentId: r.parentId,
    path: r.path,
    title: r.title,
    type: r.type,
    sortOrder: r.sortOrder,
    state:
      r.head !== null && r.published !== null && r.head > r.published ? 'changed' : 'published',
  }));
  for (const draft of drafts) {
    const doc = pageAdapter.schema.safeParse(draft.document);
    if (!doc.success) continue;
    rows.push({
      id: draft.id,
      parentId: doc.data.parentId,
      path: doc.data.path,
      title: doc.data.title,
      type: doc.data.type,
      sortOrder: doc.data.sortOrder,
      state: 'draft',
    });
  }
  return { siteId: scope.siteId, lang: scope.lang, pages: rows, scopes };
}

/**
 * The back office's page editing (decision 166): the tree of a site and language, a new page,
 * and the routes about one page that every kind shares (decision 162). The list of pages
 * (`GET /api/admin/content/pages`) is the content feature's older route.
 */
export function pageAdminRoutes(app: ZodApp) {
  adminRoute(app, 'GET', `${PAGES_ADMIN_API}/tree`, {
    staff: { permission: 'content.edit' },
    rateLimit: READ,
    summary: 'The page tree of a site and language the staff member may edit',
    description:
      'Every page of the site’s language version with its parent, published or not; `scopes` lists the sites and languages the staff member may edit. Without `site` and `lang`, the first of them; 403 for one outside the grants.',
    querystring: pageTreeQuerySchema,
    answer: jsonAnswer(pageTreeSchema, 'The pages'),
    problems: [400, 401, 403, 429],
    handler: (request) => pageTree(request, request.query),
  });
  contentCreateRoute(app, {
    api: PAGES_ADMIN_API,
    adapter: pageAdapter,
    noun: 'page',
    createSchema: pageCreateSchema,
    answer: jsonAnswer(pageOpenSchema, 'The page opened for editing'),
    fieldErrors: '`document.path` taken, a parent, image or block that is not valid there',
  });
  contentItemRoutes(app, {
    api: PAGES_ADMIN_API,
    adapter: pageAdapter,
    noun: 'page',
    openSchema: pageOpenSchema,
    versionSchema: pageVersionSchema,
    saveSchema: pageSaveSchema,
    saveNote:
      'The blocks are checked with the renderer’s own schemas; a published path that changes keeps answering with 301 to the new one when published.',
  });
  // Unpublishing and scheduled publishing (decision 167).
  contentScheduleRoutes(app, PAGES_ADMIN_API, { adapter: pageAdapter }, { noun: 'page' });
}
