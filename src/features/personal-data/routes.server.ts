import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { adminRoute } from '../staff/index.server.ts';
import { erasePerson, exportPerson, findPerson } from './person.server.ts';
import {
  erasedSchema,
  eraseRequestSchema,
  PERSONAL_DATA_API,
  personFoundSchema,
  personQuerySchema,
} from './schemas.ts';

const LIMIT = perMinute(60);
const BODY_LIMIT = 4 * 1024;
const EXPORT = { permission: 'personal-data.export', reauth: true } as const;

/**
 * The data-protection officer's routes (decision 159). The address travels in the body (POST),
 * never in a URL; each needs re-authentication and writes its audit rows under the address's
 * keyed hash.
 */
export async function personalDataRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  adminRoute(app, 'POST', `${PERSONAL_DATA_API}/search`, {
    staff: EXPORT,
    rateLimit: LIMIT,
    bodyLimit: BODY_LIMIT,
    summary: 'Finds a person by e-mail address in the seven stores, within the grants',
    description:
      'Customer accounts, orders, form submissions, subscriptions, campaign entries, reviews and the outbox; sealed rows through the keyed hash of the address. Counts what an erasure would take. Written to the audit log (the hash, never the address).',
    body: personQuerySchema,
    answer: jsonAnswer(personFoundSchema, 'What was found'),
    problems: [400, 401, 403, 413, 429],
    handler: (request) => findPerson(request, request.body.email),
  });
  adminRoute(app, 'POST', `${PERSONAL_DATA_API}/export`, {
    staff: EXPORT,
    rateLimit: perMinute(20),
    bodyLimit: BODY_LIMIT,
    summary: 'Everything found about a person as one ZIP archive (JSON and attachments)',
    description:
      '`person.json` holds each store’s rows, opened; the submissions’ files are under `files/`. Written to the audit log.',
    body: personQuerySchema,
    answer: {
      description: 'The archive',
      content: { 'application/zip': { schema: z.string() } },
    },
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) => {
      const zip = await exportPerson(request, request.body.email);
      const day = new Date().toISOString().slice(0, 10);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-disposition', `attachment; filename="henkilotiedot-${day}.zip"`);
      return reply.type('application/zip').send(zip);
    },
  });
  adminRoute(app, 'POST', `${PERSONAL_DATA_API}/erase`, {
    staff: { permission: 'personal-data.erase', reauth: true },
    rateLimit: LIMIT,
    bodyLimit: BODY_LIMIT,
    summary: 'Erases a person within the grants, on the counts the staff member confirmed',
    description:
      'One transaction: reviews, accounts (their sessions ended), submissions, mails, subscriptions and campaign entries deleted, orders anonymised (amounts, VAT, dates and numbers kept); a submission on legal hold is kept. 409 when the counts differ from what is stored now. Each step written to the audit log; the files deleted from the file store after the commit.',
    body: eraseRequestSchema,
    answer: jsonAnswer(erasedSchema, 'What was erased'),
    problems: [400, 401, 403, 409, 413, 429],
    handler: (request) => erasePerson(request, request.body),
  });
}
