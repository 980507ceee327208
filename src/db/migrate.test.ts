import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../tests/setup/database.ts';
import { type DatabaseHandle, sql } from './client.ts';
import { runMigrations } from './migrate.ts';
import { appliedHashes, migrations, rows } from './migrations.test-support.ts';

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
