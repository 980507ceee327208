import { and, eq, ne } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../../db/client.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import type { RecipeRow as RecipeDto } from '../content.server.ts';
import { newsReleases, pages, products, recipes } from '../tables.ts';
import { documentColumnsOf, liveOf, writeContentRow } from './live-rows.server.ts';
import { imageErrors, tagErrors } from './references.server.ts';
import { type RecipeDocument, recipeDocumentSchema } from './schemas.ts';
import type { KindAdapter, PreviewVersion } from './versions.server.ts';

type Db = Database | Transaction;
type RecipeRow = typeof recipes.$inferSelect;

/** A live recipe row as a version's document: the columns an editor writes. */
export function recipeDocumentOf(row: RecipeRow): RecipeDocument {
  return documentColumnsOf(row, recipeDocumentSchema);
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

/** The field error of a document's path when other content of its language version is there. */
export async function pathErrors(
  db: Db,
  item: { siteId: string; lang: string; itemId: number },
  path: string,
  table: 'recipes' | 'pages' | 'products' | 'news',
): Promise<FieldErrors> {
  const taken = await pathTaken(db, item, path, { table, id: item.itemId });
  return taken ? { path: 'admin.recipe.pathTaken' } : {};
}

/** Recipes in the versions (decision 162): the live row is the `recipes` row of the same id. */
export const recipeAdapter: KindAdapter<RecipeDocument> = {
  kind: 'recipe',
  table: 'recipes',
  schema: recipeDocumentSchema,
  live: liveOf(recipes, recipeDocumentOf),
  check: async (db, item, doc) => ({
    ...(await tagErrors(db, item, 'recipes', doc)),
    ...(await imageErrors(db, doc.imageId === null ? [] : [['imageId', doc.imageId]])),
    ...(await pathErrors(db, item, doc.path, 'recipes')),
  }),
  writeLive: (tx, item, doc, exists, at) => writeContentRow(tx, recipes, item, doc, exists, at),
};

/** A recipe's version as the recipe route renders it, for a preview link. */
export function recipePreview(
  claims: { i: number; s: string; l: string },
  found: PreviewVersion<RecipeDocument>,
): RecipeDto {
  const { live, document } = found;
  const now = new Date();
  return {
    id: claims.i,
    siteId: claims.s,
    lang: claims.l,
    ...document,
    likeCount: 0,
    translationKey: live?.translationKey ?? `recipe-preview-${claims.i}`,
    publishedAt: live?.publishedAt ?? now,
    updatedAt: now,
  };
}
