import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import type { Lang, Site } from '../../../sites/types.ts';
import { newsReleases, pages, products, recipes } from '../tables.ts';
import {
  latest,
  type SitemapEntry,
  sitemapIndexXml,
  sitemapPart,
  sitemapPartCount,
  urlsetXml,
} from './sitemap.ts';
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
      .orderBy(...byteOrder(pages)),
    db
      .select(columns(products))
      .from(products)
      .where(and(eq(products.siteId, site.id), inArray(products.lang, langs)))
      .orderBy(...byteOrder(products)),
    db
      .select(columns(recipes))
      .from(recipes)
      .where(and(eq(recipes.siteId, site.id), inArray(recipes.lang, langs)))
      .orderBy(...byteOrder(recipes)),
    db
      .select(columns(newsReleases))
      .from(newsReleases)
      .where(and(eq(newsReleases.siteId, site.id), inArray(newsReleases.lang, langs)))
      .orderBy(...byteOrder(newsReleases)),
  ]);
  return [pageRows, productRows, recipeRows, newsRows].flatMap((rows) =>
    entriesOf(rows, site, origin),
  );
}

/**
 * By path, then language, in byte order: the same on PGlite and on a PostgreSQL server whatever
 * its locale, so a URL stays in its sitemap part.
 */
function byteOrder(table: typeof pages | typeof products | typeof recipes | typeof newsReleases) {
  return [sql`${table.path} collate "C"`, sql`${table.lang} collate "C"`];
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

/**
 * `/sitemap.xml` of a site: its URLs, or, when they need more than one part, an index of the parts
 * (`<base>/sitemap-<n>.xml`).
 */
export async function sitemapXml(
  db: Database,
  site: Site,
  origin: string,
  base: string,
  partSize: number,
): Promise<string> {
  const entries = await sitemapEntries(db, site, origin);
  const parts = sitemapPartCount(entries.length, partSize);
  if (parts === 1) return urlsetXml(entries);
  return sitemapIndexXml(
    Array.from({ length: parts }, (_, i) => ({
      loc: `${base}/sitemap-${i + 1}.xml`,
      lastmod: latest(sitemapPart(entries, partSize, i + 1)),
    })),
  );
}

/**
 * Part `n` of a site's sitemap; undefined when there is no such part. Parts exist only while the
 * site needs an index; a small site has just /sitemap.xml.
 */
export async function sitemapPartXml(
  db: Database,
  site: Site,
  origin: string,
  partSize: number,
  n: number,
): Promise<string | undefined> {
  const entries = await sitemapEntries(db, site, origin);
  if (sitemapPartCount(entries.length, partSize) < Math.max(2, n)) return undefined;
  return urlsetXml(sitemapPart(entries, partSize, n));
}
