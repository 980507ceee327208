import { and, asc, desc, eq, inArray, like, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { images, newsReleases, pages, products, recipes } from '../../db/schema.ts';
import type { Lang } from '../../sites/types.ts';
import { type Block, pageBlocks } from './blocks.ts';

/** An image as pages use it: enough for `<img>` with width, height and alt. */
export interface ImageDto {
  id: number;
  width: number;
  height: number;
  alt: string;
}

export interface PageDto {
  id: number;
  parentId: number | null;
  path: string;
  type: string;
  title: string;
  navLabel: string;
  teaser: string;
  teaserImageId: number | null;
  seoTitle: string | null;
  seoDescription: string | null;
  blocks: Block[];
  settings: Record<string, unknown>;
  translationKey: string;
  updatedAt: Date;
}

export type ProductRow = typeof products.$inferSelect;
export type RecipeRow = typeof recipes.$inferSelect;
export type NewsRow = typeof newsReleases.$inferSelect;

export type Resolved =
  | { kind: 'page'; page: PageDto }
  | { kind: 'product'; product: ProductRow }
  | { kind: 'recipe'; recipe: RecipeRow }
  | { kind: 'news'; news: NewsRow };

function toPageDto(row: typeof pages.$inferSelect): PageDto {
  const blocks = pageBlocks.safeParse(row.blocks);
  return {
    id: row.id,
    parentId: row.parentId,
    path: row.path,
    type: row.type,
    title: row.title,
    navLabel: row.navLabel ?? row.title,
    teaser: row.teaser,
    teaserImageId: row.teaserImageId,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    // Blocks are validated on write; a row that no longer matches renders without blocks.
    blocks: blocks.success ? blocks.data : [],
    settings: row.settings,
    translationKey: row.translationKey,
    updatedAt: row.updatedAt,
  };
}

/** What lives at a path of a site's language version: a page, a product, a recipe or a release. */
export async function resolvePath(
  db: Database,
  siteId: string,
  lang: Lang,
  path: string,
): Promise<Resolved | undefined> {
  const [page] = await db
    .select()
    .from(pages)
    .where(and(eq(pages.siteId, siteId), eq(pages.lang, lang), eq(pages.path, path)))
    .limit(1);
  if (page) return { kind: 'page', page: toPageDto(page) };
  const [product, recipe, news] = await Promise.all([
    db
      .select()
      .from(products)
      .where(and(eq(products.siteId, siteId), eq(products.lang, lang), eq(products.path, path)))
      .limit(1),
    db
      .select()
      .from(recipes)
      .where(and(eq(recipes.siteId, siteId), eq(recipes.lang, lang), eq(recipes.path, path)))
      .limit(1),
    db
      .select()
      .from(newsReleases)
      .where(
        and(
          eq(newsReleases.siteId, siteId),
          eq(newsReleases.lang, lang),
          eq(newsReleases.path, path),
        ),
      )
      .limit(1),
  ]);
  if (product[0]) return { kind: 'product', product: product[0] };
  if (recipe[0]) return { kind: 'recipe', recipe: recipe[0] };
  if (news[0]) return { kind: 'news', news: news[0] };
  return undefined;
}

export async function loadImages(
  db: Database,
  ids: readonly (number | null | undefined)[],
  lang: Lang,
): Promise<Map<number, ImageDto>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  const map = new Map<number, ImageDto>();
  if (wanted.length === 0) return map;
  const rows = await db.select().from(images).where(inArray(images.id, wanted));
  for (const row of rows) {
    map.set(row.id, { id: row.id, width: row.width, height: row.height, alt: row.alt[lang] ?? '' });
  }
  return map;
}

/** The chain of pages from the home page down to (not including) a path. */
export async function ancestors(
  db: Database,
  siteId: string,
  lang: Lang,
  path: string,
): Promise<PageDto[]> {
  const prefixes = ['/'];
  const parts = path.split('/').filter(Boolean);
  for (let i = 1; i < parts.length; i++) prefixes.push(`/${parts.slice(0, i).join('/')}`);
  if (path === '/') return [];
  const rows = await db
    .select()
    .from(pages)
    .where(and(eq(pages.siteId, siteId), eq(pages.lang, lang), inArray(pages.path, prefixes)));
  return rows.map(toPageDto).sort((a, b) => a.path.length - b.path.length);
}

export async function childPages(db: Database, pageId: number): Promise<PageDto[]> {
  const rows = await db
    .select()
    .from(pages)
    .where(and(eq(pages.parentId, pageId), eq(pages.showInNav, true)))
    .orderBy(asc(pages.sortOrder), asc(pages.id));
  return rows.map(toPageDto);
}

/** Paths of the other language versions of a row, by its translation key. */
export async function languageVersions(
  db: Database,
  table: typeof pages | typeof products | typeof recipes | typeof newsReleases,
  siteId: string,
  translationKey: string,
): Promise<{ lang: Lang; path: string }[]> {
  const rows = await db
    .select({ lang: table.lang, path: table.path })
    .from(table)
    .where(and(eq(table.siteId, siteId), eq(table.translationKey, translationKey)));
  return rows.map((r) => ({ lang: r.lang as Lang, path: r.path }));
}

export interface Listing<T> {
  items: T[];
  total: number;
}

/** Products whose path is under a listing page, newest first. */
export async function productsUnder(
  db: Database,
  siteId: string,
  lang: Lang,
  prefix: string,
  limit: number,
  offset: number,
): Promise<Listing<ProductRow>> {
  const where = and(
    eq(products.siteId, siteId),
    eq(products.lang, lang),
    like(products.path, `${prefix}/%`),
  );
  const [items, count] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(desc(products.isNovelty), asc(products.name), asc(products.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(products).where(where),
  ]);
  return { items, total: count[0]?.n ?? 0 };
}

export async function recipesUnder(
  db: Database,
  siteId: string,
  lang: Lang,
  prefix: string,
  limit: number,
  offset: number,
): Promise<Listing<RecipeRow>> {
  const where = and(
    eq(recipes.siteId, siteId),
    eq(recipes.lang, lang),
    like(recipes.path, `${prefix}/%`),
  );
  const [items, count] = await Promise.all([
    db
      .select()
      .from(recipes)
      .where(where)
      .orderBy(asc(recipes.title), asc(recipes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(recipes).where(where),
  ]);
  return { items, total: count[0]?.n ?? 0 };
}

export async function latestNews(
  db: Database,
  siteId: string,
  lang: Lang,
  limit: number,
  offset: number,
): Promise<Listing<NewsRow>> {
  const where = and(eq(newsReleases.siteId, siteId), eq(newsReleases.lang, lang));
  const [items, count] = await Promise.all([
    db
      .select()
      .from(newsReleases)
      .where(where)
      .orderBy(desc(newsReleases.publishDate), desc(newsReleases.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: sql<number>`count(*)::int` }).from(newsReleases).where(where),
  ]);
  return { items, total: count[0]?.n ?? 0 };
}
