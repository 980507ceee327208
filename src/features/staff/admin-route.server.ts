import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  type ApiRequest,
  type ApiRoute,
  apiRoute,
  type Method,
  type RateLimit,
} from '../../server/api-route.ts';
import type { ZodApp } from '../../server/types.ts';
import type { StaffRouteAccess } from './guard.server.ts';

export type { RateLimit };

/** A back-office request, typed by the route's params, query and body schemas. */
export type AdminRequest<P, Q, B> = ApiRequest<P, Q, B>;

/** One back-office route as its group declares it: access, limits, the OpenAPI text, the work. */
export interface AdminRoute<P, Q, B> extends Omit<ApiRoute<P, Q, B>, 'validatorCompiler'> {
  /** What the route needs (decision 131); the guard checks it before the body is read. */
  staff: StaffRouteAccess;
  handler: (request: AdminRequest<P, Q, B>, reply: FastifyReply) => unknown;
}

/**
 * Registers a back-office route: tagged `admin` in the OpenAPI document, every write needing the
 * anti-forgery token, and every answer `no-store` (staff see personal data; no browser or proxy
 * keeps it).
 */
export function adminRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(app: ZodApp, method: Method, url: string, route: AdminRoute<P, Q, B>) {
  const { staff, handler, ...rest } = route;
  apiRoute(
    app,
    method,
    url,
    'admin',
    {
      ...rest,
      handler: async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return handler(request, reply);
      },
    },
    { staff },
  );
}
