import { and, eq, ne } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../../db/client.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import { newsReleases, pages, products, recipes } from '../tables.ts';
import { liveRowOf, writeContentRow } from './live-rows.server.ts';
import { imageErrors, tagErrors } from './references.server.ts';
import { type RecipeDocument, recipeDocumentSchema } from './schemas.ts';
import type { KindAdapter } from './versions.server.ts';

type Db = Database | Transaction;
type RecipeRow = typeof recipes.$inferSelect;

/** A live recipe row as a version's document: the columns an editor writes. */
export function recipeDocumentOf(row: RecipeRow): RecipeDocument {
  return {
    path: row.path,
    title: row.title,
    teaser: row.teaser,
    imageId: row.imageId,
    yield: row.yield,
    portionSize: row.portionSize,
    portionUnit: row.portionUnit,
    totalYieldKg: row.totalYieldKg,
    totalTimeMinutes: row.totalTimeMinutes,
    steps: row.steps,
    nutrients: row.nutrients,
    facetTagIds: row.facetTagIds,
    categoryIds: row.categoryIds,
    equipment: row.equipment,
  };
}

/** Whether another piece of content of the site's language version answers at `path`. */
export async function pathTaken(
  db: Db,
  scope: { siteId: string; lang: string },
  path: string,
  own: { table: 'recipes' | 'pages' | 'products' | 'news'; id: number },
): Promise<boolean> {
  const where = <T extends typeof pages | typeof products | typeof recipes | typeof newsReleases>(
    table: T,
    name: typeof own.table,
  ) =>
    and(
      eq(table.siteId, scope.siteId),
      eq(table.lang, scope.lang),
      eq(table.path, path),
      name === own.table ? ne(table.id, own.id) : undefined,
    );
  // One statement: a transaction's client runs one query at a time.
  const [taken] = await unionAll(
    db.select({ id: pages.id }).from(pages).where(where(pages, 'pages')),
    db.select({ id: products.id }).from(products).where(where(products, 'products')),
    db.select({ id: recipes.id }).from(recipes).where(where(recipes, 'recipes')),
    db.select({ id: newsReleases.id }).from(newsReleases).where(where(newsReleases, 'news')),
  ).limit(1);
  return taken !== undefined;
}

/** Recipes in the versions (decision 162): the live row is the `recipes` row of the same id. */
export const recipeAdapter: KindAdapter<RecipeDocument> = {
  kind: 'recipe',
  table: 'recipes',
  schema: recipeDocumentSchema,
  async live(db, id) {
    const [row] = await db.select().from(recipes).where(eq(recipes.id, id));
    return row ? liveRowOf(row, recipeDocumentOf(row)) : undefined;
  },
  async check(db, item, doc) {
    const errors: FieldErrors = {
      ...(await tagErrors(db, item, 'recipes', doc)),
      ...(await imageErrors(db, doc.imageId === null ? [] : [['imageId', doc.imageId]])),
    };
    if (await pathTaken(db, item, doc.path, { table: 'recipes', id: item.itemId })) {
      errors.path = 'admin.recipe.pathTaken';
    }
    return errors;
  },
  writeLive: (tx, item, doc, exists, at) => writeContentRow(tx, recipes, item, doc, exists, at),
};
