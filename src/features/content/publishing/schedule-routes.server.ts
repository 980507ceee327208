import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import { bulkAction } from './bulk.server.ts';
import {
  cancelSchedule,
  createSchedule,
  listSchedules,
  registerScheduledKind,
  type ScheduledKind,
  unpublishItem,
} from './schedule.server.ts';
import {
  bulkResultSchema,
  bulkSchema,
  type ScheduleCreate,
  scheduleCreateSchema,
  scheduleParamsSchema,
  schedulesSchema,
  unpublishSchema,
} from './schedule-schemas.ts';
import { itemIdParamsSchema } from './schemas.ts';
import { assertMayEdit } from './versions.server.ts';

const READ = perMinute(600);
const WRITE = perMinute(240);

const unpublishedSchema = z.object({ unpublished: z.boolean() });

/**
 * Unpublishing, scheduled actions and bulk actions of one kind of content under its back-office
 * address `base` (decision 167): `POST :id/unpublish`, `GET`/`POST :id/schedules`,
 * `POST :id/schedules/:scheduleId/cancel` and `POST bulk`. Every route needs `content.edit`
 * somewhere and checks the item's own site and language before the body is read; the writes
 * need `content.publish` there. Registering the routes registers the kind with the schedule job.
 */
export function contentScheduleRoutes(
  app: ZodApp,
  base: string,
  kind: ScheduledKind,
  options: {
    noun: string;
    bulk?: boolean;
    /**
     * A kind whose scheduled actions carry more (a news release's mailing): the body's schema
     * (the shared one extended) and the kind's payload stored with the action.
     */
    schedule?: {
      body: z.ZodType<ScheduleCreate>;
      payload: (
        request: FastifyRequest,
        id: number,
        body: ScheduleCreate,
      ) => Promise<Record<string, unknown>>;
      note: string;
    };
  } = { noun: 'item' },
) {
  registerScheduledKind(kind);
  const { adapter } = kind;
  const { noun } = options;
  const onItem = {
    staff: { permission: 'content.edit' },
    preValidation: async (request: FastifyRequest) => {
      const id = Number((request.params as { id?: unknown }).id);
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return;
      await assertMayEdit(request, adapter, id);
    },
  } as const;
  const schedules = jsonAnswer(schedulesSchema, 'The waiting schedules, then the latest others');

  adminRoute(app, 'POST', `${base}/:id/unpublish`, {
    ...onItem,
    rateLimit: WRITE,
    bodyLimit: 1024,
    summary: `Takes the ${noun} off the site; its versions stay, and publishing puts it back`,
    description:
      'Needs `content.publish` for its site and language. `version` is the newest version seen (409 with `current` when stale). One not on the site is answered `unpublished: false` with nothing written.',
    params: itemIdParamsSchema,
    body: unpublishSchema,
    answer: jsonAnswer(unpublishedSchema, 'Whether it was taken off'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request) => ({
      unpublished: await unpublishItem(request, adapter, request.params.id, request.body.version),
    }),
  });
  adminRoute(app, 'GET', `${base}/:id/schedules`, {
    ...onItem,
    rateLimit: READ,
    summary: `The ${noun}’s scheduled publishing and unpublishing`,
    params: itemIdParamsSchema,
    answer: schedules,
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => ({
      schedules: await listSchedules(request, adapter, request.params.id),
    }),
  });
  adminRoute(app, 'POST', `${base}/:id/schedules`, {
    ...onItem,
    rateLimit: WRITE,
    bodyLimit: 1024,
    summary: `Schedules publishing the newest version of the ${noun}, or taking it off, at a time`,
    description: `Needs \`content.publish\`. \`version\` is the newest version seen (409 with \`current\` when stale); the scheduled publish publishes that version even if a newer draft is saved meanwhile. One waiting action of each kind (409 for a second). The job runs it once across processes within two seconds of its time.${options.schedule ? ` ${options.schedule.note}` : ''}`,
    params: itemIdParamsSchema,
    body: options.schedule?.body ?? scheduleCreateSchema,
    answer: schedules,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request) => {
      const body = request.body as ScheduleCreate;
      const payload = options.schedule
        ? await options.schedule.payload(request, request.params.id, body)
        : {};
      const { action, at, version } = body;
      await createSchedule(request, adapter, request.params.id, { action, at, version }, payload);
      return { schedules: await listSchedules(request, adapter, request.params.id) };
    },
  });
  adminRoute(app, 'POST', `${base}/:id/schedules/:scheduleId/cancel`, {
    ...onItem,
    rateLimit: WRITE,
    summary: 'Cancels a waiting scheduled action',
    description:
      'Needs `content.publish`. One that has run, is running or was cancelled is 409 with nothing written.',
    params: scheduleParamsSchema,
    answer: schedules,
    problems: [400, 401, 403, 404, 409, 429],
    handler: async (request) => {
      await cancelSchedule(request, adapter, request.params.id, request.params.scheduleId);
      return { schedules: await listSchedules(request, adapter, request.params.id) };
    },
  });
  if (options.bulk === false) return;
  adminRoute(app, 'POST', `${base}/bulk`, {
    staff: { permission: 'content.publish' },
    rateLimit: perMinute(60),
    bodyLimit: 16 * 1024,
    summary: `Publishes or unpublishes exactly the selected ${noun}s, all or none`,
    description:
      'Each item names the newest version seen. One transaction: when any item is stale, gone or cannot be published, nothing is written and the answer is 409 `/problems/bulk-refused` with `refused` (each id and why); when any is outside the grants (`content.publish` for its site and language), 403 with `refused`. Each item changed writes its own audit row.',
    body: bulkSchema,
    answer: jsonAnswer(bulkResultSchema, 'The items, each with whether it changed'),
    problems: [400, 401, 403, 409, 413, 429],
    handler: (request) => bulkAction(request, adapter, request.body),
  });
}
