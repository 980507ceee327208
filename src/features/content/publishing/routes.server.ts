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
import { previewLink } from './preview.server.ts';
import { recipeAdapter } from './recipes.server.ts';
import {
  facetOptionsSchema,
  itemIdParamsSchema,
  presenceSchema,
  previewLinkSchema,
  previewRequestSchema,
  publishSchema,
  RECIPES_ADMIN_API,
  type RecipeListRow,
  recipeCreateSchema,
  recipeOpenSchema,
  recipeSaveSchema,
  recipesListSchema,
  recipesQuerySchema,
  recipeVersionSchema,
  restoreSchema,
  scopeQuerySchema,
  versionParamsSchema,
} from './schemas.ts';
import {
  assertMayEdit,
  createItem,
  heartbeat,
  leave,
  openItem,
  publishVersion,
  readVersion,
  restoreVersion,
  saveDraft,
} from './versions.server.ts';

const READ = { max: 600, timeWindow: 60_000 };
const WRITE = { max: 240, timeWindow: 60_000 };
/** A recipe's document is a few KiB; 256 KiB leaves room for a long one and refuses nonsense. */
const BODY_LIMIT = 256 * 1024;
const PAGE_SIZE = 50;

const editor = { staff: { permission: 'content.edit' } } as const;
/** A route for a site and language named in its query: the guard checks the grant for it. */
const scoped = { staff: { permission: 'content.edit', scope: queryScope } } as const;
/**
 * A route about one recipe: the grant for the recipe's own site and language is checked before
 * the body is read (403 outside it, whatever the body says).
 */
const onItem = {
  ...editor,
  preValidation: async (request: FastifyRequest) => {
    const id = Number((request.params as { id?: unknown }).id);
    // An id that is no number is refused by the params' schema (400).
    if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
    await assertMayEdit(request, recipeAdapter, id);
  },
};
const writer = { ...onItem, rateLimit: WRITE, bodyLimit: BODY_LIMIT };
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
  recipeItemRoutes(app);
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

/** The routes about one recipe: open, a version, save, publish, restore, preview, presence. */
function recipeItemRoutes(app: ZodApp) {
  adminRoute(app, 'GET', `${RECIPES_ADMIN_API}/:id`, {
    ...onItem,
    rateLimit: READ,
    summary:
      'A recipe opened for editing: its newest version, its history and who else has it open',
    params: itemIdParamsSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openItem(request, recipeAdapter, request.params.id),
  });
  adminRoute(app, 'GET', `${RECIPES_ADMIN_API}/:id/versions/:version`, {
    ...onItem,
    rateLimit: READ,
    summary: 'One version of a recipe, whole (to compare or restore)',
    params: versionParamsSchema,
    answer: jsonAnswer(recipeVersionSchema, 'The version'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) =>
      readVersion(request, recipeAdapter, request.params.id, request.params.version),
  });
  adminRoute(app, 'PUT', `${RECIPES_ADMIN_API}/:id`, {
    ...writer,
    summary: 'Saves a draft: a new version; the site is not changed',
    description:
      '`basedOn` is the version the editor started from. When someone saved since, 409 (`/problems/stale-version`) with `current`, the newest version, to compare with and apply the edits to. A published path cannot change (`document.path`).',
    params: itemIdParamsSchema,
    body: recipeSaveSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      await saveDraft(
        request,
        recipeAdapter,
        request.params.id,
        request.body.basedOn,
        request.body.document,
      );
      return openItem(request, recipeAdapter, request.params.id);
    },
  });
  adminRoute(app, 'POST', `${RECIPES_ADMIN_API}/:id/publish`, {
    ...writer,
    summary: 'Publishes the newest version: the site shows it, search finds it',
    description:
      'Needs `content.publish` for the recipe’s site and language. `version` must be the newest (409 with `current` otherwise); the same version again changes nothing.',
    params: itemIdParamsSchema,
    body: publishSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      await publishVersion(request, recipeAdapter, request.params.id, request.body.version);
      return openItem(request, recipeAdapter, request.params.id);
    },
  });
  adminRoute(app, 'POST', `${RECIPES_ADMIN_API}/:id/restore`, {
    ...writer,
    summary: 'Makes an old version the newest again, as a new draft',
    description: '`basedOn` is the newest version the editor saw (409 with `current` when stale).',
    params: itemIdParamsSchema,
    body: restoreSchema,
    answer: opened,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      const { version, basedOn } = request.body;
      await restoreVersion(request, recipeAdapter, request.params.id, version, basedOn);
      return openItem(request, recipeAdapter, request.params.id);
    },
  });
  adminRoute(app, 'POST', `${RECIPES_ADMIN_API}/:id/preview`, {
    ...writer,
    summary: 'A signed link that shows a version on the site for 15 minutes',
    description:
      'The page is rendered by the site’s own renderer and theme, marked as a preview, `no-store` and `noindex`; it never enters the page cache.',
    params: itemIdParamsSchema,
    body: previewRequestSchema,
    answer: jsonAnswer(previewLinkSchema, 'The link and when it stops opening'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => previewLink(request, request.params.id, request.body.version),
  });
  adminRoute(app, 'PUT', `${RECIPES_ADMIN_API}/:id/presence`, {
    ...onItem,
    rateLimit: WRITE,
    summary: 'The staff member has the recipe open (sent every 20 seconds); answers who else has',
    params: itemIdParamsSchema,
    answer: jsonAnswer(presenceSchema, 'The others who have it open'),
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => ({
      present: await heartbeat(request, recipeAdapter, request.params.id),
    }),
  });
  adminRoute(app, 'DELETE', `${RECIPES_ADMIN_API}/:id/presence`, {
    ...onItem,
    rateLimit: WRITE,
    summary: 'The staff member closed the recipe',
    params: itemIdParamsSchema,
    answer: jsonAnswer(presenceSchema, 'Nobody: the answer is always empty'),
    problems: [400, 401, 403, 429],
    handler: async (request) => {
      await leave(request, recipeAdapter, request.params.id);
      return { present: [] };
    },
  });
}
