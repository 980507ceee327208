import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, openSameDatabase } from '../../tests/setup/database.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { jobLockKey, runJobOnce } from './jobs.ts';

/**
 * The job-once helper (decision 032). On PGlite and PostgreSQL: one tick of a job at a time in a
 * process. On PostgreSQL only (DATABASE_URL): two processes' runners on one database, each with
 * its own connection pool, never tick one job at once.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

let database: DatabaseHandle;
/** A second "process": its own pool on the same PostgreSQL database. */
let other: DatabaseHandle | undefined;

beforeAll(async () => {
  database = await createTestDatabase(inject('templateDatabase'));
  if (onPostgres) other = await openSameDatabase(database);
}, 60_000);
afterAll(async () => {
  await other?.close();
  await database?.close();
});

/** A tick that runs until `finish` is called. */
function heldTick<T>(value: T) {
  let finish = () => {};
  let started = () => {};
  const hasStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    run: async () => {
      started();
      await done;
      return value;
    },
    hasStarted,
    finish: () => finish(),
  };
}

describe('runJobOnce', () => {
  it('keys differ per job and fit a bigint exactly', () => {
    const keys = ['outbox', 'forms-retention', 'order-expiry', 'checkout-hold-tidy'].map(
      jobLockKey,
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(Number.isSafeInteger(key)).toBe(true);
  });

  it('skips a tick while the same job runs in this process; other jobs still run', async () => {
    const first = heldTick('first');
    const running = runJobOnce(database, 'job-a', first.run);
    await first.hasStarted;
    expect(await runJobOnce(database, 'job-a', async () => 'second')).toEqual({ ran: false });
    expect(await runJobOnce(database, 'job-b', async () => 'b')).toEqual({ ran: true, value: 'b' });
    first.finish();
    expect(await running).toEqual({ ran: true, value: 'first' });
    expect(await runJobOnce(database, 'job-a', async () => 'third')).toEqual({
      ran: true,
      value: 'third',
    });
  });

  it('a tick that throws lets the next one run', async () => {
    await expect(
      runJobOnce(database, 'job-fails', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await runJobOnce(database, 'job-fails', async () => 1)).toEqual({ ran: true, value: 1 });
  });

  it('the tick gets a database it can query', async () => {
    const outcome = await runJobOnce(database, 'job-query', async (db) => {
      const result = (await db.execute(sql`select 41 + 1 as n`)) as unknown as {
        rows: { n: number }[];
      };
      return Number(result.rows[0]?.n);
    });
    expect(outcome).toEqual({ ran: true, value: 42 });
  });
});

describe('runJobOnce across processes (PostgreSQL)', () => {
  it.runIf(onPostgres)('a tick in one process makes the other skip the same job', async () => {
    const second = other as DatabaseHandle;
    const first = heldTick('first');
    const running = runJobOnce(database, 'job-shared', first.run);
    await first.hasStarted;
    expect(await runJobOnce(second, 'job-shared', async () => 'other')).toEqual({ ran: false });
    // Another job is free in the other process.
    expect(await runJobOnce(second, 'job-other', async () => 'x')).toEqual({
      ran: true,
      value: 'x',
    });
    first.finish();
    await running;
    expect(await runJobOnce(second, 'job-shared', async () => 'other')).toEqual({
      ran: true,
      value: 'other',
    });
  });

  it.runIf(onPostgres)('ticks started at the same moment in both processes: one runs', async () => {
    for (let round = 0; round < 10; round++) {
      let runs = 0;
      // Long enough that the other runner asks while this one still holds the lock.
      const tick = async () => {
        runs++;
        await new Promise((resolve) => setTimeout(resolve, 150));
      };
      const outcomes = await Promise.all([
        runJobOnce(database, 'job-race', tick),
        runJobOnce(other as DatabaseHandle, 'job-race', tick),
      ]);
      expect(runs).toBe(1);
      expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    }
  });

  it.runIf(onPostgres)('the lock goes with a lost connection', async () => {
    const second = other as DatabaseHandle;
    await expect(
      runJobOnce(database, 'job-lost', async (db) => {
        // The tick's own session ends: PostgreSQL drops its locks with it.
        await db.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
      }),
    ).rejects.toThrow();
    expect(await runJobOnce(second, 'job-lost', async () => 'free')).toEqual({
      ran: true,
      value: 'free',
    });
  });
});
