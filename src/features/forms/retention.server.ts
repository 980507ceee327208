import { and, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { FileStore } from '../../server/file-store.ts';
import { startJob } from '../../server/jobs.ts';
import { formSubmissionFiles, formSubmissions, usedCaptchaTokens } from './tables.ts';

/**
 * Another feature's condition for deleting an expired submission (given its id column): true when
 * it may go. The inbox keeps a submission on legal hold this way.
 */
export type RetentionCondition = (submissionId: AnyPgColumn) => SQL;

declare module 'fastify' {
  interface FastifyInstance {
    /** The conditions the retention job adds to "past its date" (see `RetentionCondition`). */
    submissionRetention: RetentionCondition[];
  }
}

const INTERVAL_MS = 60 * 60 * 1000;
const BATCH = 200;

/**
 * Deletes submissions past their retention date: their files first (a file left behind would
 * outlive its row unseen), then the rows, whose files and mails go with them by cascade. Also
 * forgets spent captcha tokens that have expired anyway.
 */
export async function deleteExpiredSubmissions(
  db: Database,
  files: FileStore,
  now = new Date(),
  conditions: readonly RetentionCondition[] = [],
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const expired = await db
      .select({ id: formSubmissions.id })
      .from(formSubmissions)
      .where(
        and(
          lt(formSubmissions.deleteAfter, now),
          ...conditions.map((condition) => condition(formSubmissions.id)),
        ),
      )
      .limit(BATCH);
    if (expired.length === 0) break;
    const ids = expired.map((r) => r.id);
    const keys = await db
      .select({ key: formSubmissionFiles.storageKey })
      .from(formSubmissionFiles)
      .where(inArray(formSubmissionFiles.submissionId, ids));
    for (const { key } of keys) await files.delete(key);
    await db.delete(formSubmissions).where(inArray(formSubmissions.id, ids));
    deleted += ids.length;
    if (expired.length < BATCH) break;
  }
  await db.delete(usedCaptchaTokens).where(lt(usedCaptchaTokens.expiresAt, sql`${now}`));
  return deleted;
}

/** Deletes expired submissions every hour, in one process at a time. */
export function startRetentionJob(app: FastifyInstance): void {
  startJob(app, {
    name: 'forms-retention',
    everyMs: INTERVAL_MS,
    run: (db) => deleteExpiredSubmissions(db, app.files, new Date(), app.submissionRetention),
    doneMessage: 'forms: expired submissions deleted',
  });
}
