import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { type DatabaseHandle, openDatabase, sql } from '../../src/db/client.ts';

/** What the global set-up hands every test file: a migrated template to copy. */
export type TemplateDatabase =
  | { engine: 'pglite'; dumpFile: string }
  | { engine: 'postgres'; adminUrl: string; template: string };

export const TEMPLATE_PREFIX = 'kattaus_test_template_';

export function databaseUrlWith(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A fresh, migrated database for one test file: PGlite restored from the template's dump, or a
 * PostgreSQL database created from the template database. Closing it drops it.
 */
export async function createTestDatabase(template: TemplateDatabase): Promise<DatabaseHandle> {
  if (template.engine === 'pglite') {
    const dump = await readFile(template.dumpFile);
    return openDatabase({ engine: 'pglite', loadDataDir: new Blob([dump]) });
  }
  const name = `kattaus_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(template.adminUrl, async (admin) => {
    // Copies from one template may collide for a moment; try again briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${template.template}"`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((r) => setTimeout(r, 100 + attempt * 50));
      }
    }
  });
  const handle = await openDatabase({
    engine: 'postgres',
    url: databaseUrlWith(template.adminUrl, name),
    poolSize: 4,
  });
  return {
    ...handle,
    async close() {
      await handle.close();
      await withAdmin(template.adminUrl, (admin) =>
        admin.query(`drop database if exists "${name}" with (force)`),
      );
    },
  };
}

export async function withAdmin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Another connection pool on the same PostgreSQL database as `database`: what a second server
 * process would have (race tests). Close it before `database`, whose close drops the database.
 * `poolSize` 10 is the servers' default (`DATABASE_POOL_SIZE`).
 */
export async function openSameDatabase(
  database: DatabaseHandle,
  poolSize = 4,
): Promise<DatabaseHandle> {
  const url = process.env.DATABASE_URL;
  if (database.engine !== 'postgres' || !url) throw new Error('PostgreSQL only (DATABASE_URL)');
  const result = await database.db.execute<{ name: string }>(
    sql`select current_database() as name`,
  );
  const name = (result as unknown as { rows: { name: string }[] }).rows[0]?.name ?? '';
  return openDatabase({ engine: 'postgres', url: databaseUrlWith(url, name), poolSize });
}
