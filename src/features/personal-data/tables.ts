import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The personal-data feature's table (decision 159): the files an erasure took out of the
 * database, waiting to be deleted from the file store. The keys are written in the erasure's
 * transaction; each is deleted from the store after the commit and then from here, and a job
 * tries again whatever a crash or an unreachable bucket left, so no file outlives its erasure.
 * The keys name no one (`forms/<form>/<uuid>/<n>.<ext>`).
 */
export const personalDataFileDeletions = pgTable(
  'personal_data_file_deletions',
  {
    storageKey: text('storage_key').primaryKey(),
    /** The erasure that let the file go (its audit rows carry the same id). */
    requestId: uuid('request_id').notNull(),
    /** The keyed hash of the person's address: the audit log's name for them. */
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('personal_data_file_deletions_request_idx').on(t.requestId)],
);
