import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SharedCounters } from './redis.ts';

/**
 * Takes a permit when fewer than `max` unexpired leases are held: a sorted set of permit ids
 * scored by their lease's end, in Redis's own clock (TIME), so the processes' clocks do not
 * matter. Leases past their end are dropped first: a process that crashed holding permits gives
 * them back when their leases run out. The key itself lives as long as the newest lease.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** Extends a permit's lease; 0 when it is gone (expired and dropped, or released). */
const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if not redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

type ScriptedRedis = Redis & {
  permitAcquire(key: string, max: number, leaseMs: number, id: string): Promise<number>;
  permitRenew(key: string, leaseMs: number, id: string): Promise<number>;
};

function scripted(redis: Redis): ScriptedRedis {
  const r = redis as ScriptedRedis;
  if (typeof r.permitAcquire !== 'function') {
    redis.defineCommand('permitAcquire', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
    redis.defineCommand('permitRenew', { numberOfKeys: 1, lua: RENEW_SCRIPT });
  }
  return r;
}

/**
 * A permit held: give it back with `release()` (twice is harmless). Its promise settles once the
 * shared count has it back (never rejects; if Redis fails the lease runs out by itself).
 */
export interface Permit {
  /** 'shared' when counted in Redis, 'local' when in this process (no Redis, or it was down). */
  readonly where: 'shared' | 'local';
  release(): Promise<void>;
}

export interface PermitsOptions {
  /** Names the semaphore in Redis. */
  name: string;
  /** Permits at once: across all processes with Redis, in this process without. */
  max: number;
  /** How long a permit lives in Redis without renewal; renewed every third of it while held. */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 30_000;

/**
 * A counting semaphore: at most `max` permits at once, shared by every process through Redis
 * when `shared` is given, in this process's memory otherwise. A permit held in Redis is a lease
 * that this process renews while it holds it, so a process that dies holding permits cannot keep
 * them longer than one lease. While Redis is down permits are counted in this process (the same
 * `max`), as without Redis (decision 032).
 */
export function permits(shared: SharedCounters | undefined, options: PermitsOptions) {
  const { name, max } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const redis = shared ? scripted(shared.redis) : undefined;
  const key = `permits:${name}`;
  let localHeld = 0;
  let held = 0;

  const localPermit = (): Permit | undefined => {
    if (localHeld >= max) return undefined;
    localHeld++;
    held++;
    let released = false;
    return {
      where: 'local',
      async release() {
        if (released) return;
        released = true;
        localHeld--;
        held--;
      },
    };
  };

  const sharedPermit = (r: ScriptedRedis, id: string): Permit => {
    held++;
    let released = false;
    const renew = setInterval(
      () => {
        r.permitRenew(key, leaseMs, id).then(
          (kept) => {
            shared?.succeeded();
            // Lost (Redis restarted empty, or the lease ran out while Redis was away): the
            // request goes on; only its place in the shared count is gone.
            if (!kept) clearInterval(renew);
          },
          (error: unknown) => shared?.failed(error),
        );
      },
      Math.max(10, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    return {
      where: 'shared',
      async release() {
        if (released) return;
        released = true;
        held--;
        clearInterval(renew);
        // If this fails the lease runs out by itself.
        await r.zrem(key, id).then(
          () => undefined,
          (error: unknown) => shared?.failed(error),
        );
      },
    };
  };

  return {
    /** Permits this process holds now. */
    get held() {
      return held;
    },
    /** A permit, or undefined when `max` are taken. */
    async acquire(): Promise<Permit | undefined> {
      if (!redis || !shared?.up) return localPermit();
      const id = randomUUID();
      try {
        const granted = await redis.permitAcquire(key, max, leaseMs, id);
        shared.succeeded();
        return granted === 1 ? sharedPermit(redis, id) : undefined;
      } catch (error) {
        shared.failed(error);
        return localPermit();
      }
    },
  };
}
