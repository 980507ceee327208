import { getTableColumns, getTableName, sql } from 'drizzle-orm';
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
  timelineYears,
} from '../src/features/content/tables.ts';
import { schoolMaterials } from '../src/features/forms/tables.ts';
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

/** Rows per INSERT. */
const BATCH = 1000;

/**
 * Replaces all content with `rows` in one transaction: delete every row of the content tables,
 * insert the new ones with their own ids, and move each id sequence past them. Images are kept:
 * their ids are stable because they are looked up by storage key.
 */
export async function replaceContent(db: Database, rows: Rows): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [, table] of [...tables].reverse()) await tx.delete(table);
    const bulkIndex = await hasSearchIndex(tx);
    for (const [key, table] of tables) {
      const list = rows[key];
      const name = getTableName(table);
      const source = searchSources[name];
      const bulk = bulkIndex && source !== undefined && list.length > 0;
      if (bulk)
        await tx.execute(sql`alter table ${sql.identifier(name)} disable trigger search_insert`);
      for (let i = 0; i < list.length; i += BATCH) {
        await insertJson(tx, table, list.slice(i, i + BATCH) as Record<string, unknown>[]);
      }
      if (bulk) {
        await tx.execute(sql`alter table ${sql.identifier(name)} enable trigger search_insert`);
        await tx.execute(
          sql`select search_refresh(${source}, array(select id from ${sql.identifier(name)}))`,
        );
      }
      await tx.execute(
        sql`select setval(pg_get_serial_sequence(${name}, 'id'), ${list.length + 1}, false)`,
      );
    }
  });
}

/**
 * The search feature indexes content with statement-level insert triggers (decision 011), one
 * re-index per INSERT. For a table filled in a hundred batches, indexing all rows once afterwards
 * with the feature's own `search_refresh` is about 2.5 times quicker (100,000 documents: the write
 * drops from ~150 s to ~60 s on PGlite). The insert trigger is disabled only inside this
 * transaction; deletes still clean the index through their own trigger.
 */
const searchSources: Partial<Record<string, string>> = {
  pages: 'page',
  products: 'product',
  recipes: 'recipe',
  news_releases: 'news',
};

async function hasSearchIndex(db: Database): Promise<boolean> {
  const result = (await db.execute(sql`
    select to_regprocedure('search_refresh(text, integer[])') is not null
      and (select count(*) from pg_trigger t join pg_class c on c.oid = t.tgrelid
           where t.tgname = 'search_insert'
             and c.relname in ('pages', 'products', 'recipes', 'news_releases')) = 4 as "ok"
  `)) as unknown as { rows: { ok: boolean }[] };
  return result.rows[0]?.ok === true;
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

/**
 * One INSERT per batch with a single parameter: the rows as JSON, spread into columns by
 * `json_populate_recordset` (JSON arrays become integer[] and text[], objects jsonb). On PGlite
 * this writes 100,000 rows in about 60 % of the time a bound multi-row INSERT takes, and it has no
 * parameter limit.
 */
async function insertJson(db: Database, table: PgTable, rows: Record<string, unknown>[]) {
  // Columns some row gives a value; the others keep their defaults. A row without a value for a
  // column another row gives is written as null, which a NOT NULL column refuses loudly.
  const columns = Object.entries(getTableColumns(table)).filter(([key]) =>
    rows.some((row) => row[key] !== undefined),
  );
  if (!columns.length) return;
  const names = sql.raw(columns.map(([, c]) => `"${c.name}"`).join(', '));
  const json = JSON.stringify(
    rows.map((row) => Object.fromEntries(columns.map(([key, c]) => [c.name, row[key] ?? null]))),
  );
  const name = sql.identifier(getTableName(table));
  await db.execute(
    sql`insert into ${name} (${names}) select ${names} from json_populate_recordset(null::${name}, ${json}::json)`,
  );
}
