import { asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { facetCategories, facetTags } from '../tables.ts';
import type { RecipeFacet } from './page-seo.ts';

/** The facet tags of a recipe with their categories' names, for `recipeSeo`. One query. */
export async function recipeFacets(
  db: Database,
  tagIds: readonly number[],
): Promise<RecipeFacet[]> {
  if (tagIds.length === 0) return [];
  return db
    .select({ category: facetCategories.name, name: facetTags.name })
    .from(facetTags)
    .innerJoin(facetCategories, eq(facetCategories.id, facetTags.categoryId))
    .where(inArray(facetTags.id, [...new Set(tagIds)]))
    .orderBy(asc(facetCategories.sortOrder), asc(facetTags.sortOrder), asc(facetTags.id));
}
