import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database, DatabaseHandle } from '../db/client.ts';
import type { Locale, SiteResolver } from '../sites/resolve.ts';
import type { Site } from '../sites/types.ts';
import type { Config } from './config.ts';
import type { FileStore } from './file-store.ts';
import type { Session } from './plugins/sessions.ts';
import type { SharedCounters } from './redis.ts';

/**
 * A Fastify instance whose routes take their types from their zod schemas
 * (`fastify.withTypeProvider<ZodTypeProvider>()`): what a group of routes is registered on.
 */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Renders the HTML error page of the request's site and language. */
export type ErrorPageRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: 400 | 404 | 500 | 503,
) => Promise<unknown> | unknown;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Database;
    sites: SiteResolver;
    errorPage: { render: ErrorPageRenderer | undefined };
    files: FileStore;
    /** Redis for counters shared by every process (`REDIS_URL`); undefined: count in memory. */
    sharedCounters: SharedCounters | undefined;
  }
  interface FastifyRequest {
    site: Site;
    locale: Locale;
    session: Session;
  }
  interface FastifyContextConfig {
    /** false: no session or anti-forgery cookies (health checks, files). */
    session?: boolean;
  }
}
