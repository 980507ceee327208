import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';
import { formSubmissions } from '../forms/index.server.ts';
import { staffMembers } from '../staff/index.server.ts';

/**
 * The customer-service inbox's own rows beside each stored submission (decision 137): its
 * handling (state, assignee, legal hold; absent until someone first acts, which reads as `new`)
 * and its timeline of staff actions. Notes and replies repeat personal data, so their text is
 * sealed with the forms key like the submission itself. Both go with the submission when the
 * retention job (or an erasure) deletes it.
 */

export const SUBMISSION_STATES = ['new', 'in_progress', 'waiting', 'closed'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

export const SUBMISSION_EVENT_KINDS = ['note', 'state', 'assignee', 'reply', 'hold'] as const;
export type SubmissionEventKind = (typeof SUBMISSION_EVENT_KINDS)[number];

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const submissionHandling = pgTable(
  'submission_handling',
  {
    submissionId: text('submission_id')
      .primaryKey()
      .references(() => formSubmissions.id, { onDelete: 'cascade' }),
    state: text('state').$type<SubmissionState>().notNull().default('new'),
    assigneeId: uuid('assignee_id').references(() => staffMembers.id, { onDelete: 'set null' }),
    /** While set, the retention job keeps the submission past its date. */
    legalHold: boolean('legal_hold').notNull().default(false),
    /** Grows by one with every change: a change made on an older version is refused (409). */
    version: integer('version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('submission_handling_state_check', sql`${t.state} in (${inList(SUBMISSION_STATES)})`),
    index('submission_handling_assignee_idx').on(t.assigneeId),
  ],
);

export const submissionEvents = pgTable(
  'submission_events',
  {
    id: serial('id').primaryKey(),
    submissionId: belongsTo(text('submission_id'), () => formSubmissions.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffId: uuid('staff_id').references(() => staffMembers.id, { onDelete: 'set null' }),
    kind: text('kind').$type<SubmissionEventKind>().notNull(),
    /** A note's or a reply's text, sealed with the forms key; null for the other kinds. */
    sealedText: text('sealed_text'),
    /** What changed: `{ from, to }` of a state, assignee or hold; a reply's recipient count. */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    check('submission_events_kind_check', sql`${t.kind} in (${inList(SUBMISSION_EVENT_KINDS)})`),
    index('submission_events_submission_idx').on(t.submissionId, t.id),
  ],
);
