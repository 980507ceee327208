import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import {
  assertCampaignAccess,
  drawCampaign,
  exportParticipants,
  listCampaigns,
  openCampaign,
} from './campaigns.server.ts';
import {
  CAMPAIGNS_API,
  campaignIdParamsSchema,
  campaignQuerySchema,
  campaignsSchema,
  drawRequestSchema,
  drawSchema,
  openedCampaignSchema,
  SUBSCRIBERS_API,
  subscriberIdParamsSchema,
  subscriberListsSchema,
  subscriberSchema,
  subscribersExportQuerySchema,
  subscribersQuerySchema,
  subscribersSchema,
  unsubscribeOnBehalfSchema,
} from './schemas.ts';
import {
  assertSubscriptionAccess,
  exportSubscribers,
  listLists,
  listSubscribers,
  unsubscribeOnBehalf,
} from './subscribers.server.ts';

const API_LIMIT = perMinute(600);
const EXPORT_LIMIT = perMinute(30);
const BODY_LIMIT = 4 * 1024;
const READ = { permission: 'subscribers.read' } as const;
const MANAGE = { permission: 'subscribers.manage' } as const;
const EXPORT = { permission: 'subscribers.export', reauth: true } as const;
const csvAnswer = { description: 'The CSV', content: { 'text/csv': { schema: z.string() } } };

function sendCsv(reply: FastifyReply, csv: string, name: string) {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-disposition', `attachment; filename="${name}"`);
  return reply.type('text/csv; charset=utf-8').send(csv);
}

/**
 * The marketing lists in the back office (decision 158): reading addresses needs
 * `subscribers.read` and is audited, exports `subscribers.export` with re-authentication, taking
 * someone off a list and drawing a raffle `subscribers.manage`; everything within the grants'
 * sites and languages.
 */
export async function subscribersAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerSubscribers(app);
  registerCampaigns(app);
}

function registerSubscribers(app: ZodApp) {
  adminRoute(app, 'GET', `${SUBSCRIBERS_API}/lists`, {
    staff: READ,
    rateLimit: API_LIMIT,
    summary: 'The marketing lists of the sites the staff member may read, with counts per status',
    description:
      'Newsletters, news-release categories and campaign lists per site; no addresses, so no audit row.',
    answer: jsonAnswer(subscriberListsSchema, 'Lists'),
    problems: [401, 403, 429],
    handler: async (request) => ({
      lists: await listLists(app.db, request.staff?.grants ?? [], request.staff?.lang ?? 'fi'),
    }),
  });
  adminRoute(app, 'GET', SUBSCRIBERS_API, {
    staff: READ,
    rateLimit: API_LIMIT,
    summary: 'Subscribers with their consent records, newest first (written to the audit log)',
    description:
      '`site`, `lang`, `list`, `status` and `q` (part of the address) narrow the list; addresses outside the grants are never listed. 50 at a time from `offset`.',
    querystring: subscribersQuerySchema,
    answer: jsonAnswer(subscribersSchema, 'Subscribers'),
    problems: [400, 401, 403, 429],
    handler: (request) => listSubscribers(request, request.query),
  });
  adminRoute(app, 'GET', `${SUBSCRIBERS_API}/export.csv`, {
    staff: EXPORT,
    rateLimit: EXPORT_LIMIT,
    summary: 'The list’s subscribers as CSV for a spreadsheet; needs re-authentication',
    description:
      'UTF-8 with a byte-order mark, `;` between cells. The same filters and grants as the list, each row with its consent record; at most 50 000 (400 naming `list` beyond). Written to the audit log.',
    querystring: subscribersExportQuerySchema,
    answer: csvAnswer,
    problems: [400, 401, 403, 429],
    handler: async (request, reply) =>
      sendCsv(reply, await exportSubscribers(request, request.query), 'tilaajat.csv'),
  });
  adminRoute(app, 'POST', `${SUBSCRIBERS_API}/:id/unsubscribe`, {
    staff: MANAGE,
    rateLimit: API_LIMIT,
    bodyLimit: BODY_LIMIT,
    preValidation: assertSubscriptionAccess,
    summary: 'Takes an address off its list on the person’s behalf (409 if it changed since seen)',
    description:
      '`version` is the subscription’s `version` as it was shown; one already off its list is answered as it is.',
    params: subscriberIdParamsSchema,
    body: unsubscribeOnBehalfSchema,
    answer: jsonAnswer(subscriberSchema, 'The subscription'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: (request) => unsubscribeOnBehalf(request, request.params.id, request.body.version),
  });
}

function registerCampaigns(app: ZodApp) {
  adminRoute(app, 'GET', CAMPAIGNS_API, {
    staff: READ,
    rateLimit: API_LIMIT,
    summary: 'The campaigns of the sites the staff member may read, with their counts',
    answer: jsonAnswer(campaignsSchema, 'Campaigns'),
    problems: [401, 403, 429],
    handler: async (request) => ({
      campaigns: await listCampaigns(app.db, request.staff?.grants ?? []),
    }),
  });
  adminRoute(app, 'GET', `${CAMPAIGNS_API}/:id`, {
    staff: READ,
    rateLimit: API_LIMIT,
    preValidation: assertCampaignAccess('subscribers.read'),
    summary: 'A campaign with its participants and draws (written to the audit log)',
    description: '50 participants at a time from `offset`, within the grants’ languages.',
    params: campaignIdParamsSchema,
    querystring: campaignQuerySchema,
    answer: jsonAnswer(openedCampaignSchema, 'The campaign'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openCampaign(request, request.params.id, request.query.offset),
  });
  adminRoute(app, 'GET', `${CAMPAIGNS_API}/:id/participants.csv`, {
    staff: EXPORT,
    rateLimit: EXPORT_LIMIT,
    preValidation: assertCampaignAccess('subscribers.export'),
    summary: 'A campaign’s participants as CSV for a spreadsheet; needs re-authentication',
    params: campaignIdParamsSchema,
    answer: csvAnswer,
    problems: [400, 401, 403, 404, 429],
    handler: async (request, reply) =>
      sendCsv(reply, await exportParticipants(request, request.params.id), 'osallistujat.csv'),
  });
  adminRoute(app, 'POST', `${CAMPAIGNS_API}/:id/draws`, {
    staff: MANAGE,
    rateLimit: EXPORT_LIMIT,
    bodyLimit: BODY_LIMIT,
    preValidation: assertCampaignAccess('subscribers.manage'),
    summary: 'Draws winners among the campaign’s participants, recorded with its seed',
    description:
      'A fresh random seed; the participants in id order; the same seed and participants always draw the same winners. The draw, its seed and the participants it considered are stored and written to the audit log.',
    params: campaignIdParamsSchema,
    body: drawRequestSchema,
    answer: jsonAnswer(drawSchema, 'The draw'),
    problems: [400, 401, 403, 404, 413, 429],
    handler: (request) => drawCampaign(request, request.params.id, request.body.winners),
  });
}
