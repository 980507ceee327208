import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';
import type { PersonRecord, PersonSubject } from '../../server/personal-data.ts';
import { openText } from './crypto.server.ts';
import { formSubmissionFiles, formSubmissions, mailOutbox } from './tables.ts';

/**
 * The forms feature's part of a personal-data request (decision 159): the sealed submissions and
 * outbox mails about a person, found by the keyed hash of their address beside each row (and a
 * mail also by its recipient), opened for the archive, and deleted on erasure.
 */

type Reader = Pick<Database, 'select'>;

/** The submissions that gave the address, opened, with their files listed. */
export async function findSubmissions(
  db: Reader,
  key: Buffer,
  subject: PersonSubject,
): Promise<PersonRecord[]> {
  const rows = await db
    .select()
    .from(formSubmissions)
    .where(eq(formSubmissions.emailHash, subject.hash))
    .orderBy(asc(formSubmissions.createdAt), asc(formSubmissions.id));
  const files = await submissionFiles(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    siteId: row.siteId,
    lang: row.lang,
    at: row.createdAt.toISOString(),
    summary: row.form,
    data: {
      id: row.id,
      form: row.form,
      siteId: row.siteId,
      lang: row.lang,
      createdAt: row.createdAt.toISOString(),
      deleteAfter: row.deleteAfter.toISOString(),
      data: JSON.parse(openText(key, row.sealedData)),
      files: files
        .filter((f) => f.submissionId === row.id)
        .map(({ position, name, mime, size }) => ({ position, name, mime, size })),
    },
  }));
}

export interface StoredSubmissionFile {
  submissionId: string;
  position: number;
  name: string;
  mime: string;
  size: number;
  /** Where its sealed bytes are in the file store. */
  storageKey: string;
}

/** The files of the submissions, in order. */
export async function submissionFiles(
  db: Reader,
  ids: readonly string[],
): Promise<StoredSubmissionFile[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      submissionId: formSubmissionFiles.submissionId,
      position: formSubmissionFiles.position,
      name: formSubmissionFiles.name,
      mime: formSubmissionFiles.mime,
      size: formSubmissionFiles.size,
      storageKey: formSubmissionFiles.storageKey,
    })
    .from(formSubmissionFiles)
    .where(inArray(formSubmissionFiles.submissionId, [...ids]))
    .orderBy(asc(formSubmissionFiles.submissionId), asc(formSubmissionFiles.position));
}

/**
 * The outbox's mails about the person (by the hash) or to them (by the recipient), opened. A
 * mail about a submission belongs to that submission's site and language; others to none.
 */
export async function findOutboxMails(
  db: Reader,
  key: Buffer,
  subject: PersonSubject,
): Promise<PersonRecord[]> {
  const rows = await db
    .select({ mail: mailOutbox, siteId: formSubmissions.siteId, lang: formSubmissions.lang })
    .from(mailOutbox)
    .leftJoin(formSubmissions, eq(formSubmissions.id, mailOutbox.submissionId))
    .where(
      or(
        eq(mailOutbox.emailHash, subject.hash),
        sql`lower(trim(${mailOutbox.recipients})) = ${subject.address}`,
      ),
    )
    .orderBy(asc(mailOutbox.id));
  return rows.map(({ mail, siteId, lang }) => ({
    id: String(mail.id),
    siteId,
    lang,
    at: mail.createdAt.toISOString(),
    summary: mail.subject,
    data: {
      recipients: mail.recipients,
      subject: mail.subject,
      body: openText(key, mail.sealedBody),
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
      failedAt: mail.failedAt?.toISOString() ?? null,
      submissionId: mail.submissionId,
    },
  }));
}

/** Deletes the outbox's mails; answers how many went. */
export async function eraseOutboxMails(tx: Transaction, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone = await tx
    .delete(mailOutbox)
    .where(inArray(mailOutbox.id, ids.map(Number)))
    .returning({ id: mailOutbox.id });
  return gone.length;
}

/**
 * Deletes the submissions (their file rows, handling, timeline and mails go with them by
 * cascade); answers how many went and the file-store keys of their files, which the caller
 * deletes once the transaction has committed.
 */
export async function eraseSubmissions(
  tx: Transaction,
  ids: readonly string[],
): Promise<{ count: number; fileKeys: string[] }> {
  if (ids.length === 0) return { count: 0, fileKeys: [] };
  const files = await submissionFiles(tx, ids);
  const gone = await tx
    .delete(formSubmissions)
    .where(inArray(formSubmissions.id, [...ids]))
    .returning({ id: formSubmissions.id });
  return { count: gone.length, fileKeys: files.map((f) => f.storageKey) };
}
