import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { sites } from '../../../sites/registry.ts';
import { adminRoute, queryScope, scopeWhere } from '../../staff/index.server.ts';
import type { AccessGrant } from '../../staff/index.ts';
import {
  contentItems,
  contentVersions,
  facetCategories,
  facetTags,
  pages,
  recipes,
} from '../tables.ts';
import { BODY_LIMIT, contentItemRoutes, READ, WRITE } from './item-routes.server.ts';
import { recipeAdapter } from './recipes.server.ts';
import { contentScheduleRoutes } from './schedule-routes.server.ts';
import {
  facetOptionsSchema,
  RECIPES_ADMIN_API,
  type RecipeListRow,
  recipeCreateSchema,
  recipeOpenSchema,
  recipeSaveSchema,
  recipesListSchema,
  recipesQuerySchema,
  recipeVersionSchema,
  scopeQuerySchema,
} from './schemas.ts';
import { createItem, openItem } from './versions.server.ts';

const PAGE_SIZE = 50;

const editor = { staff: { permission: 'content.edit' } } as const;
/** A route for a site and language named in its query: the guard checks the grant for it. */
export const scoped = { staff: { permission: 'content.edit', scope: queryScope } } as const;
const opened = jsonAnswer(recipeOpenSchema, 'The recipe as it is now, opened for editing');

/** The sites and languages the grants give `content.edit` for. */
export function editableScopes(grants: readonly AccessGrant[]) {
  const scopes = new Map<string, { siteId: string; lang: string }>();
  for (const grant of grants) {
    if (!grant.permissions.includes('content.edit')) continue;
    for (const site of sites) {
      if (grant.sites !== null && !grant.sites.includes(site.id)) continue;
      for (const lang of site.languages) {
        if (grant.langs !== null && !grant.langs.includes(lang)) continue;
        scopes.set(`${site.id}/${lang}`, { siteId: site.id, lang });
      }
    }
  }
  return [...scopes.values()];
}

/**
 * The recipes the grants reach: published ones (with whether a newer draft waits) and those not
 * yet published, most recently changed first.
 */
async function listRecipes(
  request: FastifyRequest,
  query: {
    site?: string | undefined;
    lang?: string | undefined;
    q?: string | undefined;
    offset: number;
  },
) {
  const db = request.server.db;
  const grants = request.staff?.grants ?? [];
  const q = query.q ? `%${query.q.replace(/[%_\\]/g, '\\$&')}%` : undefined;
  const live: SQL[] = [
    scopeWhere(grants, 'content.edit', { site: recipes.siteId, lang: recipes.lang }),
  ];
  const drafts: SQL[] = [
    scopeWhere(grants, 'content.edit', { site: contentItems.siteId, lang: contentItems.lang }),
    eq(contentItems.kind, 'recipe'),
    isNull(contentItems.publishedVersion),
  ];
  if (query.site) {
    live.push(eq(recipes.siteId, query.site));
    drafts.push(eq(contentItems.siteId, query.site));
  }
  if (query.lang) {
    live.push(eq(recipes.lang, query.lang));
    drafts.push(eq(contentItems.lang, query.lang));
  }
  if (q) {
    live.push(sql`${recipes.title} ilike ${q}`);
    drafts.push(sql`${contentVersions.document}->>'title' ilike ${q}`);
  }
  const liveRows = db
    .select({
      id: recipes.id,
      siteId: recipes.siteId,
      lang: recipes.lang,
      title: recipes.title,
      path: recipes.path,
      state:
        sql<string>`case when ${contentItems.headVersion} > ${contentItems.publishedVersion} then 'changed' else 'published' end`.as(
          'state',
        ),
      updatedAt: sql<Date>`greatest(${recipes.updatedAt}, ${contentItems.updatedAt})`.as(
        'updated_at',
      ),
      version: sql<number>`coalesce(${contentItems.headVersion}, 1)`.as('version'),
    })
    .from(recipes)
    .leftJoin(
      contentItems,
      and(eq(contentItems.kind, 'recipe'), eq(contentItems.itemId, recipes.id)),
    )
    .where(and(...live));
  const draftRows = db
    .select({
      id: contentItems.itemId,
      siteId: contentItems.siteId,
      lang: contentItems.lang,
      title: sql<string>`${contentVersions.document}->>'title'`,
      path: sql<string>`${contentVersions.document}->>'path'`,
      state: sql<string>`'draft'`,
      updatedAt: contentItems.updatedAt,
      version: contentItems.headVersion,
    })
    .from(contentItems)
    .innerJoin(
      contentVersions,
      and(
        eq(contentVersions.kind, contentItems.kind),
        eq(contentVersions.itemId, contentItems.itemId),
        eq(contentVersions.version, contentItems.headVersion),
      ),
    )
    .where(and(...drafts));
  const union = liveRows.unionAll(draftRows).as('u');
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(union)
      .orderBy(desc(union.updatedAt), desc(union.id))
      .limit(PAGE_SIZE)
      .offset(query.offset),
    db.select({ n: count() }).from(union),
  ]);
  return {
    recipes: rows.map(
      (r): RecipeListRow => ({
        id: r.id,
        siteId: r.siteId,
        lang: r.lang,
        title: r.title,
        path: r.path,
        state: r.state as RecipeListRow['state'],
        updatedAt: new Date(r.updatedAt).toISOString(),
        version: Number(r.version),
      }),
    ),
    total: Number(total?.n ?? 0),
    scopes: editableScopes(grants),
  };
}

