import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TooManyRequests } from './errors.ts';

export interface ClientLimit {
  /** Requests per client address and window. */
  max: number;
  timeWindow: number;
}

/**
 * One per-client budget shared by everything that calls the answered check (several routes, or
 * only the costly path of one), unlike a route's own `config.rateLimit`, which counts each route
 * apart. The client is `request.ip` (see TRUST_PROXY). Over the budget the check throws 429 with
 * Retry-After.
 */
export function clientLimit(app: FastifyInstance, limit: ClientLimit) {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindow });
  return async (request: FastifyRequest): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new TooManyRequests(Math.max(1, result.ttlInSeconds));
    }
  };
}
