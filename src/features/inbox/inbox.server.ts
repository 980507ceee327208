import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import type { Database } from '../../db/client.ts';
import { adminT } from '../../i18n/admin.ts';
import { csvText } from '../../server/csv.ts';
import { Conflict, Forbidden, Invalid, NotFound } from '../../server/errors.ts';
import { getSite } from '../../sites/registry.ts';
import {
  enqueueMail,
  formSubmissionFiles,
  formSubmissions,
  openBytes,
  openText,
  sealText,
} from '../forms/index.server.ts';
import type { FormId } from '../forms/index.ts';
import {
  actorOf,
  recordAudit,
  scopeWhere,
  staffMembers,
  staffWhoMay,
} from '../staff/index.server.ts';
import { type AccessGrant, can, type Permission } from '../staff/index.ts';
import type { InboxQuery, InboxRow, OpenedSubmission, SubmissionEvent } from './schemas.ts';
import {
  type SubmissionEventKind,
  type SubmissionState,
  submissionEvents,
  submissionHandling,
} from './tables.ts';

/**
 * The customer-service inbox (decision 137). Every query is limited to the sites and languages
 * the staff member's grants reach (`scopeWhere` for lists, `can` for one submission); opening a
 * submission or one of its files is a read of personal data and writes its audit row; every
 * change is one transaction with its timeline event and its audit row, made only on the version
 * the staff member saw.
 */

const PAGE_SIZE = 50;
const THUMBNAIL_PX = 480;

type Handling = typeof submissionHandling.$inferSelect;

const handlingOf = (row: { handling: Handling | null }) => ({
  state: (row.handling?.state ?? 'new') as SubmissionState,
  legalHold: row.handling?.legalHold ?? false,
  version: row.handling?.version ?? 0,
});

function rowOf(row: {
  submission: typeof formSubmissions.$inferSelect;
  handling: Handling | null;
  assigneeName: string | null;
}): InboxRow {
  const { submission, handling } = row;
  return {
    id: submission.id,
    form: submission.form as FormId,
    siteId: submission.siteId,
    lang: submission.lang,
    createdAt: submission.createdAt.toISOString(),
    deleteAfter: submission.deleteAfter.toISOString(),
    ...handlingOf(row),
    assignee:
      handling?.assigneeId && row.assigneeName
        ? { id: handling.assigneeId, name: row.assigneeName }
        : null,
  };
}

function selectRows(db: Database) {
  return db
    .select({
      submission: formSubmissions,
      handling: submissionHandling,
      assigneeName: staffMembers.name,
    })
    .from(formSubmissions)
    .leftJoin(submissionHandling, eq(submissionHandling.submissionId, formSubmissions.id))
    .leftJoin(staffMembers, eq(staffMembers.id, submissionHandling.assigneeId));
}

/** The grants' `submissions.read` scope narrowed by the query's filters. */
function inboxWhere(grants: readonly AccessGrant[], query: Omit<InboxQuery, 'offset'>): SQL[] {
  const where: SQL[] = [
    scopeWhere(grants, 'submissions.read', {
      site: formSubmissions.siteId,
      lang: formSubmissions.lang,
    }),
  ];
  if (query.form) where.push(eq(formSubmissions.form, query.form));
  if (query.site) where.push(eq(formSubmissions.siteId, query.site));
  if (query.lang) where.push(eq(formSubmissions.lang, query.lang));
  if (query.state) {
    where.push(sql`coalesce(${submissionHandling.state}, 'new') = ${query.state}`);
  }
  return where;
}

/** The submissions the grants give `submissions.read` for, newest first, narrowed by the query. */
export async function listInbox(
  db: Database,
  grants: readonly AccessGrant[],
  query: InboxQuery,
): Promise<{ submissions: InboxRow[]; total: number }> {
  const where = inboxWhere(grants, query);
  const [total] = await db
    .select({ n: count() })
    .from(formSubmissions)
    .leftJoin(submissionHandling, eq(submissionHandling.submissionId, formSubmissions.id))
    .where(and(...where));
  const rows = await selectRows(db)
    .where(and(...where))
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  return { submissions: rows.map(rowOf), total: Number(total?.n ?? 0) };
}

