import type { FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/client.ts';

const PING_TIMEOUT_MS = 2_000;

/** `/health` for load balancers: 200 when the database answers, 503 when it does not. */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/health', { config: { session: false } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await withTimeout(app.database.ping(), PING_TIMEOUT_MS);
      return { status: 'ok', database: app.database.engine };
    } catch (err) {
      // A load balancer asks every few seconds: an unreachable database is one outage, logged
      // once (decision 140), not a warning per check.
      if (isDatabaseUnavailable(err)) app.databaseOutage.noticed(err);
      else request.log.warn({ err }, 'health check: database did not answer');
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
