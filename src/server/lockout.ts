import { TooManyRequests } from './errors.ts';
import { rateLimitStore } from './rate-limit.ts';
import type { SharedCounters } from './redis.ts';

/**
 * Lockout after failures (the back office's login steps, decision 130): wrong answers are counted
 * per key (an account) in a fixed window; once `max` have been counted the step is refused with
 * 429 and Retry-After until the window ends, right answers included. Counted where the rate
 * limits count (`rate-limit.ts`): in Redis when `REDIS_URL` is set, so every process sees the
 * same count, and in this process's memory otherwise or while Redis is down (decision 032).
 */
export interface Lockout {
  /** Throws 429 when the key is locked. */
  check(key: string): Promise<void>;
  /** Counts a failure for the key. */
  fail(key: string): Promise<void>;
}

interface CountingStore {
  incr(
    key: string,
    cb: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
  ): void;
  read(
    key: string,
    cb: (error: Error | null, result?: { current: number; ttl: number }) => void,
  ): void;
}

export function lockout(
  shared: SharedCounters | undefined,
  options: { name: string; max: number; windowMs: number },
): Lockout {
  const Store = rateLimitStore(shared) as unknown as new (
    options: unknown,
    prefix: string,
  ) => CountingStore;
  const store = new Store(undefined, `lockout:${options.name}:`);
  const read = (key: string) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.read(key, (error, result) =>
        error ? reject(error) : resolve(result ?? { current: 0, ttl: 0 }),
      ),
    );
  const incr = (key: string) =>
    new Promise<void>((resolve, reject) =>
      store.incr(key, (error) => (error ? reject(error) : resolve()), options.windowMs),
    );
  return {
    async check(key) {
      const { current, ttl } = await read(key);
      if (current >= options.max) {
        throw new TooManyRequests(
          Math.max(1, Math.ceil(ttl / 1000)),
          'Too many wrong attempts for this account. Try again later.',
        );
      }
    },
    fail: incr,
  };
}
