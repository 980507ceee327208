import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import type { ZodApp } from '../../server/types.ts';
import { adminRoute } from '../staff/index.server.ts';
import {
  addNote,
  assertSubmissionAccess,
  changeHandling,
  exportInbox,
  type HandlingChange,
  listInbox,
  openSubmission,
  reply,
  submissionFile,
} from './inbox.server.ts';
import {
  assigneeChangeSchema,
  holdChangeSchema,
  INBOX_API,
  inboxExportQuerySchema,
  inboxListSchema,
  inboxQuerySchema,
  inboxRowSchema,
  noteSchema,
  openedSubmissionSchema,
  replySchema,
  stateChangeSchema,
  submissionFileParamsSchema,
  submissionFileQuerySchema,
  submissionIdParamsSchema,
} from './schemas.ts';

const API_LIMIT = perMinute(600);
const BODY_LIMIT = 64 * 1024;
const READ = { permission: 'submissions.read' } as const;
const MANAGE = { permission: 'submissions.manage' } as const;
const okAnswer = z.object({ ok: z.literal(true) });

/**
 * The customer-service inbox's routes (decision 137): the list and one submission need
 * `submissions.read`, changes `submissions.manage`, each for the submission's own site and
 * language (403 otherwise, checked once the submission is found).
 */
export async function inboxRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerReads(app);
  registerWrites(app);
}

/** The list, its export, one submission opened, and its files. */
function registerReads(app: ZodApp) {
  adminRoute(app, 'GET', INBOX_API, {
    staff: READ,
    rateLimit: API_LIMIT,
    summary: 'The form submissions the staff member may read, newest first',
    description:
      '`form`, `site`, `lang` and `state` narrow the list; submissions outside the grants are never listed. 50 at a time from `offset`. No personal data: that is read by opening one.',
    querystring: inboxQuerySchema,
    answer: jsonAnswer(inboxListSchema, 'Submissions'),
    problems: [400, 401, 403, 429],
    handler: (request) => listInbox(app.db, request.staff?.grants ?? [], request.query),
  });
  adminRoute(app, 'GET', `${INBOX_API}/export.csv`, {
    staff: { ...READ, reauth: true },
    rateLimit: perMinute(30),
    summary: 'The list’s submissions, opened, as CSV for a spreadsheet; needs re-authentication',
    description:
      'UTF-8 with a byte-order mark, `;` between cells (Finnish Excel opens it as it is). The same filters and grants as the list; at most 10 000 submissions (400 naming `form` beyond). Written to the audit log.',
    querystring: inboxExportQuerySchema,
    answer: { description: 'The CSV', content: { 'text/csv': { schema: z.string() } } },
    problems: [400, 401, 403, 429],
    handler: async (request, reply) => {
      const csv = await exportInbox(request, request.query);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-disposition', 'attachment; filename="lomakeviestit.csv"');
      return reply.type('text/csv; charset=utf-8').send(csv);
    },
  });
  adminRoute(app, 'GET', `${INBOX_API}/:id`, {
    staff: READ,
    rateLimit: API_LIMIT,
    summary: 'Opens a submission: its data, files and timeline (written to the audit log)',
    params: submissionIdParamsSchema,
    answer: jsonAnswer(openedSubmissionSchema, 'The submission'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openSubmission(request, request.params.id),
  });
  adminRoute(app, 'GET', `${INBOX_API}/:id/files/:position`, {
    staff: READ,
    rateLimit: API_LIMIT,
    preValidation: (request) => assertSubmissionAccess(request, 'submissions.read'),
    summary: 'A submission’s file: a re-encoded thumbnail of an image, or the file to download',
    description:
      'With `thumbnail=1` an image comes back as a JPEG made from it (never the uploaded bytes); otherwise the file comes as `application/octet-stream` with `Content-Disposition: attachment`, never shown inline. Written to the audit log.',
    params: submissionFileParamsSchema,
    querystring: submissionFileQuerySchema,
    answer: {
      description: 'The file',
      content: { 'application/octet-stream': { schema: z.string() } },
    },
    problems: [400, 401, 403, 404, 429],
    handler: async (request, reply) => {
      const { id, position } = request.params;
      const thumbnail = request.query.thumbnail === '1';
      const file = await submissionFile(request, id, position, thumbnail);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      const name = encodeURIComponent(file.name);
      const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      reply.header(
        'content-disposition',
        `${thumbnail ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${name}`,
      );
      return reply.type(file.type).send(file.bytes);
    },
  });
}

/** What staff do with one submission: state, assignee, legal hold, a note, a reply. */
function registerWrites(app: ZodApp) {
  /** A write to one submission: its body, and the change it makes. */
  const write = <B extends z.ZodType>(
    path: string,
    summary: string,
    body: B,
    answer: z.ZodType,
    run: (request: FastifyRequest, id: string, body: z.output<B>) => Promise<unknown>,
  ) =>
    adminRoute(app, 'POST', `${INBOX_API}/:id/${path}`, {
      staff: MANAGE,
      rateLimit: API_LIMIT,
      bodyLimit: BODY_LIMIT,
      preValidation: (request) => assertSubmissionAccess(request, 'submissions.manage'),
      summary,
      params: submissionIdParamsSchema,
      body,
      answer: jsonAnswer(answer, 'Done'),
      problems: [400, 401, 403, 404, 409, 413, 429],
      handler: (request) => run(request, request.params.id, request.body as z.output<B>),
    });
  /** A change to how the submission is handled, on the version the staff member saw. */
  const handling = <B extends z.ZodType<HandlingChange['set'] & { version: number }>>(
    kind: HandlingChange['kind'],
    summary: string,
    body: B,
  ) =>
    write(kind, summary, body, inboxRowSchema, (request, id, { version, ...set }) =>
      changeHandling(request, id, { kind, version, set }),
    );

  handling(
    'state',
    'Moves a submission to another state, on the version the staff member saw (409 if changed)',
    stateChangeSchema,
  );
  handling(
    'assignee',
    'Gives a submission to a staff member who may handle it, or to nobody (409 if changed)',
    assigneeChangeSchema,
  );
  handling(
    'hold',
    'Puts a submission on legal hold (the retention job keeps it) or takes it off (409 if changed)',
    holdChangeSchema,
  );
  write(
    'notes',
    'Adds an internal note to a submission’s timeline',
    noteSchema,
    okAnswer,
    async (request, id, body) => {
      await addNote(request, id, body.text);
      return { ok: true as const };
    },
  );
  write(
    'reply',
    'Replies to the submitter by mail (outbox), in the submission’s language; 409 without an address',
    replySchema,
    okAnswer,
    async (request, id, body) => {
      await reply(request, id, body.text);
      return { ok: true as const };
    },
  );
}
