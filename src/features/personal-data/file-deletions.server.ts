import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Transaction } from '../../db/client.ts';
import type { FileStore } from '../../server/file-store.ts';
import { startJob } from '../../server/jobs.ts';
import { type Actor, recordAudit } from '../staff/index.server.ts';
import { personalDataFileDeletions } from './tables.ts';

/**
 * Files an erasure let go (decision 159): queued in its transaction, deleted from the file store
 * (the local folder or the bucket) after the commit, and taken off the queue only once the store
 * has deleted them. Deleting a file that is already gone is no error in either store, so a
 * deletion repeated after a crash does no harm. The job retries what is left.
 */

export async function queueFileDeletions(
  tx: Transaction,
  requestId: string,
  subject: string,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await tx
    .insert(personalDataFileDeletions)
    .values(keys.map((storageKey) => ({ storageKey, requestId, subject })))
    .onConflictDoNothing();
}

const BATCH = 500;
/** The job's name in the audit log. */
const JOB_ACTOR: Actor = { staffId: null, label: 'personal-data file deletion' };

/**
 * Deletes the queued files (of one erasure, or all), each from the store and then from the queue;
 * a failure is counted on its row and left for the next try. Writes one audit row per erasure
 * whose files went (`personal-data.erase.files`). Answers how many went and how many wait.
 */
export async function deleteQueuedFiles(
  db: Database,
  files: FileStore,
  options: { requestId?: string; actor?: Actor } = {},
): Promise<{ deleted: number; pending: number }> {
  const rows = await db
    .select()
    .from(personalDataFileDeletions)
    .where(
      options.requestId ? eq(personalDataFileDeletions.requestId, options.requestId) : undefined,
    )
    .orderBy(asc(personalDataFileDeletions.createdAt), asc(personalDataFileDeletions.storageKey))
    .limit(BATCH);
  const went = new Map<string, { subject: string; count: number }>();
  let pending = 0;
  for (const row of rows) {
    try {
      await files.delete(row.storageKey);
    } catch (error) {
      pending++;
      await db
        .update(personalDataFileDeletions)
        .set({
          attempts: sql`${personalDataFileDeletions.attempts} + 1`,
          lastError: String((error as Error).message ?? error).slice(0, 500),
        })
        .where(eq(personalDataFileDeletions.storageKey, row.storageKey));
      continue;
    }
    const gone = await db
      .delete(personalDataFileDeletions)
      .where(eq(personalDataFileDeletions.storageKey, row.storageKey))
      .returning({ key: personalDataFileDeletions.storageKey });
    // Another process may have taken it off the queue first: its row is its own to write.
    if (gone.length === 0) continue;
    const request = went.get(row.requestId) ?? { subject: row.subject, count: 0 };
    request.count++;
    went.set(row.requestId, request);
  }
  for (const [requestId, { subject, count }] of went) {
    await recordAudit(db, options.actor ?? JOB_ACTOR, {
      action: 'personal-data.erase.files',
      subjectType: 'person',
      subjectId: subject,
      changes: { files: { after: { requestId, count } } },
    });
  }
  const deleted = [...went.values()].reduce((sum, r) => sum + r.count, 0);
  return { deleted, pending };
}

/** Retries the queue every ten minutes, in one process at a time. */
export function startFileDeletionJob(app: FastifyInstance): void {
  startJob(app, {
    name: 'personal-data-file-deletions',
    everyMs: 10 * 60 * 1000,
    run: async (db) => (await deleteQueuedFiles(db, app.files)).deleted,
    doneMessage: 'personal data: erased files deleted',
  });
}
