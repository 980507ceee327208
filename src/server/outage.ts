import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the database is known to be unreachable now (decision 140). */
    databaseOutage: DatabaseOutage;
  }
}

/** How often the database is asked whether it is back while it is unavailable. */
export const OUTAGE_PROBE_MS = 250;

/**
 * One outage of the database as this process sees it: begun by the first request that failed
 * because the database could not be reached (the error handler calls `noticed`), ended by a
 * `select 1` that answers. The log says "database unavailable" once when it begins and "database
 * available again" once when it ends, however many requests fail in between.
 */
export class DatabaseOutage {
  /** When the current outage began (ms since the epoch); undefined while there is none. */
  since: number | undefined;
  /** Requests answered while it lasted (503s and last good copies). */
  failedRequests = 0;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(
    private readonly ping: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  get active(): boolean {
    return this.since !== undefined;
  }

  /** A request failed because the database could not be reached. */
  noticed(err: unknown): void {
    this.failedRequests += 1;
    if (this.since !== undefined || this.closed) return;
    this.since = Date.now();
    this.failedRequests = 1;
    this.log.error({ err }, 'database unavailable');
    this.probe = setInterval(() => void this.check(), OUTAGE_PROBE_MS);
    this.probe.unref();
  }

  private async check(): Promise<void> {
    if (this.probing || this.since === undefined) return;
    this.probing = true;
    try {
      await this.ping();
    } catch {
      return;
    } finally {
      this.probing = false;
    }
    this.end();
  }

  private end(): void {
    if (this.since === undefined) return;
    clearInterval(this.probe);
    this.probe = undefined;
    this.log.info(
      { outageMs: Date.now() - this.since, failedRequests: this.failedRequests },
      'database available again',
    );
    this.since = undefined;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.probe);
    this.probe = undefined;
  }
}

/**
 * Logs a part of a page that could not be had and is rendered without (the menus, the cart, the
 * session). When the database cannot be reached that is the outage, logged once by it (decision
 * 140), and each request says so at debug only; anything else is a warning.
 */
export function logDegraded(request: FastifyRequest, err: unknown, message: string): void {
  if (!isDatabaseUnavailable(err)) {
    request.log.warn({ err }, message);
    return;
  }
  const outage = request.server.databaseOutage;
  if (outage && !outage.active) outage.noticed(err);
  request.log.debug({ err }, message);
}
