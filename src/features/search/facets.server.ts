import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { serverT } from '../../i18n/catalogues.ts';
import type { Lang } from '../../sites/types.ts';
import type { ContentGroupOption, FacetCategory } from './schemas.ts';
import type { FacetScope } from './search.server.ts';

/**
 * The content-group options of the site search's radio filter: everything, and products and
 * recipes where the site has them in that language.
 */
export async function contentGroupOptions(
  db: Database,
  siteId: string,
  lang: Lang | undefined,
): Promise<ContentGroupOption[]> {
  if (!lang) return [];
  const t = serverT(lang);
  const result = (await db.execute(sql`
    select distinct content_group as group from search_documents
    where site_id = ${siteId} and lang = ${lang} and content_group in (1, 2)
  `)) as unknown as { rows: { group: number }[] };
  const present = new Set(result.rows.map((r) => Number(r.group)));
  return [
    { key: t('search.group.all'), value: 0 },
    ...(present.has(1) ? [{ key: t('search.group.products'), value: 1 }] : []),
    ...(present.has(2) ? [{ key: t('search.group.recipes'), value: 2 }] : []),
  ];
}

/**
 * Facet definitions of a site and language: categories of the given scopes with their tags, each
 * counted over all the site's documents in that language.
 */
export async function facetDefinitions(
  db: Database,
  siteId: string,
  lang: Lang | undefined,
  scopes: readonly FacetScope[],
): Promise<FacetCategory[]> {
  if (!lang || scopes.length === 0) return [];
  const result = (await db.execute(sql`
    with counts as (
      select x.tag, count(*)::int as n
      from search_documents d cross join lateral unnest(d.facet_tag_ids) as x(tag)
      where d.site_id = ${siteId} and d.lang = ${lang}
      group by x.tag
    )
    select coalesce(json_agg(json_build_object(
      'id', c.id,
      'name', c.name,
      'facetTags', (
        select coalesce(json_agg(json_build_object(
          'id', t.id, 'name', t.name, 'count', coalesce(k.n, 0), 'selected', false,
          'display', t.display
        ) order by t.sort_order, t.id), '[]'::json)
        from facet_tags t left join counts k on k.tag = t.id
        where t.category_id = c.id
      )
    ) order by c.scope, c.sort_order, c.id), '[]'::json) as categories
    from facet_categories c
    where c.site_id = ${siteId} and c.lang = ${lang}
      and c.scope = any(${`{${scopes.join(',')}}`}::text[])
  `)) as unknown as { rows: { categories: FacetCategory[] | string }[] };
  const categories = result.rows[0]?.categories ?? [];
  return typeof categories === 'string' ? JSON.parse(categories) : categories;
}

/**
 * The recipe search of a page: `recipeSearchBlockId` names the recipe-list page that holds it (the
 * content model has no separate search blocks). Undefined when there is no such page on the site.
 */
export async function recipeSearchPage(
  db: Database,
  siteId: string,
  pageId: number,
): Promise<{ lang: Lang } | undefined> {
  const result = (await db.execute(sql`
    select lang from pages where id = ${pageId} and site_id = ${siteId} and type = 'recipe-list'
  `)) as unknown as { rows: { lang: Lang }[] };
  return result.rows[0];
}
