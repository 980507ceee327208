import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../src/db/client.ts';
import {
  facetCategories,
  facetTags,
  jobs,
  mapRegions,
  newsReleases,
  pages,
  products,
  recipes,
  schoolMaterials,
  timelineYears,
} from '../src/db/schema.ts';
import type { Rows } from './model.ts';

/** The content tables in the order they are filled (facet tags after their categories). */
const tables: [keyof Rows, PgTable][] = [
  ['facetCategories', facetCategories],
  ['facetTags', facetTags],
  ['pages', pages],
  ['products', products],
  ['recipes', recipes],
  ['news', newsReleases],
  ['jobs', jobs],
  ['timelineYears', timelineYears],
  ['schoolMaterials', schoolMaterials],
  ['mapRegions', mapRegions],
];

/** Rows per INSERT: big enough to be quick, small enough for PostgreSQL's 65,535 parameters. */
const BATCH = 1000;

/**
 * Replaces all content with `rows` in one transaction: delete every row of the content tables,
 * insert the new ones with their own ids, and move each id sequence past them. Images are kept:
 * their ids are stable because they are looked up by storage key.
 */
export async function replaceContent(
  db: Database,
  rows: Rows,
  onProgress?: (table: string, done: number, total: number) => void,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [, table] of [...tables].reverse()) await tx.delete(table);
    for (const [key, table] of tables) {
      const list = rows[key];
      for (let i = 0; i < list.length; i += BATCH) {
        // biome-ignore lint/suspicious/noExplicitAny: the rows were typed per table where they were made.
        await tx.insert(table).values(list.slice(i, i + BATCH) as any[]);
        onProgress?.(getTableName(table), Math.min(i + BATCH, list.length), list.length);
      }
      const name = getTableName(table);
      await tx.execute(
        sql`select setval(pg_get_serial_sequence(${name}, 'id'), ${list.length + 1}, false)`,
      );
    }
  });
}

/** True when the database holds no pages yet (`npm start` seeds only then). */
export async function isEmpty(db: Database): Promise<boolean> {
  const result = (await db.execute(
    sql`select exists (select 1 from pages) as "has"`,
  )) as unknown as {
    rows: { has: boolean }[];
  };
  return !result.rows[0]?.has;
}
