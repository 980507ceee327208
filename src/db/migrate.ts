import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { DatabaseHandle } from './client.ts';
import { projectPath } from './paths.ts';

export const migrationsFolder = projectPath('src/db/migrations');

/** Same key in every process, so two servers starting together migrate one after the other. */
const MIGRATION_LOCK_KEY = 7_240_311;

/**
 * Applies the committed SQL migrations that have not run yet. Each migration runs in a
 * transaction; concurrent starts wait on an advisory lock instead of racing.
 */
export async function runMigrations(handle: DatabaseHandle): Promise<number> {
  const migrations = readMigrationFiles({ migrationsFolder });
  return handle.withAdvisoryLock(MIGRATION_LOCK_KEY, async (db) => {
    await db.execute(sql`create schema if not exists drizzle`);
    await db.execute(sql`
      create table if not exists drizzle.__drizzle_migrations (
        id serial primary key, hash text not null, created_at bigint)`);
    const done = (await db.execute(
      sql`select created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
    )) as unknown as { rows: { created_at: string | number }[] };
    const last = Number(done.rows[0]?.created_at ?? 0);
    let applied = 0;
    for (const migration of migrations) {
      if (migration.folderMillis <= last) continue;
      await db.transaction(async (tx) => {
        for (const statement of migration.sql) {
          if (statement.trim()) await tx.execute(sql.raw(statement));
        }
        await tx.execute(
          sql`insert into drizzle.__drizzle_migrations (hash, created_at)
              values (${migration.hash}, ${migration.folderMillis})`,
        );
      });
      applied++;
    }
    return applied;
  });
}
