import { readMigrationFiles } from 'drizzle-orm/migrator';
import { type Database, sql } from './client.ts';
import { migrationsFolder } from './migrate.ts';

export const migrations = readMigrationFiles({ migrationsFolder });

export async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The hashes of the applied migrations, in the order they were applied. */
export async function appliedHashes(db: Database): Promise<string[]> {
  const found = await rows<{ hash: string }>(
    db,
    sql`select hash from drizzle.__drizzle_migrations order by created_at, id`,
  );
  return found.map((r) => r.hash);
}
