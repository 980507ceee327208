import type { FastifyRequest } from 'fastify';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import { recipes } from '../tables.ts';
import { type ListQuery, listKind, listSpecOf } from './item-list.server.ts';
import { contentCreateRoute, contentItemRoutes, READ, scoped } from './item-routes.server.ts';
import { recipeAdapter } from './recipes.server.ts';
import { facetCategoriesOf, listingPathOf } from './references.server.ts';
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

const editor = { staff: { permission: 'content.edit' } } as const;

// The sites and languages the grants give `content.edit` for (the page routes take it here).
export { editableScopes } from './item-list.server.ts';

/**
 * The recipes the grants reach: published ones (with whether a newer draft waits) and those not
 * yet published, most recently changed first.
 */
async function listRecipes(request: FastifyRequest, query: ListQuery) {
  const { rows, total, scopes } = await listKind(request, recipeList, query);
  return {
    recipes: rows.map(({ detail, ...row }): RecipeListRow => ({ ...row, path: detail })),
    total,
    scopes,
  };
}

const recipeList = listSpecOf('recipe', recipes, 'title', 'path');

async function facetOptions(request: FastifyRequest, scope: { site: string; lang: string }) {
  const where = { siteId: scope.site, lang: scope.lang };
  const categories = await facetCategoriesOf(request.server.db, where, 'recipes');
  const listPath = await listingPathOf(request.server.db, where, 'recipe-list');
  return { listPath, categories };
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
  contentCreateRoute(app, {
    api: RECIPES_ADMIN_API,
    adapter: recipeAdapter,
    noun: 'recipe',
    createSchema: recipeCreateSchema,
    answer: jsonAnswer(recipeOpenSchema, 'The recipe as it is now, opened for editing'),
    fieldErrors: '`document.path` taken, an image or tag that does not exist there',
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
