import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { newsReleases, pages, products, recipes } from '../../../db/schema.ts';
import type { Lang, Site } from '../../../sites/types.ts';
import type { SitemapEntry } from './sitemap.ts';
import { absoluteUrl, localizedPath } from './urls.ts';

interface Row {
  lang: string;
  path: string;
  translationKey: string;
  updatedAt: Date;
}

/**
 * Every page, product, recipe and news release of a site in each of its languages, with the
 * language versions of each (rows of one table sharing a translation key). One query per table,
 * only the four columns a sitemap needs, in a stable order so parts keep their URLs between requests.
 */
export async function sitemapEntries(
  db: Database,
  site: Site,
  origin: string,
): Promise<SitemapEntry[]> {
  const langs = [...site.languages];
  const columns = <T extends typeof pages | typeof products | typeof recipes | typeof newsReleases>(
    table: T,
  ) => ({
    lang: table.lang,
    path: table.path,
    translationKey: table.translationKey,
    updatedAt: table.updatedAt,
  });
  const [pageRows, productRows, recipeRows, newsRows] = await Promise.all([
    db
      .select(columns(pages))
      .from(pages)
      // External pages are menu links to other addresses, not pages of this site.
      .where(
        and(eq(pages.siteId, site.id), inArray(pages.lang, langs), eq(pages.isExternal, false)),
      )
      .orderBy(asc(pages.path), asc(pages.lang)),
    db
      .select(columns(products))
      .from(products)
      .where(and(eq(products.siteId, site.id), inArray(products.lang, langs)))
      .orderBy(asc(products.path), asc(products.lang)),
    db
      .select(columns(recipes))
      .from(recipes)
      .where(and(eq(recipes.siteId, site.id), inArray(recipes.lang, langs)))
      .orderBy(asc(recipes.path), asc(recipes.lang)),
    db
      .select(columns(newsReleases))
      .from(newsReleases)
      .where(and(eq(newsReleases.siteId, site.id), inArray(newsReleases.lang, langs)))
      .orderBy(asc(newsReleases.path), asc(newsReleases.lang)),
  ]);
  return [pageRows, productRows, recipeRows, newsRows].flatMap((rows) =>
    entriesOf(rows, site, origin),
  );
}

/** Entries of one table's rows; translation keys are only compared within a table. */
export function entriesOf(rows: readonly Row[], site: Site, origin: string): SitemapEntry[] {
  const url = (row: { lang: string; path: string }) =>
    absoluteUrl(origin, localizedPath(site, row.lang as Lang, row.path));
  const groups = new Map<string, Map<Lang, string>>();
  for (const row of rows) {
    let group = groups.get(row.translationKey);
    if (!group) {
      group = new Map();
      groups.set(row.translationKey, group);
    }
    const lang = row.lang as Lang;
    if (!group.has(lang)) group.set(lang, url(row));
  }
  const [defaultLang] = site.languages;
  return rows.map((row) => {
    const group = groups.get(row.translationKey);
    const alternates: SitemapEntry['alternates'] =
      group && group.size > 1
        ? [
            // In the site's language order, so every version lists them alike.
            ...site.languages.flatMap((lang) => {
              const href = group.get(lang);
              return href ? [{ hreflang: lang, href }] : [];
            }),
            ...(group.has(defaultLang)
              ? [{ hreflang: 'x-default' as const, href: group.get(defaultLang) ?? '' }]
              : []),
          ]
        : [];
    return { loc: url(row), lastmod: row.updatedAt, alternates };
  });
}
