import { z } from 'zod';

/**
 * Unpublishing, scheduled publishing and bulk actions of content (decision 167). Browser-safe:
 * the /admin screens build their requests from these and the routes check them. Error messages
 * are keys of the admin catalogue.
 */

const INVALID = 'admin.error.invalid';
const versionNumber = z
  .number({ error: INVALID })
  .int(INVALID)
  .min(1, INVALID)
  .max(1_000_000, INVALID);
const itemId = z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(2_147_483_647);

export const SCHEDULE_ACTIONS = ['publish', 'unpublish'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];
export const SCHEDULE_STATES = ['pending', 'done', 'cancelled', 'failed'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];

/** At most this many items in one bulk action. */
export const BULK_MAX = 100;

/** Unpublishing names the newest version seen (409 when someone saved or published since). */
export const unpublishSchema = z.object({ version: versionNumber }).strict();

/** A scheduled action: the newest version seen, and a time ahead. */
export const scheduleCreateSchema = z
  .object({
    action: z.enum(SCHEDULE_ACTIONS, { error: INVALID }),
    at: z.string({ error: INVALID }).datetime({ offset: true, message: INVALID }),
    version: versionNumber,
  })
  .strict();
export type ScheduleCreate = z.infer<typeof scheduleCreateSchema>;

export const scheduleParamsSchema = z
  .object({
    id: z.coerce.number().int().min(1).max(2_147_483_647),
    scheduleId: z.coerce.number().int().min(1).max(2_147_483_647),
  })
  .strict();

export const scheduleSchema = z.object({
  id: z.number(),
  action: z.enum(SCHEDULE_ACTIONS),
  version: z.number().nullable(),
  at: z.string(),
  state: z.enum(SCHEDULE_STATES),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  doneAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** An item's schedules: those waiting first, then the latest that ran or were cancelled. */
export const schedulesSchema = z.object({ schedules: z.array(scheduleSchema) });
export type Schedules = z.infer<typeof schedulesSchema>;

/**
 * A bulk action: exactly the selected items, each with the newest version the staff member saw.
 * All are done in one transaction, or none (the answer names each item that stopped it).
 */
export const bulkSchema = z
  .object({
    action: z.enum(SCHEDULE_ACTIONS, { error: INVALID }),
    items: z
      .array(z.object({ id: itemId, version: versionNumber }).strict(), { error: INVALID })
      .min(1, INVALID)
      .max(BULK_MAX, INVALID)
      .refine((items) => new Set(items.map((i) => i.id)).size === items.length, INVALID),
  })
  .strict();
export type Bulk = z.infer<typeof bulkSchema>;

export const BULK_REFUSALS = ['stale', 'forbidden', 'not-found', 'invalid', 'not-live'] as const;
export type BulkRefusal = (typeof BULK_REFUSALS)[number];

export const bulkResultSchema = z.object({
  action: z.enum(SCHEDULE_ACTIONS),
  /** The items changed (those already as asked are listed too, `changed` false). */
  items: z.array(z.object({ id: z.number(), changed: z.boolean() })),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

/** What a refused bulk action answers (409 `/problems/bulk-refused`) beside the problem. */
export type BulkRefused = { refused: { id: number; reason: BulkRefusal }[] };
