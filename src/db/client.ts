import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  /** Runs `select 1`; throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Runs `fn` while holding a cluster-wide advisory lock (a no-op wrapper on PGlite). */
  withAdvisoryLock<T>(key: number, fn: (db: Database) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` only if the advisory lock is free, holding it meanwhile (on its own connection,
   * so a process that dies lets go of it); `acquired: false` when another session holds it.
   * PGlite (one process) always runs `fn`.
   */
  tryAdvisoryLock<T>(key: number, fn: (db: Database) => Promise<T>): Promise<Locked<T>>;
  /** PGlite only: the whole data folder as a gzipped tarball (test templates, backups). */
  dump?: () => Promise<Blob>;
}

export type Locked<T> = { acquired: true; value: T } | { acquired: false };

export type DatabaseOptions =
  | { engine: 'postgres'; url: string; poolSize?: number }
  | { engine: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/** Opens PGlite in the data folder when no URL is given, otherwise a PostgreSQL connection pool. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.engine === 'postgres' ? openPostgres(options) : openPglite(options);
}

export function databaseOptionsFromConfig(config: {
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
}): DatabaseOptions {
  return config.databaseUrl
    ? { engine: 'postgres', url: config.databaseUrl, poolSize: config.databasePoolSize }
    : { engine: 'pglite', dataDir: path.join(config.dataDir, 'pglite') };
}

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }) {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    engine: 'pglite',
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
    },
    // PGlite lives inside this one process, which already serialises its queries.
    withAdvisoryLock: (_key, fn) => fn(db),
    tryAdvisoryLock: async (_key, fn) => ({ acquired: true, value: await fn(db) }),
    dump: () => client.dumpDataDir('gzip'),
  } satisfies DatabaseHandle;
}

async function openPostgres(options: { url: string; poolSize?: number }) {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    engine: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
    async withAdvisoryLock<T>(key: number, fn: (db: Database) => Promise<T>): Promise<T> {
      const outcome = await underSessionLock(pool, 'select pg_advisory_lock($1) as got', key, fn);
      if (!outcome.acquired) throw new Error(`advisory lock ${key} not taken`);
      return outcome.value;
    },
    tryAdvisoryLock: (key, fn) =>
      underSessionLock(pool, 'select pg_try_advisory_lock($1) as got', key, fn),
  } satisfies DatabaseHandle;
}

/**
 * Takes a session-level advisory lock on a connection of its own (`lockSql` answers `got`), runs
 * `fn` on that connection and lets go of the lock; answers `acquired: false` without running
 * `fn` when the lock was not granted.
 */
async function underSessionLock<T>(
  pool: pg.Pool,
  lockSql: string,
  key: number,
  fn: (db: Database) => Promise<T>,
): Promise<Locked<T>> {
  const client = await pool.connect();
  // pg-pool drops its own error listener while a client is checked out; without this one a
  // connection lost mid-way would be an uncaught 'error' event that ends the process.
  let connectionError: Error | undefined;
  const onError = (error: Error) => {
    connectionError ??= error;
  };
  client.on('error', onError);
  const release = (error?: Error) => {
    client.removeListener('error', onError);
    // With an error pg-pool destroys the client instead of pooling it again.
    client.release(error);
  };
  let got: boolean;
  try {
    const result = await client.query<{ got: boolean | null }>(lockSql, [key]);
    // pg_advisory_lock answers void (null): granted once it returns.
    got = result.rows[0]?.got !== false;
  } catch (error) {
    release(error as Error);
    throw error;
  }
  if (!got) {
    release(connectionError);
    return { acquired: false };
  }
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = {
      ok: true,
      value: await fn(drizzlePg(client, { schema }) as unknown as Database),
    };
  } catch (error) {
    outcome = { ok: false, error };
  }
  try {
    await client.query('select pg_advisory_unlock($1)', [key]);
  } catch (unlockError) {
    // The session is gone or unusable; PostgreSQL drops its locks with it.
    release(unlockError as Error);
    throw outcome.ok ? unlockError : outcome.error;
  }
  release(connectionError);
  if (!outcome.ok) throw outcome.error;
  return { acquired: true, value: outcome.value };
}

export { sql };