function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/**
 * Refuses (403) a staff member whose grants do not give `permission` for the submission's site
 * and language, or 404 when there is none; for a route's `preValidation`, so that a refusal
 * comes before any look at the body.
 */
export async function assertSubmissionAccess(
  request: FastifyRequest,
  permission: Permission,
): Promise<void> {
  await scoped(request, String((request.params as { id?: unknown }).id ?? ''), permission);
}

/** One submission with its handling, if the grants give `permission` for its site and language. */
async function scoped(request: FastifyRequest, id: string, permission: Permission) {
  const [row] = await selectRows(request.server.db).where(eq(formSubmissions.id, id));
  if (!row) throw new NotFound('No such submission.');
  const { siteId, lang } = row.submission;
  if (!can(signedIn(request).grants, permission, { siteId, lang })) {
    throw new Forbidden(`This needs the permission ${permission} for ${siteId}/${lang}.`);
  }
  return row;
}

const auditScope = (submission: typeof formSubmissions.$inferSelect) => ({
  subjectType: 'submission',
  subjectId: submission.id,
  siteId: submission.siteId,
  lang: submission.lang,
});

/** The submitter's address, when the form asked for one. */
function replyAddress(data: Record<string, unknown>): string | null {
  const address = data.Email ?? data.email;
  return typeof address === 'string' && address.includes('@') ? address : null;
}

/**
 * Opens a submission: its data and notes decrypted, its files listed, its timeline, and whom it
 * may be given to. Writes `submission.open` to the audit log.
 */
export async function openSubmission(
  request: FastifyRequest,
  id: string,
): Promise<OpenedSubmission> {
  const db = request.server.db;
  const key = request.server.config.forms.encryptionKey;
  const row = await scoped(request, id, 'submissions.read');
  const { submission } = row;
  const data = JSON.parse(openText(key, submission.sealedData)) as Record<string, unknown>;
  const files = await db
    .select()
    .from(formSubmissionFiles)
    .where(eq(formSubmissionFiles.submissionId, id))
    .orderBy(asc(formSubmissionFiles.position));
  const events = await db
    .select({ event: submissionEvents, staff: staffMembers.name })
    .from(submissionEvents)
    .leftJoin(staffMembers, eq(staffMembers.id, submissionEvents.staffId))
    .where(eq(submissionEvents.submissionId, id))
    .orderBy(asc(submissionEvents.id));
  const assignees = await staffWhoMay(db, 'submissions.manage', {
    siteId: submission.siteId,
    lang: submission.lang,
  });
  await recordAudit(db, actorOf(request), { action: 'submission.open', ...auditScope(submission) });
  return {
    ...rowOf(row),
    data,
    files: files.map((f) => ({
      position: f.position,
      name: f.name,
      mime: f.mime,
      size: f.size,
      image: f.mime === 'image/png' || f.mime === 'image/jpeg' || f.mime === 'image/webp',
    })),
    events: events.map(
      ({ event, staff }): SubmissionEvent => ({
        id: event.id,
        at: event.at.toISOString(),
        kind: event.kind,
        staff,
        text: event.sealedText ? openText(key, event.sealedText) : null,
        detail: event.detail,
      }),
    ),
    replyTo: replyAddress(data),
    assignees,
  };
}

export interface SubmissionFile {
  name: string;
  /** What the answer says it is: a thumbnail's JPEG, or bytes only to be saved. */
  type: 'image/jpeg' | 'application/octet-stream';
  bytes: Buffer;
}

/**
 * One of a submission's files, opened from the file store: an image's thumbnail re-encoded by
 * sharp (nothing of the upload's own bytes reaches the browser), or the file itself to download.
 * Writes `submission.file` to the audit log.
 */
