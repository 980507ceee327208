import { and, asc, desc, eq, inArray, like, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { images } from '../../images/tables.ts';
import type { Lang } from '../../sites/types.ts';
import { type Block, pageBlocks } from './blocks.ts';
import type { ImageDto } from './image-dto.ts';
import { facetCategories, facetTags, newsReleases, pages, products, recipes } from './tables.ts';

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
    map.set(row.id, {
      id: row.id,
      width: row.width,
      height: row.height,
      alt: row.alt[lang] ?? '',
      revision: row.revision,
    });
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

/** Which products, recipes or news releases of a site's language version a list holds. */
export interface ItemFilter {
  siteId: string;
  lang: Lang;
  /** Only items whose path lies under this listing page's path ('' for the home page). */
  under?: string;
  /** Only items with this facet tag. */
  tagId?: number;
}

export interface Slice {
  limit: number;
  offset?: number;
}

type ItemTable = typeof products | typeof recipes | typeof newsReleases;

/** `%` and `_` in a path match themselves in LIKE. */
function likePrefix(path: string): string {
  return `${path.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
}

function whereOf(table: ItemTable, filter: ItemFilter): SQL | undefined {
  return and(
    eq(table.siteId, filter.siteId),
    eq(table.lang, filter.lang),
    filter.under !== undefined ? like(table.path, likePrefix(filter.under)) : undefined,
    filter.tagId !== undefined
      ? sql`${table.facetTagIds} @> array[${filter.tagId}]::integer[]`
      : undefined,
  );
}

async function countOf(db: Database, table: ItemTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(where);
  return row?.n ?? 0;
}

/** Products of a filter: novelties first, then by name. */
export async function listProducts(
  db: Database,
  filter: ItemFilter,
  slice: Slice,
): Promise<Listing<ProductRow>> {
  const where = whereOf(products, filter);
  const [items, total] = await Promise.all([
    db
      .select()
      .from(products)
      .where(where)
      .orderBy(desc(products.isNovelty), asc(products.name), asc(products.id))
      .limit(slice.limit)
      .offset(slice.offset ?? 0),
    countOf(db, products, where),
  ]);
  return { items, total };
}

/** Recipes of a filter, by title or, for `popular`, the most liked first. */
export async function listRecipes(
  db: Database,
  filter: ItemFilter,
  slice: Slice,
  order: 'title' | 'popular' = 'title',
): Promise<Listing<RecipeRow>> {
  const where = whereOf(recipes, filter);
  const [items, total] = await Promise.all([
    db
      .select()
      .from(recipes)
      .where(where)
      .orderBy(
        ...(order === 'popular' ? [desc(recipes.likeCount)] : []),
        asc(recipes.title),
        asc(recipes.id),
      )
      .limit(slice.limit)
      .offset(slice.offset ?? 0),
    countOf(db, recipes, where),
  ]);
  return { items, total };
}

/** News releases of a filter, the latest first. */
export async function listNews(
  db: Database,
  filter: ItemFilter,
  slice: Slice,
): Promise<Listing<NewsRow>> {
  const where = whereOf(newsReleases, filter);
  const [items, total] = await Promise.all([
    db
      .select()
      .from(newsReleases)
      .where(where)
      .orderBy(desc(newsReleases.publishDate), desc(newsReleases.id))
      .limit(slice.limit)
      .offset(slice.offset ?? 0),
    countOf(db, newsReleases, where),
  ]);
  return { items, total };
}

/** A facet tag with the site, language and scope (products, recipes or news) of its category. */
export async function facetTagScope(
  db: Database,
  tagId: number,
): Promise<{ siteId: string; lang: string; scope: string } | undefined> {
  const [row] = await db
    .select({
      siteId: facetCategories.siteId,
      lang: facetCategories.lang,
      scope: facetCategories.scope,
    })
    .from(facetTags)
    .innerJoin(facetCategories, eq(facetCategories.id, facetTags.categoryId))
    .where(eq(facetTags.id, tagId))
    .limit(1);
  return row;
}
