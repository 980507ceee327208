import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import {
  CONTENT_CHANNEL,
  COUNTS_PAYLOAD_PREFIX,
  ContentVersion,
  changesContent,
  changesVisitors,
  endsTransaction,
  raisesCountOnly,
  registerContentVersion,
  VISITORS_PAYLOAD_PREFIX,
} from './content-changes.ts';

/**
 * The database as the features query it. It carries no schema: each feature owns its tables
 * (`features/<name>/tables.ts`, decision 126) and queries them with the query builder.
 */
export type Database = PgDatabase<PgQueryResultHKT>;

/** What `db.transaction(fn)` hands to `fn`: the one transaction type every use case takes. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

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
  /**
   * The content's version: moves after every content change committed through this handle and,
   * on PostgreSQL once `watchContent` has been called, after every change another process
   * announces. Page caches key on it.
   */
  contentVersion: ContentVersion;
  /** Starts following other processes' content changes (PostgreSQL; nothing to do on PGlite). */
  watchContent(): void;
  /** PGlite only: the whole data folder as a gzipped tarball (test templates, backups). */
  dump?: () => Promise<Blob>;
}

export type Locked<T> = { acquired: true; value: T } | { acquired: false };

export type DatabaseOptions =
  | { engine: 'postgres'; url: string; poolSize?: number }
  | { engine: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/** How long a query waits for a connection of the PostgreSQL pool before it gives up. */
export const POOL_CONNECTION_TIMEOUT_MS = 5_000;

const POOL_GAVE_UP = [
  // pg-pool: no connection came free (or could be opened) within the timeout.
  'timeout exceeded when trying to connect',
  // pg: the server did not accept a new connection within the timeout.
  'Connection terminated due to connection timeout',
];

/**
 * Whether `error` (or an error it wraps, as drizzle's query errors do) is the connection pool
 * giving up: every connection stayed busy for `POOL_CONNECTION_TIMEOUT_MS`. Nothing was asked of
 * the database, so the request may simply be tried again (the error handler answers 503).
 */
export function isPoolExhausted(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    if (POOL_GAVE_UP.includes(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** Node's socket errors when the server cannot be reached or the connection breaks. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** pg's own messages for a connection that ended or can no longer be used. */
const CONNECTION_LOST = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * Whether `error` (or an error it wraps) says the database cannot be reached rather than that a
 * statement failed: the server refused or dropped the connection (a restart, a failover, the
 * network), is shutting down or starting up (SQLSTATE 57P01–57P03), or reports a connection
 * exception (class 08). Nothing the request asked for was done, or its transaction was rolled
 * back with the connection. The error handler answers these with 503 (decision 140).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNREACHABLE_CODES.has(code)) return true;
      if (code === '57P01' || code === '57P02' || code === '57P03') return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (CONNECTION_LOST.includes(current.message)) return true;
    // Several addresses tried (localhost as ::1 and 127.0.0.1), each refused.
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable))
      return true;
    current = current.cause;
  }
  return false;
}

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
  const contentVersion = new ContentVersion();
  watchPgliteWrites(client, contentVersion);
  const db: Database = drizzlePglite(client);
  registerContentVersion(db, contentVersion);
  return {
    db,
    engine: 'pglite',
    contentVersion,
    // One process owns a PGlite data folder: every write comes through this handle.
    watchContent() {},
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
    connectionTimeoutMillis: POOL_CONNECTION_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const contentVersion = new ContentVersion();
  // Other processes may write: until their changes can be heard, nothing is complete.
  contentVersion.complete = false;
  pool.on('connect', (client) => watchPgWrites(client, contentVersion));
  const db: Database = drizzlePg(pool);
  registerContentVersion(db, contentVersion);
  const watcher = contentWatcher(options.url, contentVersion);
  return {
    db,
    engine: 'postgres',
    contentVersion,
    watchContent: () => watcher.start(),
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await watcher.stop();
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
      value: await fn(drizzlePg(client)),
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

/** The SQL text of a query's first argument (a string or a `{ text }` query config). */
function statementOf(query: unknown): string {
  if (typeof query === 'string') return query;
  if (query && typeof query === 'object' && 'text' in query) return String(query.text);
  return '';
}

/**
 * Bumps the content version after a PGlite write to content commits: after the statement outside
 * a transaction, after the transaction when one of its statements wrote (and after the statement
 * too: a bump before the commit is harmless, a missing one after it is not).
 */
function watchPgliteWrites(client: PGlite, version: ContentVersion): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  let countsInTransaction = false;
  let visitorsInTransaction = false;
  const after = <T>(statement: string, run: Promise<T>, onWrite: () => void): Promise<T> => {
    if (raisesCountOnly(statement)) {
      countsInTransaction = true;
      return run.finally(() => version.countsChanged());
    }
    let ran = run;
    if (changesVisitors(statement)) {
      visitorsInTransaction = true;
      ran = ran.finally(() => version.visitorsChanged());
    }
    if (!changesContent(statement)) return ran;
    return ran.finally(onWrite);
  };
  client.query = ((sqlText: string, ...rest: unknown[]) =>
    after(sqlText, (query as (...a: unknown[]) => Promise<unknown>)(sqlText, ...rest), () =>
      version.bump(),
    )) as typeof client.query;
  client.exec = ((sqlText: string, ...rest: unknown[]) =>
    after(sqlText, (exec as (...a: unknown[]) => Promise<unknown>)(sqlText, ...rest), () =>
      version.bump(),
    )) as typeof client.exec;
  client.transaction = (async <T>(
    callback: (tx: Parameters<Parameters<typeof transaction>[0]>[0]) => Promise<T>,
  ) => {
    let wrote = false;
    countsInTransaction = false;
    visitorsInTransaction = false;
    try {
      return await transaction(async (tx) => {
        const txQuery = tx.query.bind(tx);
        const txExec = tx.exec.bind(tx);
        tx.query = ((sqlText: string, ...rest: unknown[]) =>
          after(
            sqlText,
            (txQuery as (...a: unknown[]) => Promise<unknown>)(sqlText, ...rest),
            () => {
              wrote = true;
              version.bump();
            },
          )) as typeof tx.query;
        tx.exec = ((sqlText: string, ...rest: unknown[]) =>
          after(
            sqlText,
            (txExec as (...a: unknown[]) => Promise<unknown>)(sqlText, ...rest),
            () => {
              wrote = true;
              version.bump();
            },
          )) as typeof tx.exec;
        return callback(tx);
      });
    } finally {
      if (wrote) version.bump();
      // PGlite runs one transaction at a time: a raise seen since it began was its own.
      if (countsInTransaction) version.countsChanged();
      if (visitorsInTransaction) version.visitorsChanged();
      countsInTransaction = false;
      visitorsInTransaction = false;
    }
  }) as typeof client.transaction;
}

type PgQuery = (...args: unknown[]) => unknown;

/**
 * Bumps the content version after a PostgreSQL write to content commits, and tells the other
 * processes on the same client (`pg_notify` after the commit, before the caller goes on, so an
 * answer sent after a change is sent after its announcement). A write outside a transaction
 * commits with its statement; inside one, the bump follows the `commit` (and the statement too).
 * A transaction that only raised like counts announces that alone, after its commit (decision 053).
 */
function watchPgWrites(client: pg.PoolClient, version: ContentVersion): void {
  const query = client.query.bind(client) as PgQuery;
  // What this connection wrote since its last commit: announced once it is idle again.
  let pendingContent = false;
  let pendingCounts = false;
  let pendingVisitors = false;
  const notify = (payload: string) =>
    (query(`select pg_notify('${CONTENT_CHANNEL}', $1)`, [payload]) as Promise<unknown>).catch(
      () => undefined,
    );
  const announceContent = () => {
    version.bump();
    return notify(version.instance);
  };
  const afterStatement = (writes: boolean): Promise<unknown> => {
    // The server's own word on the transaction (ReadyForQuery): 'I' once nothing is open. A
    // client that cannot tell is taken as idle: its changes are announced at once.
    const status = (
      client as { getTransactionStatus?: () => string | null }
    ).getTransactionStatus?.();
    const idle = status !== 'T' && status !== 'E';
    if (!idle) return writes ? announceContent() : Promise.resolve();
    const content = pendingContent;
    const counts = pendingCounts;
    const visitors = pendingVisitors;
    pendingContent = false;
    pendingCounts = false;
    pendingVisitors = false;
    if (visitors) {
      // A session or cart changed (decision 157): after the commit, here and in the others.
      version.visitorsChanged();
      const told = notify(`${VISITORS_PAYLOAD_PREFIX}${version.instance}`);
      if (!content && !counts) return told;
    }
    if (content) return announceContent();
    if (counts) {
      // Only a like count rose (decision 053): pages become due, not void.
      version.countsChanged();
      return notify(`${COUNTS_PAYLOAD_PREFIX}${version.instance}`);
    }
    return Promise.resolve();
  };
  (client as unknown as { query: PgQuery }).query = (...args: unknown[]) => {
    const statement = statementOf(args[0]);
    const writes = changesContent(statement);
    const counts = raisesCountOnly(statement);
    const visitors = changesVisitors(statement);
    const ends = endsTransaction(statement);
    if (
      !writes &&
      !counts &&
      !visitors &&
      !(ends && (pendingContent || pendingCounts || pendingVisitors))
    )
      return query(...args);
    if (writes) pendingContent = true;
    if (counts) pendingCounts = true;
    if (visitors) pendingVisitors = true;
    const callback = args.findIndex((a) => typeof a === 'function');
    if (callback >= 0) {
      const done = args[callback] as (err: unknown, res: unknown) => void;
      const wrapped = [...args];
      wrapped[callback] = (err: unknown, res: unknown) => {
        void afterStatement(writes).then(() => done(err, res));
      };
      return query(...wrapped);
    }
    const run = query(...args) as Promise<unknown>;
    return run.then(
      async (res) => {
        await afterStatement(writes);
        return res;
      },
      async (err) => {
        await afterStatement(writes);
        throw err;
      },
    );
  };
}

/**
 * Follows other processes' content changes: a connection of its own that LISTENs on the content
 * channel and bumps the version on every notification from another process. While it is not
 * connected it cannot hear changes, so every (re)connection bumps the version too: whatever was
 * cached before is void.
 */
function contentWatcher(url: string, version: ContentVersion) {
  let client: pg.Client | undefined;
  let stopped = true;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.payload === `${COUNTS_PAYLOAD_PREFIX}${version.instance}`) return;
      if (message.payload === `${VISITORS_PAYLOAD_PREFIX}${version.instance}`) return;
      if (message.payload?.startsWith(VISITORS_PAYLOAD_PREFIX)) version.visitorsChanged();
      else if (message.payload?.startsWith(COUNTS_PAYLOAD_PREFIX)) version.countsChanged();
      else if (message.payload !== version.instance) version.bump();
    });
    const lost = () => {
      version.complete = false;
      version.bump('unheard');
      if (client === next) client = undefined;
      next.removeAllListeners('end');
      if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    };
    next.on('error', () => {});
    next.on('end', lost);
    try {
      await next.connect();
      await next.query(`listen ${CONTENT_CHANNEL}`);
      client = next;
      version.complete = true;
      version.bump('heard');
    } catch {
      next.removeAllListeners('end');
      void next.end().catch(() => undefined);
      version.bump('unheard');
      if (!stopped) retry = setTimeout(() => void connect(), 1_000);
    }
  };
  // PostgreSQL sends a session the notifications committed before its query ends ahead of the
  // query's answer, so once a round trip on the listening connection is back, every change
  // committed before it started has been heard. Callers that come while one runs wait for the
  // next, which starts after them.
  let running: Promise<void> | undefined;
  let waiting: Promise<void> | undefined;
  const roundTrip = (listener: pg.Client): Promise<void> => {
    const trip: Promise<void> = listener.query('select 1').then(
      () => undefined,
      () => {
        version.complete = false;
      },
    );
    const done = trip.finally(() => {
      if (running === done) running = undefined;
    });
    running = done;
    return done;
  };
  version.sync = () => {
    const listener = client;
    if (!listener) return Promise.resolve();
    if (!running) return roundTrip(listener);
    waiting ??= running.then(() => {
      waiting = undefined;
      const current = client;
      return current ? roundTrip(current) : undefined;
    });
    return waiting;
  };
  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void connect();
    },
    async stop() {
      stopped = true;
      version.complete = false;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      if (current) {
        current.removeAllListeners('end');
        await current.end().catch(() => undefined);
      }
    },
  };
}

export { sql };