export async function submissionFile(
  request: FastifyRequest,
  id: string,
  position: number,
  thumbnail: boolean,
): Promise<SubmissionFile> {
  const { submission } = await scoped(request, id, 'submissions.read');
  const [file] = await request.server.db
    .select()
    .from(formSubmissionFiles)
    .where(
      and(eq(formSubmissionFiles.submissionId, id), eq(formSubmissionFiles.position, position)),
    );
  if (!file) throw new NotFound('No such file.');
  const sealed = await request.server.files.get(file.storageKey);
  if (!sealed) throw new NotFound('The file is no longer stored.');
  const bytes = openBytes(request.server.config.forms.encryptionKey, sealed);
  const image = file.mime.startsWith('image/');
  if (thumbnail && !image) throw new Invalid({ thumbnail: 'admin.error.invalid' }, 'Not an image.');
  await recordAudit(request.server.db, actorOf(request), {
    action: 'submission.file',
    ...auditScope(submission),
    changes: { file: { after: `${position} ${thumbnail ? 'thumbnail' : 'download'}` } },
  });
  if (thumbnail) {
    const jpeg = await sharp(bytes, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize({
        width: THUMBNAIL_PX,
        height: THUMBNAIL_PX,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { name: `${file.name.replace(/\.[^.]*$/, '')}.jpg`, type: 'image/jpeg', bytes: jpeg };
  }
  return { name: file.name, type: 'application/octet-stream', bytes };
}

export interface HandlingChange {
  kind: Exclude<SubmissionEventKind, 'note' | 'reply'>;
  version: number;
  set: Partial<Pick<Handling, 'state' | 'assigneeId' | 'legalHold'>>;
}

/**
 * Changes a submission's state, assignee or legal hold, on the version the staff member saw:
 * the handling row is locked (made first if there is none), a stale version is 409, and the
 * change, its timeline event and its audit row commit together. A change to what it already is
 * writes nothing.
 */
export async function changeHandling(
  request: FastifyRequest,
  id: string,
  change: HandlingChange,
): Promise<InboxRow> {
  const { submission } = await scoped(request, id, 'submissions.manage');
  const staff = signedIn(request);
  if (change.set.assigneeId) {
    const may = await staffWhoMay(request.server.db, 'submissions.manage', {
      siteId: submission.siteId,
      lang: submission.lang,
    });
    if (!may.some((p) => p.id === change.set.assigneeId)) {
      throw new Invalid({ assigneeId: 'admin.error.assignee' }, 'That person cannot handle it.');
    }
  }
  await request.server.db.transaction(async (tx) => {
    await tx.insert(submissionHandling).values({ submissionId: id }).onConflictDoNothing();
    const [current] = await tx
      .select()
      .from(submissionHandling)
      .where(eq(submissionHandling.submissionId, id))
      .for('update');
    if (!current) throw new NotFound('No such submission.');
    if (current.version !== change.version) {
      throw new Conflict('Someone changed the submission since it was opened. Open it again.');
    }
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    for (const [field, after] of Object.entries(change.set)) {
      const before = current[field as keyof typeof change.set];
      if (before !== after) changes[field] = { before, after };
    }
    if (Object.keys(changes).length === 0) return;
    await tx
      .update(submissionHandling)
      .set({ ...change.set, version: current.version + 1, updatedAt: sql`now()` })
      .where(eq(submissionHandling.submissionId, id));
    const [field] = Object.keys(changes);
    const moved = changes[field as string];
    await tx.insert(submissionEvents).values({
      submissionId: id,
      staffId: staff.staffId,
      kind: change.kind,
      detail: { from: moved?.before ?? null, to: moved?.after ?? null },
    });
    await recordAudit(tx, actorOf(request), {
      action: `submission.${change.kind}`,
      ...auditScope(submission),
      changes,
    });
  });
  const [row] = await selectRows(request.server.db).where(eq(formSubmissions.id, id));
  if (!row) throw new NotFound('No such submission.');
  return rowOf(row);
}

/** An internal note in the submission's timeline (sealed), with its audit row. */
export async function addNote(request: FastifyRequest, id: string, text: string): Promise<void> {
  const { submission } = await scoped(request, id, 'submissions.manage');
  const key = request.server.config.forms.encryptionKey;
  await request.server.db.transaction(async (tx) => {
    await tx.insert(submissionEvents).values({
      submissionId: id,
      staffId: signedIn(request).staffId,
      kind: 'note',
      sealedText: sealText(key, text),
    });
    await recordAudit(tx, actorOf(request), {
      action: 'submission.note',
      ...auditScope(submission),
    });
  });
}

/**
 * A reply to the submitter, by mail through the outbox in the submission's language (the
 * staff member's text between the template's greeting and signature), kept in the timeline.
 * 409 when the submission has no address to reply to.
 */
export async function reply(request: FastifyRequest, id: string, text: string): Promise<void> {
  const { submission } = await scoped(request, id, 'submissions.manage');
  const key = request.server.config.forms.encryptionKey;
  const data = JSON.parse(openText(key, submission.sealedData)) as Record<string, unknown>;
  const to = replyAddress(data);
  if (!to) throw new Conflict('The submission gave no e-mail address to reply to.');
  const lang = submission.lang === 'sv' || submission.lang === 'en' ? submission.lang : 'fi';
  const t = adminT(lang);
  const site = getSite(submission.siteId)?.name ?? submission.siteId;
  const body = [
    t('admin.inbox.mail.greeting'),
    '',
    text,
    '',
    t('admin.inbox.mail.signature', { site }),
  ].join('\n');
  await request.server.db.transaction(async (tx) => {
    await enqueueMail(tx, key, {
      to,
      subject: t('admin.inbox.mail.subject', { site }),
      text: body,
      submissionId: id,
    });
    await tx.insert(submissionEvents).values({
      submissionId: id,
      staffId: signedIn(request).staffId,
      kind: 'reply',
      sealedText: sealText(key, text),
      detail: { lang },
    });
    await recordAudit(tx, actorOf(request), {
      action: 'submission.reply',
      ...auditScope(submission),
    });
  });
}

/** At most this many submissions in one export: a larger one is narrowed by its filters. */
export const EXPORT_MAX = 10_000;

/**
 * The submissions of the list's filters as CSV for a spreadsheet (UTF-8 with a byte-order mark,
 * `;` between cells, CRLF between rows): the inbox's columns, then every field any of them has,
 * opened. Limited to the grants like the list; more than `EXPORT_MAX` is 400 (narrow the
 * filters). Writes `submission.export` with the filters and the count to the audit log.
 */
export async function exportInbox(
  request: FastifyRequest,
  query: Omit<InboxQuery, 'offset'>,
): Promise<string> {
  const db = request.server.db;
  const key = request.server.config.forms.encryptionKey;
  const where = inboxWhere(signedIn(request).grants, query);
  const rows = await selectRows(db)
    .where(and(...where))
    .orderBy(desc(formSubmissions.createdAt), desc(formSubmissions.id))
    .limit(EXPORT_MAX + 1);
  if (rows.length > EXPORT_MAX) {
    throw new Invalid(
      { form: 'admin.error.exportTooLarge' },
      'Too many submissions: narrow the filters.',
    );
  }
  const opened = rows.map((row) => ({
    row: rowOf(row),
    data: JSON.parse(openText(key, row.submission.sealedData)) as Record<string, unknown>,
  }));
  const fields = [...new Set(opened.flatMap((o) => Object.keys(o.data)))];
  const head = [
    'id',
    'form',
    'site',
    'lang',
    'received',
    'state',
    'assignee',
    'deleteAfter',
    'legalHold',
  ];
  const lines = [
    [...head, ...fields],
    ...opened.map(({ row, data }) => [
      row.id,
      row.form,
      row.siteId,
      row.lang,
      row.createdAt,
      row.state,
      row.assignee?.name ?? '',
      row.deleteAfter,
      row.legalHold ? 'yes' : 'no',
      ...fields.map((field) => data[field]),
    ]),
  ];
  await recordAudit(db, actorOf(request), {
    action: 'submission.export',
    subjectType: 'submission',
    siteId: query.site ?? null,
    lang: query.lang ?? null,
    changes: { export: { after: { ...query, count: rows.length } } },
  });
  return csvText(lines);
}

/** For the retention job: the submission (its id column) is not on legal hold. */
export function notOnHold(id: AnyPgColumn): SQL {
  return sql`not exists (select 1 from ${submissionHandling} where ${submissionHandling.submissionId} = ${id} and ${submissionHandling.legalHold})`;
}
