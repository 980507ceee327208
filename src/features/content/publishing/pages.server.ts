import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import type { Block } from '../blocks.ts';
import type { PageDto } from '../content.server.ts';
import { existingImages } from '../media/where-used.server.ts';
import { pages } from '../tables.ts';
import { documentColumnsOf, liveOf, writeContentRow } from './live-rows.server.ts';
import { pathErrors } from './recipes.server.ts';
import { NEW_PAGE_TYPES, type PageDocument, pageDocumentSchema } from './schemas.ts';
import type { KindAdapter, PreviewVersion } from './versions.server.ts';

type Db = Database | Transaction;
type PageRow = typeof pages.$inferSelect;

/** A live page row as a version's document: the columns an editor writes. */
export function pageDocumentOf(row: PageRow): PageDocument {
  return {
    ...documentColumnsOf(row, pageDocumentSchema),
    navArea: row.navArea === 'top' ? 'top' : 'bottom',
    blocks: row.blocks as Block[],
  };
}

/** Every image a page's blocks name (a key ending in `imageId`/`ImageId`), with its field. */
export function blockImages(value: unknown, path: string, out: [string, number][] = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      blockImages(item, `${path}.${i}`, out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (/(^i|I)mageId$/.test(key) && typeof item === 'number') out.push([`${path}.${key}`, item]);
      else blockImages(item, `${path}.${key}`, out);
    }
  }
  return out;
}

/** Whether `parentId` is `id` itself or one of the pages below it (a loop in the tree). */
async function under(db: Db, parentId: number, id: number): Promise<boolean> {
  let at: number | null = parentId;
  for (let hops = 0; at !== null && hops < 100; hops++) {
    if (at === id) return true;
    const [row]: { parentId: number | null }[] = await db
      .select({ parentId: pages.parentId })
      .from(pages)
      .where(eq(pages.id, at));
    at = row?.parentId ?? null;
  }
  return false;
}

/** Pages in the versions (decision 166): the live row is the `pages` row of the same id. */
export const pageAdapter: KindAdapter<PageDocument> = {
  kind: 'page',
  table: 'pages',
  schema: pageDocumentSchema,
  live: liveOf(pages, pageDocumentOf),
  async check(db, item, doc) {
    const errors = await pathErrors(db, item, doc.path, 'pages');
    const [live] = await db
      .select({ type: pages.type })
      .from(pages)
      .where(eq(pages.id, item.itemId));
    // The type decides what the page route renders and which data the site seeded for it: a
    // page keeps the type it has; a new page is one of the plain types.
    const allowed: readonly string[] = live ? [live.type] : NEW_PAGE_TYPES;
    if (!allowed.includes(doc.type)) errors.type = 'admin.page.typeLocked';
    if (doc.parentId !== null) {
      const [parent] = await db
        .select({ id: pages.id })
        .from(pages)
        .where(
          and(eq(pages.id, doc.parentId), eq(pages.siteId, item.siteId), eq(pages.lang, item.lang)),
        );
      if (!parent) errors.parentId = 'admin.page.parentMissing';
      else if (await under(db, doc.parentId, item.itemId))
        errors.parentId = 'admin.page.parentLoop';
    }
    const wanted = [
      ...(doc.teaserImageId === null ? [] : ([['teaserImageId', doc.teaserImageId]] as const)),
      ...blockImages(doc.blocks, 'blocks'),
    ];
    if (wanted.length > 0) {
      const ids = [...new Set(wanted.map(([, imageId]) => imageId))];
      const have = await existingImages(db, ids);
      for (const [field, imageId] of wanted) {
        if (!have.has(imageId)) errors[field] ??= 'admin.recipe.imageMissing';
      }
    }
    return errors;
  },
  writeLive: (tx, item, doc, exists, at) => writeContentRow(tx, pages, item, doc, exists, at),
};

/** A page's version as the page route renders it, for a preview link. */
export async function pagePreview(
  _db: Db,
  id: number,
  found: PreviewVersion<PageDocument>,
): Promise<PageDto> {
  const { document: doc, live } = found;
  return {
    id,
    parentId: doc.parentId,
    path: doc.path,
    type: doc.type,
    title: doc.title,
    navLabel: doc.navLabel ?? doc.title,
    teaser: doc.teaser,
    teaserImageId: doc.teaserImageId,
    seoTitle: doc.seoTitle,
    seoDescription: doc.seoDescription,
    blocks: doc.blocks,
    settings: doc.settings,
    translationKey: live?.translationKey ?? `page-preview-${id}`,
    updatedAt: new Date(),
  };
}
