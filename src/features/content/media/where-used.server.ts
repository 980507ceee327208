import { inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { images } from '../../../images/tables.ts';
import type { AccessGrant } from '../../staff/index.ts';
import { can } from '../../staff/index.ts';
import type { ImageUse, UseKind } from './schemas.ts';

type Db = Database | Transaction;

/**
 * Every key a document of content names an image by, at any depth: blocks and their cards and
 * slides (`imageId`, `posterImageId`, `profileImageId`), a page's teaser, a recipe's or news
 * release's picture, a product's pictures (`imageIds`). A JSON path, so pages' blocks and the
 * versions' documents are searched the same way.
 */
export const IMAGE_REFERENCE_PATH =
  'lax $.** ? (@.imageId == $id || @.posterImageId == $id || @.profileImageId == $id || @.teaserImageId == $id || @.imageIds[*] == $id)';

interface UseRow {
  kind: UseKind;
  id: number;
  site_id: string;
  lang: string;
  title: string | null;
  path: string | null;
  state: 'live' | 'draft';
}

/**
 * Where an image is used (decision 168): the live rows the sites show (pages with their teaser
 * and blocks, recipes, products, news releases, the timeline's years) and the newest version of
 * every item whose newest version is not the published one (a draft, published or not yet) —
 * publishing it would show the image. Older versions do not count: restoring one that names a
 * deleted image is refused by the item's reference check.
 */
export async function whereUsed(db: Db, imageId: number): Promise<ImageUse[]> {
  const vars = sql`jsonb_build_object('id', ${imageId}::int)`;
  const refers = (document: ReturnType<typeof sql>) =>
    sql`jsonb_path_exists(${document}, ${IMAGE_REFERENCE_PATH}::jsonpath, ${vars})`;
  const result = (await db.execute(sql`
    select 'page' as kind, id, site_id, lang, title, path, 'live' as state from pages
      where teaser_image_id = ${imageId} or ${refers(sql`blocks`)}
    union all
    select 'recipe', id, site_id, lang, title, path, 'live' from recipes where image_id = ${imageId}
    union all
    select 'product', id, site_id, lang, name, path, 'live' from products
      where ${imageId}::int = any(image_ids)
    union all
    select 'news', id, site_id, lang, title, path, 'live' from news_releases
      where image_id = ${imageId}
    union all
    select 'timeline', id, site_id, lang, year || ' ' || title, null, 'live' from timeline_years
      where image_id = ${imageId}
    union all
    select i.kind, i.item_id, i.site_id, i.lang,
        coalesce(v.document->>'title', v.document->>'name', ''), v.document->>'path', 'draft'
      from content_items i
      join content_versions v
        on v.kind = i.kind and v.item_id = i.item_id and v.version = i.head_version
      where i.published_version is distinct from i.head_version and ${refers(sql`v.document`)}
    order by 1, 3, 4, 5, 7`)) as unknown as { rows: UseRow[] };
  return result.rows.map((row) => ({
    kind: row.kind,
    id: Number(row.id),
    siteId: row.site_id,
    lang: row.lang,
    title: row.title ?? '',
    path: row.path,
    state: row.state,
  }));
}

/** Whether the grants give `content.edit` where the place is. */
export const mayEdit = (grants: readonly AccessGrant[], use: ImageUse) =>
  can(grants, 'content.edit', { siteId: use.siteId, lang: use.lang });

/**
 * The places the staff member may see (those of the sites and languages they may edit content
 * in) and how many others there are.
 */
export function seenUses(grants: readonly AccessGrant[], uses: ImageUse[]) {
  const seen = uses.filter((use) => mayEdit(grants, use));
  return { uses: seen, elsewhere: uses.length - seen.length };
}

/**
 * The images of `ids` that exist, each locked against deletion until the transaction ends
 * (`for key share`): an item's save that names an image checks it with this, so a delete that
 * looks for uses at the same time either sees the saved draft or makes the save fail its
 * reference check.
 */
export async function existingImages(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(inArray(images.id, [...new Set(ids)]))
    .for('key share');
  return new Set(rows.map((r) => r.id));
}
