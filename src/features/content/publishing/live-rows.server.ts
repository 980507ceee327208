import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../../db/client.ts';
import type { ItemRow, LiveRow } from './versions.server.ts';

/**
 * The live rows of the content tables with a page of their own (recipes, products; decisions 162
 * and 171), read and written the same way for each kind.
 */

type ContentRow = {
  siteId: string;
  lang: string;
  translationKey: string;
  path: string;
  publishedAt: Date;
  updatedAt: Date;
};

/** A content table's row as the versions see it, with its document. */
export function liveRowOf<Doc>(row: ContentRow, document: Doc): LiveRow<Doc> {
  const { siteId, lang, translationKey, path, publishedAt, updatedAt } = row;
  return { siteId, lang, translationKey, path, publishedAt, updatedAt, document };
}

/**
 * Writes a document into its live row: an update of the document's columns and nothing else
 * (what other parts of the system own stays as they left it), or at the first publish the row
 * with the item's id, site, language and translation key.
 */
export async function writeContentRow(
  tx: Transaction,
  table: PgTable & { id: PgColumn },
  item: ItemRow,
  doc: object,
  exists: boolean,
  /** When it is published: now, or the moment a schedule named (decision 167). */
  now: Date,
): Promise<void> {
  if (exists) {
    await tx
      .update(table)
      .set({ ...doc, updatedAt: now } as never)
      .where(eq(table.id, item.itemId));
    return;
  }
  const { itemId: id, siteId, lang, translationKey } = item;
  await tx.insert(table).values({
    ...{ id, siteId, lang, translationKey },
    ...doc,
    publishedAt: now,
    updatedAt: now,
  } as never);
}
