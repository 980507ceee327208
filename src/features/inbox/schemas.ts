import { z } from 'zod';
import { formIds } from '../forms/index.ts';
import { scopeFilterShape } from '../staff/index.ts';
import { SUBMISSION_EVENT_KINDS, SUBMISSION_STATES } from './tables.ts';

/**
 * The customer-service inbox's API (`/api/admin/inbox`, decision 137): the list of stored form
 * submissions the staff member's grants reach, one submission opened, and what staff do with it.
 * Shared by the routes and the /admin app.
 */
export const INBOX_API = '/api/admin/inbox';

const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';
const INVALID = 'admin.error.invalid';

export const inboxQuerySchema = z
  .object({
    form: z.enum(formIds, { error: INVALID }).optional(),
    ...scopeFilterShape,
    state: z.enum(SUBMISSION_STATES, { error: INVALID }).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type InboxQuery = z.infer<typeof inboxQuerySchema>;
export const inboxExportQuerySchema = inboxQuerySchema.omit({ offset: true });

export const submissionIdParamsSchema = z.object({ id: z.uuid({ error: INVALID }) });
export const submissionFileParamsSchema = submissionIdParamsSchema.extend({
  position: z.coerce.number().int().min(0).max(99),
});
export const submissionFileQuerySchema = z.object({ thumbnail: z.enum(['1']).optional() }).strict();

const person = z.object({ id: z.string(), name: z.string() });

export const inboxRowSchema = z.object({
  id: z.string(),
  form: z.enum(formIds),
  siteId: z.string(),
  lang: z.string(),
  createdAt: z.string(),
  /** When the retention job deletes it (unless on legal hold). */
  deleteAfter: z.string(),
  state: z.enum(SUBMISSION_STATES),
  assignee: person.nullable(),
  legalHold: z.boolean(),
  version: z.number().int(),
});
export type InboxRow = z.infer<typeof inboxRowSchema>;

export const inboxListSchema = z.object({
  submissions: z.array(inboxRowSchema),
  total: z.number().int(),
});

export const submissionFileSchema = z.object({
  position: z.number().int(),
  name: z.string(),
  mime: z.string(),
  size: z.number().int(),
  /** An image the inbox shows as a re-encoded thumbnail; anything else is only downloaded. */
  image: z.boolean(),
});

export const submissionEventSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  kind: z.enum(SUBMISSION_EVENT_KINDS),
  staff: z.string().nullable(),
  text: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type SubmissionEvent = z.infer<typeof submissionEventSchema>;

export const openedSubmissionSchema = inboxRowSchema.extend({
  /** The submitted fields, opened. */
  data: z.record(z.string(), z.unknown()),
  files: z.array(submissionFileSchema),
  events: z.array(submissionEventSchema),
  /** The address a reply goes to: the submitter's own, when the form asked for one. */
  replyTo: z.string().nullable(),
  /** Who the submission may be given to: staff who may handle its site and language. */
  assignees: z.array(person),
});
export type OpenedSubmission = z.infer<typeof openedSubmissionSchema>;

const version = z.number({ error: INVALID }).int(INVALID).min(0, INVALID);

export const stateChangeSchema = z
  .object({ state: z.enum(SUBMISSION_STATES, { error: INVALID }), version })
  .strict();
export const assigneeChangeSchema = z
  .object({ assigneeId: z.uuid({ error: INVALID }).nullable(), version })
  .strict();
export const holdChangeSchema = z
  .object({ legalHold: z.boolean({ error: INVALID }), version })
  .strict();

const message = (max: number) =>
  z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max, TOO_LONG);
export const noteSchema = z.object({ text: message(5000) }).strict();
export const replySchema = z.object({ text: message(10_000) }).strict();
