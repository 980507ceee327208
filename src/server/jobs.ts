import type { FastifyInstance } from 'fastify';
import type { Database, DatabaseHandle } from '../db/client.ts';

/**
 * Background jobs that must run once across every process on one database (decision 032): each
 * tick takes a PostgreSQL advisory lock named after the job, held on its own connection for the
 * tick; a process that finds it taken skips the tick (another process is doing the work). A
 * process that dies mid-tick loses its connection and with it the lock. On PGlite (one process)
 * the lock is only this process's own guard against a tick overlapping the previous one.
 *
 * The lock keeps two ticks of one job apart; the jobs themselves stay safe when they do overlap
 * (the outbox claims rows with `FOR UPDATE SKIP LOCKED`, the order expiry updates conditionally),
 * since a tick that outlives its process's connection would lose its lock mid-way.
 */

/**
 * The high 32 bits of every job's lock key, so jobs never meet the other advisory locks (the
 * migrations' key is below 2^32).
 */
const JOB_LOCK_SPACE = 0x4b4a; // "KJ"

/** The low 32 bits: a 32-bit FNV-1a hash of the job's name. */
function fnv1a(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(name, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** The job's advisory lock key (a bigint). */
export function jobLockKey(name: string): number {
  // (space << 32) | (hash as unsigned): within 2^53, so exact as a JavaScript number.
  return JOB_LOCK_SPACE * 2 ** 32 + (fnv1a(name) >>> 0);
}

const running = new WeakMap<DatabaseHandle, Set<string>>();

export type JobRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs one tick of the job `name` unless it is already running in this process or another;
 * `fn` gets a database handle on the connection that holds the lock.
 */
export async function runJobOnce<T>(
  database: DatabaseHandle,
  name: string,
  fn: (db: Database) => Promise<T>,
): Promise<JobRun<T>> {
  let here = running.get(database);
  if (!here) {
    here = new Set();
    running.set(database, here);
  }
  if (here.has(name)) return { ran: false };
  here.add(name);
  try {
    const outcome = await database.tryAdvisoryLock(jobLockKey(name), fn);
    return outcome.acquired ? { ran: true, value: outcome.value } : { ran: false };
  } finally {
    here.delete(name);
  }
}

export interface Job {
  /** Names the job in the lock and the log. */
  name: string;
  everyMs: number;
  /** One tick; what it answers is logged at info when it is a number above 0. */
  run: (db: Database) => Promise<unknown>;
  /** The log message for a tick that did some work (`{ count }` beside it). */
  doneMessage?: string;
}

/**
 * Ticks `job` every `everyMs` through `runJobOnce` until the app closes; a failed tick is logged
 * and the next one tries again. Answers the tick, for a first one at once.
 */
export function startJob(app: FastifyInstance, job: Job): () => Promise<void> {
  const tick = async () => {
    try {
      const outcome = await runJobOnce(app.database, job.name, job.run);
      if (outcome.ran && typeof outcome.value === 'number' && outcome.value > 0) {
        app.log.info({ job: job.name, count: outcome.value }, job.doneMessage ?? 'job done');
      }
    } catch (err) {
      app.log.warn({ err, job: job.name }, 'job failed');
    }
  };
  const timer = setInterval(() => void tick(), job.everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  return tick;
}
