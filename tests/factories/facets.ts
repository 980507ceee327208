import type { Database } from '../../src/db/client.ts';
import { facetCategories, facetTags } from '../../src/features/content/tables.ts';

/** A tag by name (sort order = its place in the list), or with its own sort order and display. */
export type FacetTagInput = string | { name: string; sortOrder?: number; display?: boolean };

export interface FacetCategoryInput {
  siteId: string;
  lang?: string;
  /** products, recipes or news. */
  scope: string;
  name: string;
  sortOrder?: number;
  tags: FacetTagInput[];
}

export interface CreatedFacetCategory {
  id: number;
  /** Tag ids by tag name. */
  tags: Record<string, number>;
}

/** A facet category with its tags (Finnish unless `lang` says otherwise); returns their ids. */
export async function createFacetCategory(
  db: Database,
  { tags, lang = 'fi', ...category }: FacetCategoryInput,
): Promise<CreatedFacetCategory> {
  const [row] = await db
    .insert(facetCategories)
    .values({ ...category, lang })
    .returning({ id: facetCategories.id });
  if (!row) throw new Error('no facet category row');
  const values = tags.map((tag, i) => ({
    categoryId: row.id,
    sortOrder: i,
    ...(typeof tag === 'string' ? { name: tag } : tag),
  }));
  const rows =
    values.length === 0
      ? []
      : await db
          .insert(facetTags)
          .values(values)
          .returning({ id: facetTags.id, name: facetTags.name });
  return { id: row.id, tags: Object.fromEntries(rows.map((r) => [r.name, r.id])) };
}
