import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import type { FieldErrors } from '../../../server/errors.ts';
import { existingImages } from '../media/where-used.server.ts';
import { facetCategories, facetTags, pages } from '../tables.ts';

/**
 * What content documents refer to, checked the same way for every kind (decisions 162, 171):
 * pictures of the image library, and facet tags of the item's own site and language.
 */

type Db = Database | Transaction;
type Scope = { siteId: string; lang: string };
/** Which listing's facets: a product's or a recipe's. */
type FacetScope = 'products' | 'recipes';

/** `admin.recipe.imageMissing` on each field (`imageIds.2`) whose picture is not in the library. */
export async function imageErrors(db: Db, wanted: readonly (readonly [string, number])[]) {
  const errors: FieldErrors = {};
  if (wanted.length === 0) return errors;
  // Locked against a delete until the save's transaction ends (decision 168).
  const have = await existingImages(db, [...new Set(wanted.map(([, id]) => id))]);
  for (const [field, id] of wanted)
    if (!have.has(id)) errors[field] ??= 'admin.recipe.imageMissing';
  return errors;
}

/** `admin.recipe.tagMissing` on each tag (`facetTagIds.1`) that is not one of the site's. */
export async function tagErrors(
  db: Db,
  scope: Scope,
  facets: FacetScope,
  doc: { facetTagIds: number[]; categoryIds: number[] },
) {
  const errors: FieldErrors = {};
  const ids = [...new Set([...doc.facetTagIds, ...doc.categoryIds])];
  if (ids.length === 0) return errors;
  const rows = await db
    .select({ id: facetTags.id })
    .from(facetTags)
    .innerJoin(facetCategories, eq(facetCategories.id, facetTags.categoryId))
    .where(
      and(
        inArray(facetTags.id, ids),
        eq(facetCategories.siteId, scope.siteId),
        eq(facetCategories.lang, scope.lang),
        eq(facetCategories.scope, facets),
      ),
    );
  const have = new Set(rows.map((r) => r.id));
  for (const field of ['facetTagIds', 'categoryIds'] as const) {
    doc[field].forEach((tag, i) => {
      if (!have.has(tag)) errors[`${field}.${i}`] ??= 'admin.recipe.tagMissing';
    });
  }
  return errors;
}

/** The facet categories of a site's language version with their tags, in their order. */
export async function facetCategoriesOf(db: Db, scope: Scope, facets: FacetScope) {
  const rows = await db
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
        eq(facetCategories.siteId, scope.siteId),
        eq(facetCategories.lang, scope.lang),
        eq(facetCategories.scope, facets),
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
  return [...categories.values()];
}

/** Where a site's language version lists a kind (its first page of `type`), or null. */
export async function listingPathOf(db: Db, scope: Scope, type: 'recipe-list' | 'product-list') {
  const [list] = await db
    .select({ path: pages.path })
    .from(pages)
    .where(and(eq(pages.siteId, scope.siteId), eq(pages.lang, scope.lang), eq(pages.type, type)))
    .orderBy(sql`length(${pages.path})`, asc(pages.id))
    .limit(1);
  return list?.path ?? null;
}
