import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  type Answer,
  type ProblemStatus,
  problemAnswers,
  XSRF_SECURITY,
} from '../../server/openapi.ts';
import type { ZodApp } from '../../server/types.ts';
import type { StaffRouteAccess } from './guard.server.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** A back-office request, typed by the route's params, query and body schemas. */
export type AdminRequest<P, Q, B> = FastifyRequest<{
  Params: Parsed<P>;
  Querystring: Parsed<Q>;
  Body: Parsed<B>;
}>;

/** How much a client may ask of a route: requests per time window (milliseconds). */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

/** One back-office route as its group declares it: access, limits, the OpenAPI text, the work. */
export interface AdminRoute<P, Q, B> {
  /** What the route needs (decision 131); the guard checks it before the body is read. */
  staff: StaffRouteAccess;
  rateLimit: RateLimit;
  bodyLimit?: number;
  /** A check of the thing the request names (its site and language), before the body is parsed. */
  preValidation?: (request: FastifyRequest) => unknown;
  summary: string;
  description?: string;
  params?: P;
  querystring?: Q;
  body?: B;
  /** The answer when all goes well: 200, or with `status` a redirect. */
  answer: Answer;
  status?: 200 | 303;
  /** The problems the route may answer with (500 is always added). */
  problems: ProblemStatus[];
  handler: (request: AdminRequest<P, Q, B>, reply: FastifyReply) => unknown;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  const { staff, rateLimit, bodyLimit, preValidation, handler } = route;
  app.route({
    method,
    url,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    config: { staff, rateLimit },
    ...(preValidation ? { preValidation: preValidation as never } : {}),
    schema: adminSchema(method, route),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return handler(request as AdminRequest<P, Q, B>, reply);
    },
  });
}

/** The route's schema: its request parts to check and its answers to document. */
function adminSchema<P, Q, B>(method: Method, route: AdminRoute<P, Q, B>) {
  const { summary, description, params, querystring, body } = route;
  return {
    tags: ['admin'],
    summary,
    ...(description === undefined ? {} : { description }),
    ...(method === 'GET' ? {} : { security: XSRF_SECURITY }),
    ...(params === undefined ? {} : { params }),
    ...(querystring === undefined ? {} : { querystring }),
    ...(body === undefined ? {} : { body }),
    response: { [route.status ?? 200]: route.answer, ...problemAnswers(...route.problems) },
  };
}
