import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { adminRoute } from '../staff/index.server.ts';
import {
  createSynonym,
  deleteSynonym,
  listSynonyms,
  updateSynonym,
} from './synonym-admin.server.ts';
import {
  SYNONYMS_API,
  synonymCreateSchema,
  synonymDeleteQuerySchema,
  synonymLangParamsSchema,
  synonymListSchema,
  synonymParamsSchema,
  synonymRowSchema,
  synonymUpdateSchema,
} from './synonym-schemas.ts';

const API_LIMIT = perMinute(600);
const WRITE_LIMIT = perMinute(120);
const BODY_LIMIT = 16 * 1024;

/**
 * `search.synonyms` for the language in the URL on every site: a set applies to the language's
 * searches on all sites, so a grant limited to some sites does not reach it.
 */
const access = {
  permission: 'search.synonyms',
  scope: (request: FastifyRequest) => ({
    lang: (request.params as { lang?: unknown } | undefined)?.lang as string | undefined,
  }),
} as const;

const LANG = `${SYNONYMS_API}/:lang`;
const SET = `${LANG}/:id`;

/** The synonym sets of search (decision 164), per language. */
export async function synonymRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const set = jsonAnswer(synonymRowSchema, 'The synonym set');
  adminRoute(app, 'GET', LANG, {
    staff: access,
    rateLimit: API_LIMIT,
    summary: 'The search synonym sets of a language',
    params: synonymLangParamsSchema,
    answer: jsonAnswer(synonymListSchema, 'The sets, oldest first'),
    problems: [400, 401, 403, 429],
    handler: (request) => listSynonyms(request, request.params.lang),
  });
  adminRoute(app, 'POST', LANG, {
    staff: access,
    rateLimit: WRITE_LIMIT,
    bodyLimit: BODY_LIMIT,
    summary: 'Adds a synonym set to the language’s search',
    description:
      'Two-way: the terms stand for each other (two or more). One-way: each term also searches for the targets. Terms are kept in lower case; the next search on every process uses the set. Written to the audit log.',
    params: synonymLangParamsSchema,
    body: synonymCreateSchema,
    answer: set,
    problems: [400, 401, 403, 413, 429],
    handler: (request) => createSynonym(request, request.params.lang, request.body),
  });
  adminRoute(app, 'PUT', SET, {
    staff: access,
    rateLimit: WRITE_LIMIT,
    bodyLimit: BODY_LIMIT,
    summary: 'Changes a synonym set',
    description:
      '`version` is the one the staff member saw: 409 when the set changed since, and nothing is written. Written to the audit log.',
    params: synonymParamsSchema,
    body: synonymUpdateSchema,
    answer: set,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) =>
      updateSynonym(request, request.params.lang, request.params.id, request.body),
  });
  adminRoute(app, 'DELETE', SET, {
    staff: access,
    rateLimit: WRITE_LIMIT,
    summary: 'Removes a synonym set',
    description: '`version` as seen: 409 when the set changed since. Written to the audit log.',
    params: synonymParamsSchema,
    querystring: synonymDeleteQuerySchema,
    answer: jsonAnswer(z.object({ ok: z.literal(true) }), 'Removed'),
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) =>
      deleteSynonym(request, request.params.lang, request.params.id, request.query.version),
  });
}
