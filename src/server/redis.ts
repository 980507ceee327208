import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * The Redis connection that the processes behind one load balancer share their counters through
 * (rate limits, the forms' upload gate) when `REDIS_URL` is set (decision 032).
 *
 * Commands never wait for a lost connection: `enableOfflineQueue: false` fails them at once and
 * `commandTimeout` bounds one that hangs, so a request is slowed by at most that long. The callers
 * then count in this process's memory instead ("fail to local"): neither every request refused
 * (closed) nor every limit dropped (open). ioredis reconnects by itself; once it is back, the
 * shared counters are used again.
 */
export interface SharedCounters {
  redis: Redis;
  /**
   * True while connected and no command has failed in the last few seconds: the callers skip
   * Redis (and its timeout) while it is down or hangs.
   */
  readonly up: boolean;
  /** Reports a failed command: logged once per outage; Redis is skipped for a few seconds. */
  failed(error: unknown): void;
  /** Reports a command that worked: ends an outage in the log. */
  succeeded(): void;
  close(): Promise<void>;
}

const COMMAND_TIMEOUT_MS = 500;
/** After a failed command, how long the callers count in memory before they try Redis again. */
const BACK_OFF_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to `url`; throws when Redis does not answer within a few seconds, so a wrong
 * `REDIS_URL` stops the start-up instead of quietly counting per process.
 */
export async function openSharedCounters(
  url: string,
  options: { keyPrefix: string; log: FastifyBaseLogger },
): Promise<SharedCounters> {
  const { log } = options;
  const redis = new Redis(url, {
    keyPrefix: options.keyPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Reconnect every 0.2 s, 0.4 s, … at most every 2 s, for as long as the process runs.
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  let outage = false;
  let skipUntil = 0;
  const failed = (error: unknown) => {
    skipUntil = Date.now() + BACK_OFF_MS;
    if (outage) return;
    outage = true;
    log.warn(
      { err: error },
      'redis: unavailable; rate limits and the upload gate count in this process until it is back',
    );
  };
  const succeeded = () => {
    if (!outage) return;
    outage = false;
    log.info('redis: back; rate limits and the upload gate are shared again');
  };
  // Without a listener a connection error would be an uncaught 'error' event. Before the first
  // connection, a failure is the start-up's own error, not an outage.
  let started = false;
  redis.on('error', (error) => {
    if (started) failed(error);
  });
  redis.on('ready', succeeded);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect (${(error as Error).message})`);
  }
  started = true;
  return {
    redis,
    get up() {
      return redis.status === 'ready' && Date.now() >= skipUntil;
    },
    failed,
    succeeded,
    async close() {
      if (redis.status === 'end') return;
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
