import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, sql } from './client.ts';

const url = process.env.DATABASE_URL;

describe.runIf(url)('withAdvisoryLock on PostgreSQL', () => {
  let handle: DatabaseHandle;
  // Advisory locks are cluster-wide: a random key keeps parallel test files apart.
  const key = randomInt(1_000_000, 2 ** 31 - 1);

  beforeAll(async () => {
    handle = await openDatabase({ engine: 'postgres', url: url as string, poolSize: 2 });
  });

  afterAll(async () => {
    await handle?.close();
  });

  it('rethrows the error of fn when the connection broke, and leaves neither lock nor broken client', async () => {
    let terminated: unknown;
    await expect(
      handle.withAdvisoryLock(key, async (db) => {
        try {
          await db.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
        } catch (error) {
          terminated = error;
          throw new Error('boom');
        }
        throw new Error('the backend was not terminated');
      }),
    ).rejects.toThrow(/^boom$/);
    expect(terminated).toBeInstanceOf(Error);

    await handle.ping();
    // Both pool slots get used: a broken client returned to the pool would fail one of them.
    await Promise.all([handle.ping(), handle.ping()]);
    const seen = await handle.withAdvisoryLock(key, async (db) => {
      const result = (await db.execute(sql`select 1 as one`)) as unknown as {
        rows: { one: number }[];
      };
      return result.rows[0]?.one;
    });
    expect(seen).toBe(1);
  });

  it('returns the value of fn and releases the lock', async () => {
    expect(await handle.withAdvisoryLock(key, async () => 'done')).toBe('done');
    expect(await handle.withAdvisoryLock(key, async () => 'again')).toBe('again');
  });

  it('rethrows the error of fn on a healthy connection', async () => {
    await expect(
      handle.withAdvisoryLock(key, async () => {
        throw new Error('plain failure');
      }),
    ).rejects.toThrow('plain failure');
    expect(await handle.withAdvisoryLock(key, async () => 'after')).toBe('after');
  });
});
