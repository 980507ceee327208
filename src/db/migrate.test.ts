import { randomBytes } from 'node:crypto';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, databaseUrlWith, withAdmin } from '../../tests/setup/database.ts';
import { type Database, type DatabaseHandle, openDatabase, sql } from './client.ts';
import { migrationsFolder, runMigrations } from './migrate.ts';

const migrations = readMigrationFiles({ migrationsFolder });

async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function appliedHashes(db: Database): Promise<string[]> {
  const found = await rows<{ hash: string }>(
    db,
    sql`select hash from drizzle.__drizzle_migrations order by created_at, id`,
  );
  return found.map((r) => r.hash);
}

describe('runMigrations on a database copied from the template', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase(inject('templateDatabase'));
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('has the committed migrations to apply', () => {
    expect(migrations.length).toBeGreaterThanOrEqual(2);
  });

  it('finds every migration applied once, in order', async () => {
    expect(await appliedHashes(handle.db)).toEqual(migrations.map((m) => m.hash));
  });

  it('applies nothing when run again, and changes nothing', async () => {
    expect(await runMigrations(handle)).toBe(0);
    expect(await runMigrations(handle)).toBe(0);
    expect(await appliedHashes(handle.db)).toEqual(migrations.map((m) => m.hash));
  });

  it('created the sessions table with its columns', async () => {
    const columns = await rows<{ column_name: string; data_type: string; is_nullable: string }>(
      handle.db,
      sql`select column_name, data_type, is_nullable from information_schema.columns
          where table_schema = 'public' and table_name = 'sessions' order by column_name`,
    );
    expect(columns).toEqual([
      { column_name: 'created_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
      { column_name: 'data', data_type: 'jsonb', is_nullable: 'NO' },
      { column_name: 'expires_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
      { column_name: 'id', data_type: 'text', is_nullable: 'NO' },
    ]);
    const indexes = await rows<{ indexname: string }>(
      handle.db,
      sql`select indexname from pg_indexes where tablename = 'sessions' order by indexname`,
    );
    expect(indexes.map((i) => i.indexname)).toContain('sessions_expires_at_idx');
  });

  it('installed pg_trgm, which finds a word inside a Finnish compound', async () => {
    const ext = await rows<{ extname: string }>(
      handle.db,
      sql`select extname from pg_extension where extname = 'pg_trgm'`,
    );
    expect(ext).toHaveLength(1);
    const [row] = await rows<{
      s: number | string;
      w: number | string;
      unrelated: number | string;
    }>(
      handle.db,
      sql`select similarity('jauhelihakastike', 'kastike') as s,
                 word_similarity('kastike', 'jauhelihakastike') as w,
                 similarity('jauhelihakastike', 'xyzq') as unrelated`,
    );
    expect(Number(row?.s)).toBeGreaterThan(0);
    expect(Number(row?.w)).toBeGreaterThan(Number(row?.s));
    expect(Number(row?.unrelated)).toBe(0);
  });
});

const url = process.env.DATABASE_URL;

describe('runMigrations started twice at once on an empty PostgreSQL database', () => {
  it.runIf(url)('both succeed and each migration is recorded once', async () => {
    const adminUrl = url as string;
    const name = `kattaus_test_migrate_${randomBytes(6).toString('hex')}`;
    await withAdmin(adminUrl, (admin) => admin.query(`create database "${name}"`));
    const handles: DatabaseHandle[] = [];
    try {
      const dbUrl = databaseUrlWith(adminUrl, name);
      handles.push(await openDatabase({ engine: 'postgres', url: dbUrl }));
      handles.push(await openDatabase({ engine: 'postgres', url: dbUrl }));
      const [a, b] = handles as [DatabaseHandle, DatabaseHandle];

      const applied = await Promise.all([runMigrations(a), runMigrations(b)]);
      // One of them did all the work while the other waited on the lock.
      expect([...applied].sort()).toEqual([0, migrations.length]);

      const counts = await rows<{ hash: string; n: number | string }>(
        a.db,
        sql`select hash, count(*) as n from drizzle.__drizzle_migrations group by hash`,
      );
      expect(counts).toHaveLength(migrations.length);
      for (const c of counts) expect(Number(c.n)).toBe(1);
      expect(await appliedHashes(b.db)).toEqual(migrations.map((m) => m.hash));

      const [table] = await rows<{ t: string | null }>(
        b.db,
        sql`select to_regclass('sessions')::text as t`,
      );
      expect(table?.t).toBe('sessions');
      expect(await runMigrations(b)).toBe(0);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await withAdmin(adminUrl, (admin) =>
        admin.query(`drop database if exists "${name}" with (force)`),
      );
    }
  });
});