async function facetOptions(request: FastifyRequest, scope: { site: string; lang: string }) {
  const rows = await request.server.db
    .select({
      categoryId: facetCategories.id,
      category: facetCategories.name,
      id: facetTags.id,
      name: facetTags.name,
    })
    .from(facetCategories)
    .innerJoin(facetTags, eq(facetTags.categoryId, facetCategories.id))
    .where(
      and(
        eq(facetCategories.siteId, scope.site),
        eq(facetCategories.lang, scope.lang),
        eq(facetCategories.scope, 'recipes'),
      ),
    )
    .orderBy(
      asc(facetCategories.sortOrder),
      asc(facetCategories.id),
      asc(facetTags.sortOrder),
      asc(facetTags.id),
    );
  const categories = new Map<
    number,
    { id: number; name: string; tags: { id: number; name: string }[] }
  >();
  for (const row of rows) {
    const category = categories.get(row.categoryId) ?? {
      id: row.categoryId,
      name: row.category,
      tags: [],
    };
    category.tags.push({ id: row.id, name: row.name });
    categories.set(row.categoryId, category);
  }
  const [list] = await request.server.db
    .select({ path: pages.path })
    .from(pages)
    .where(
      and(eq(pages.siteId, scope.site), eq(pages.lang, scope.lang), eq(pages.type, 'recipe-list')),
    )
    .orderBy(sql`length(${pages.path})`, asc(pages.id))
    .limit(1);
  return { listPath: list?.path ?? null, categories: [...categories.values()] };
}

/**
 * The back office's recipe editing (decision 162). Every route needs `content.edit` somewhere;
 * each checks the item's own site and language (403 outside the grants), and publishing needs
 * `content.publish` there. Writes name the version they were made on (409 when stale).
 */
export function recipeAdminRoutes(app: ZodApp) {
  contentItemRoutes(app, {
    api: RECIPES_ADMIN_API,
    adapter: recipeAdapter,
    noun: 'recipe',
    openSchema: recipeOpenSchema,
    versionSchema: recipeVersionSchema,
    saveSchema: recipeSaveSchema,
    saveNote:
      'A published path that changes keeps answering with 301 to the new one when published.',
  });
  // Unpublishing, scheduled publishing and bulk actions (decision 167).
  contentScheduleRoutes(app, RECIPES_ADMIN_API, { adapter: recipeAdapter }, { noun: 'recipe' });
  adminRoute(app, 'GET', RECIPES_ADMIN_API, {
    ...editor,
    rateLimit: READ,
    summary: 'The recipes of the sites and languages the staff member may edit',
    description:
      'Published ones (`state` published, or changed when a newer draft waits) and never published drafts, the most recently changed first; 50 from `offset`. `scopes` lists where a new recipe may be made.',
    querystring: recipesQuerySchema,
    answer: jsonAnswer(recipesListSchema, 'Recipes'),
    problems: [400, 401, 403, 429],
    handler: (request) => listRecipes(request, request.query),
  });
  adminRoute(app, 'POST', RECIPES_ADMIN_API, {
    ...scoped,
    rateLimit: WRITE,
    bodyLimit: BODY_LIMIT,
    summary:
      'Makes a recipe of a site and language (`site`, `lang`) with its first draft (version 1)',
    description:
      'Nothing shows on the site until it is published. 403 for a site or language outside the grants; 400 with field errors (`document.path` taken, an image or tag that does not exist there).',
    querystring: scopeQuerySchema,
    body: recipeCreateSchema,
    answer: opened,
    problems: [400, 401, 403, 429],
    handler: async (request) => {
      const { site: siteId, lang } = request.query;
      const { document } = request.body;
      const id = await createItem(request, recipeAdapter, { siteId, lang }, document);
      return openItem(request, recipeAdapter, id);
    },
  });
  adminRoute(app, 'GET', `${RECIPES_ADMIN_API}/options`, {
    ...scoped,
    rateLimit: READ,
    summary: 'The recipe categories and tags of a site and language, to choose from',
    querystring: scopeQuerySchema,
    answer: jsonAnswer(facetOptionsSchema, 'Categories with their tags'),
    problems: [400, 401, 403, 429],
    handler: (request) => facetOptions(request, request.query),
  });
}
