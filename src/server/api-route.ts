import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { type Answer, type ProblemStatus, problemAnswers, XSRF_SECURITY } from './openapi.ts';
import type { ZodApp } from './types.ts';

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;

/** A request of an API route, typed by the route's params, query and body schemas. */
export type ApiRequest<P, Q, B> = FastifyRequest<{
  Params: Parsed<P>;
  Querystring: Parsed<Q>;
  Body: Parsed<B>;
}>;

/** How much a client may ask of a route: requests per time window (milliseconds). */
export interface RateLimit {
  max: number;
  timeWindow: number;
}

/**
 * One JSON API route as its group declares it (decision 169): limits, the OpenAPI text, the
 * request's schemas, its answers and the work.
 */
export interface ApiRoute<P, Q, B> {
  rateLimit: RateLimit;
  bodyLimit?: number;
  /** A check of the thing the request names (its site and language), before the body is parsed. */
  preValidation?: (request: FastifyRequest) => unknown;
  /** The route's own way of turning a refused request into a problem (its field names). */
  validatorCompiler?: FastifySchemaCompiler<unknown>;
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
  handler: (request: ApiRequest<P, Q, B>, reply: FastifyReply) => unknown;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Registers a JSON API route under the OpenAPI tag `tag`, every write documented as needing the
 * anti-forgery token (the XSRF plugin checks it); `config` adds to the route's config beside its
 * rate limit.
 */
export function apiRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  app: ZodApp,
  method: Method,
  url: string,
  tag: string,
  route: ApiRoute<P, Q, B>,
  config: Record<string, unknown> = {},
) {
  const { rateLimit, bodyLimit, preValidation, validatorCompiler, handler } = route;
  app.route({
    method,
    url,
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    config: { ...config, rateLimit },
    ...(preValidation ? { preValidation: preValidation as never } : {}),
    ...(validatorCompiler ? { validatorCompiler: validatorCompiler as never } : {}),
    schema: apiSchema(method, tag, route),
    handler: async (request, reply) => handler(request as ApiRequest<P, Q, B>, reply),
  });
}

/** The route's schema: its request parts to check and its answers to document. */
function apiSchema<P, Q, B>(method: Method, tag: string, route: ApiRoute<P, Q, B>) {
  const { summary, description, params, querystring, body } = route;
  return {
    tags: [tag],
    summary,
    ...(description === undefined ? {} : { description }),
    ...(method === 'GET' ? {} : { security: XSRF_SECURITY }),
    ...(params === undefined ? {} : { params }),
    ...(querystring === undefined ? {} : { querystring }),
    ...(body === undefined ? {} : { body }),
    response: { [route.status ?? 200]: route.answer, ...problemAnswers(...route.problems) },
  };
}
