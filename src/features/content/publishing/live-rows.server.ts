import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../../db/client.ts';
import type { ItemRow, LiveRow } from './versions.server.ts';

/**
 * The live rows of the versions' kinds (decisions 162, 166, 167, 171), read and written the same
 * way for each kind: a row of the kind's table with the item's id.
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

/** A content kind's `live`: its table's row of the item's id, with its document. */
export function liveOf<Table extends PgTable & { id: PgColumn; $inferSelect: ContentRow }, Doc>(
  table: Table,
  documentOf: (row: Table['$inferSelect']) => Doc,
): (db: Database | Transaction, id: number) => Promise<LiveRow<Doc> | undefined> {
  return async (db, id) => {
    const rows = await db
      .select()
      .from(table as PgTable)
      .where(eq(table.id, id));
    const [row] = rows as Table['$inferSelect'][];
    return row ? liveRowOf(row, documentOf(row)) : undefined;
  };
}

/**
 * A live row as a version's document when the document is the row's own columns: those its
 * schema names, as they are, in the schema's order.
 */
export function documentColumnsOf<Row extends object, Key extends keyof Row & string>(
  row: Row,
  schema: { shape: Record<Key, unknown> },
): Pick<Row, Key> {
  const keys = Object.keys(schema.shape) as Key[];
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<Row, Key>;
}

/**
 * Writes an item's live row: after its first publish an update of `columns` and nothing else
 * (what other parts of the system own stays as they left it); at the first publish the row,
 * made of `newRow` (the item's id, site and language and what only a new row gets) and
 * `columns`.
 */
export async function writeLiveRow(
  tx: Transaction,
  table: PgTable & { id: PgColumn },
  exists: boolean,
  newRow: { id: number; siteId: string; lang: string } & Record<string, unknown>,
  columns: Record<string, unknown>,
): Promise<void> {
  if (exists) {
    await tx
      .update(table)
      .set(columns as never)
      .where(eq(table.id, newRow.id));
    return;
  }
  await tx.insert(table).values({ ...newRow, ...columns } as never);
}

/**
 * Writes a document into the live row of a content kind with pages of its own (recipes, pages,
 * products): at the first publish with the item's translation key, published `now`.
 */
export function writeContentRow(
  tx: Transaction,
  table: PgTable & { id: PgColumn },
  item: ItemRow,
  doc: object,
  exists: boolean,
  /** When it is published: now, or the moment a schedule named (decision 167). */
  now: Date,
): Promise<void> {
  const { itemId: id, siteId, lang, translationKey } = item;
  return writeLiveRow(
    tx,
    table,
    exists,
    { id, siteId, lang, translationKey, publishedAt: now },
    { ...doc, updatedAt: now },
  );
}
