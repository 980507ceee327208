import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { TooManyRequests } from './errors.ts';
import type { SharedCounters } from './redis.ts';

export interface ClientLimit {
  /**
   * Names the budget: with Redis every process counts under `name` and the client's address, so
   * two budgets never share a counter.
   */
  name: string;
  /** Requests per client address and window. */
  max: number;
  timeWindow: number;
}

/** A budget of `max` requests per client address and minute: the window every route counts in. */
export function perMinute(max: number): { max: number; timeWindow: number } {
  return { max, timeWindow: 60_000 };
}

/**
 * One per-client budget shared by everything that calls the answered check (several routes, or
 * only the costly path of one), unlike a route's own `config.rateLimit`, which counts each route
 * apart. The client is `request.ip` (see TRUST_PROXY). Over the budget the check throws 429 with
 * Retry-After.
 */
export function clientLimit(app: FastifyInstance, limit: ClientLimit) {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.timeWindow,
    keyGenerator: (request) => `${limit.name}:${request.ip}`,
  });
  return async (request: FastifyRequest): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new TooManyRequests(Math.max(1, result.ttlInSeconds));
    }
  };
}

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/** A fixed window per key: the first request starts it, later ones in it count. */
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}`;

const READ_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}`;

type ScriptedRedis = Redis & {
  rateLimitIncr(key: string, windowMs: number): Promise<[number, number]>;
  rateLimitRead(key: string): Promise<[number, number]>;
};

function scripted(redis: Redis): ScriptedRedis {
  const r = redis as ScriptedRedis;
  if (typeof r.rateLimitIncr !== 'function') {
    redis.defineCommand('rateLimitIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
    redis.defineCommand('rateLimitRead', { numberOfKeys: 1, lua: READ_SCRIPT, readOnly: true });
  }
  return r;
}

/** Keys this process counts itself: at most this many, the oldest window dropped first. */
const LOCAL_KEYS = 10_000;

/** Fixed windows in this process's memory (no Redis, or while it is down). */
class LocalWindows {
  private readonly windows = new Map<string, { current: number; endsAt: number }>();

  incr(key: string, windowMs: number): Counted {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.endsAt <= now) {
      entry = { current: 0, endsAt: now + windowMs };
    }
    entry.current += 1;
    // Re-inserted, so the map's order is the order of last use.
    this.windows.delete(key);
    this.windows.set(key, entry);
    if (this.windows.size > LOCAL_KEYS) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    return { current: entry.current, ttl: entry.endsAt - now };
  }

  read(key: string): Counted {
    const entry = this.windows.get(key);
    const now = Date.now();
    if (!entry || entry.endsAt <= now) return { current: 0, ttl: 0 };
    return { current: entry.current, ttl: entry.endsAt - now };
  }
}

/**
 * The store of `@fastify/rate-limit` (every route's `config.rateLimit`, `createRateLimit`,
 * `clientLimit`): counted in Redis when it is configured, so every process behind the load
 * balancer spends one budget; in this process's memory otherwise, and while Redis is down
 * (decision 032: neither failing closed nor open, but per process as before Redis).
 */
export function rateLimitStore(shared: SharedCounters | undefined): FastifyRateLimitStoreCtor {
  const redis = shared ? scripted(shared.redis) : undefined;

  // The plugin's types describe child() with RouteOptions; it passes its merged parameters.
  class Store {
    private readonly local = new LocalWindows();

    /** The plugin constructs the root store with its options (unused); children with a prefix. */
    constructor(_options?: unknown, prefix = 'rl:') {
      this.prefix = prefix;
    }

    private readonly prefix: string;

    private remote(
      ask: (r: ScriptedRedis) => Promise<[number, number]>,
      fallback: () => Counted,
      cb: Callback,
    ): void {
      if (!redis || !shared?.up) {
        cb(null, fallback());
        return;
      }
      ask(redis).then(
        ([current, ttl]) => {
          shared.succeeded();
          cb(null, { current: Number(current), ttl: Number(ttl) });
        },
        (error: unknown) => {
          shared.failed(error);
          cb(null, fallback());
        },
      );
    }

    incr(key: string, cb: Callback, timeWindow: number): void {
      const k = this.prefix + key;
      this.remote(
        (r) => r.rateLimitIncr(k, timeWindow),
        () => this.local.incr(k, timeWindow),
        cb,
      );
    }

    read(key: string, cb: Callback): void {
      const k = this.prefix + key;
      this.remote(
        (r) => r.rateLimitRead(k),
        () => this.local.read(k),
        cb,
      );
    }

    /**
     * A route's own budget is named by its method and URL pattern (the same in every process);
     * `createRateLimit` budgets (no route) name themselves through their key generator.
     */
    child(routeOptions: { routeInfo?: { method?: unknown; url?: unknown } }): Store {
      const info = routeOptions.routeInfo;
      const route =
        info && typeof info.url === 'string' ? `${String(info.method)} ${info.url}` : 'any';
      return new Store(undefined, `${this.prefix}${route}:`);
    }
  }

  return Store as unknown as FastifyRateLimitStoreCtor;
}
