import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { databaseUrlWith, withAdmin } from '../../tests/setup/database.ts';
import { type DatabaseHandle, openDatabase, sql } from './client.ts';
import { runMigrations } from './migrate.ts';
import { appliedHashes, migrations, rows } from './migrations.test-support.ts';

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
