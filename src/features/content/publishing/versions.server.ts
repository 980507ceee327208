import { randomUUID } from 'node:crypto';
import { and, desc, eq, lt, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Database, Transaction } from '../../../db/client.ts';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import {
  AppError,
  type FieldErrors,
  Forbidden,
  Invalid,
  NotFound,
} from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang } from '../../../sites/types.ts';
import { type Actor, actorOf, recordAudit, staffMembers } from '../../staff/index.server.ts';
import { can, type Permission } from '../../staff/index.ts';
import type { ContentKind } from '../content-id.ts';
import { recordPathChange } from '../path-redirects.server.ts';
import { contentItems, contentPresence, contentVersions } from '../tables.ts';
import {
  diffDocuments,
  PRESENCE_TTL_MS,
  type Present,
  type VersionMeta,
  type VersionStatus,
} from './schemas.ts';

/**
 * Drafts, versions and publishing of one kind of content (decision 162), the same for every kind:
 * a kind says how its live row reads and is written (`KindAdapter`), and this module keeps its
 * versions. A save writes a new version and nothing else; publishing writes the newest version
 * into the live row in the same transaction, which is what moves the page cache's content version
 * and re-indexes search (the live tables' triggers). Each change names the version it was made
 * on: another since is `StaleVersion` (409) with the version as it is now. Each change writes its
 * audit row in its transaction.
 */

type Db = Database | Transaction;

/** The live row of an item as the versions see it: where it is and its document. */
export interface LiveRow<Doc> {
  siteId: string;
  lang: string;
  translationKey: string;
  /** Its page's path; null for a row shown only inside other pages (a job listing, decision 171). */
  path: string | null;
  publishedAt: Date;
  updatedAt: Date;
  document: Doc;
}

export interface ItemRow {
  kind: string;
  itemId: number;
  siteId: string;
  lang: string;
  translationKey: string;
  headVersion: number;
  publishedVersion: number | null;
}

/**
 * The kinds of items in the versions: the content kinds with pages of their own, and the rows
 * that show only inside other pages' widgets (decision 171).
 */
export type ItemKind = ContentKind | 'job' | 'school-material' | 'timeline-year' | 'map-region';

/** A document's own path, when its kind has pages of its own. */
export function pathOfDocument(doc: object): string | null {
  const path = (doc as { path?: unknown }).path;
  return typeof path === 'string' ? path : null;
}

/** What one kind of content brings to the versions: its schema and its live table. */
export interface KindAdapter<Doc extends object> {
  kind: ItemKind;
  /** The table whose id sequence numbers new items (`recipes`). */
  table: string;
  schema: z.ZodType<Doc>;
  live(db: Db, id: number): Promise<LiveRow<Doc> | undefined>;
  /** What a document refers to that must exist in the item's site and language (field errors). */
  check(
    db: Db,
    item: { siteId: string; lang: string; itemId: number },
    doc: Doc,
  ): Promise<FieldErrors>;
  /**
   * Writes a document into the live row: an insert at the first publish, an update after. `at`
   * is the moment it is published (a scheduled one's time).
   */
  writeLive(tx: Transaction, item: ItemRow, doc: Doc, exists: boolean, at: Date): Promise<void>;
}

/** A save or a publish made on a version that is no longer the newest: 409 with the newest. */
export class StaleVersion extends AppError {
  constructor(current: unknown) {
    super(
      409,
      'stale-version',
      'Conflict',
      'Someone saved a newer version since this one was opened. Compare, then apply your changes to it.',
      { current },
    );
  }
}

interface Scope {
  siteId: string;
  lang: string;
}

function staffOf(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** Refuses what the staff member's grants do not give for the item's site and language. */
export function assertMay(request: FastifyRequest, permission: Permission, scope: Scope): void {
  if (!can(staffOf(request).grants, permission, scope)) {
    throw new Forbidden(
      `This needs the permission ${permission} for ${scope.siteId}/${scope.lang}.`,
    );
  }
}

const versionColumns = {
  version: contentVersions.version,
  status: contentVersions.status,
  authorId: contentVersions.authorId,
  authorName: staffMembers.name,
  createdAt: contentVersions.createdAt,
  publishedAt: contentVersions.publishedAt,
  restoredFrom: contentVersions.restoredFrom,
  document: contentVersions.document,
};

type VersionRow = {
  version: number;
  status: string;
  authorId: string | null;
  authorName: string | null;
  createdAt: Date;
  publishedAt: Date | null;
  restoredFrom: number | null;
  document: Record<string, unknown>;
};

function metaOf(row: Omit<VersionRow, 'document'>): VersionMeta {
  return {
    version: row.version,
    status: row.status as VersionStatus,
    authorId: row.authorId,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    restoredFrom: row.restoredFrom,
  };
}

/** The first version of an item that only a seeded live row has: the row as it is. */
function liveVersion<Doc>(live: LiveRow<Doc>) {
  return {
    version: 1,
    status: 'published' as const,
    authorId: null,
    authorName: null,
    createdAt: live.updatedAt.toISOString(),
    publishedAt: live.publishedAt.toISOString(),
    restoredFrom: null,
    document: live.document,
  };
}

async function itemOf(
  db: Db,
  kind: string,
  id: number,
  lock = false,
): Promise<ItemRow | undefined> {
  const query = db
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.kind, kind), eq(contentItems.itemId, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function versionOf(db: Db, kind: string, id: number, version: number) {
  const [row] = await db
    .select(versionColumns)
    .from(contentVersions)
    .leftJoin(staffMembers, eq(staffMembers.id, contentVersions.authorId))
    .where(
      and(
        eq(contentVersions.kind, kind),
        eq(contentVersions.itemId, id),
        eq(contentVersions.version, version),
      ),
    );
  return row as VersionRow | undefined;
}

function fullVersion<Doc extends object>(adapter: KindAdapter<Doc>, row: VersionRow) {
  return { ...metaOf(row), document: adapter.schema.parse(row.document) };
}

/** The item's site and language: its versions' row, or its live row before any version. */
export async function scopeOf<Doc extends object>(
  db: Db,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<{ item: ItemRow | undefined; live: LiveRow<Doc> | undefined; scope: Scope }> {
  const [item, live] = await Promise.all([itemOf(db, adapter.kind, id), adapter.live(db, id)]);
  const scope = item ?? live;
  if (!scope) throw new NotFound(`No such ${adapter.kind}.`);
  return { item, live, scope: { siteId: scope.siteId, lang: scope.lang } };
}

/** Refuses a staff member without `content.edit` for the item's site and language (404: none). */
export async function assertMayEdit<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<void> {
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.edit', scope);
}

/** The public address of a path of a site's language version. */
export function publicUrl(request: FastifyRequest, siteId: string, lang: string, path: string) {
  const site = getSite(siteId);
  const prefix = site ? langPrefix(site, lang as Lang) : '';
  return `${siteHomeUrl(request, siteId).replace(/\/$/, '')}${prefix}${path}`;
}

/** Staff other than the asker who have the item open now. */
async function othersPresent(
  db: Db,
  kind: string,
  id: number,
  staffId: string,
): Promise<Present[]> {
  const rows = await db
    .select({
      staffId: contentPresence.staffId,
      name: staffMembers.name,
      since: contentPresence.openedAt,
    })
    .from(contentPresence)
    .innerJoin(staffMembers, eq(staffMembers.id, contentPresence.staffId))
    .where(
      and(
        eq(contentPresence.kind, kind),
        eq(contentPresence.itemId, id),
        ne(contentPresence.staffId, staffId),
        sql`${contentPresence.seenAt} > now() - make_interval(secs => ${PRESENCE_TTL_MS / 1000})`,
      ),
    )
    .orderBy(contentPresence.openedAt);
  return rows.map((r) => ({ staffId: r.staffId, name: r.name, since: r.since.toISOString() }));
}

/** An item opened for editing: its state, newest version, history and who else has it open. */
export async function openItem<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
) {
  const db = request.server.db;
  const staff = staffOf(request);
  const { item, live, scope } = await scopeOf(db, adapter, id);
  assertMay(request, 'content.edit', scope);
  let head: VersionMeta & { document: Doc };
  let versions: VersionMeta[];
  if (item) {
    const rows = (await db
      .select(versionColumns)
      .from(contentVersions)
      .leftJoin(staffMembers, eq(staffMembers.id, contentVersions.authorId))
      .where(and(eq(contentVersions.kind, adapter.kind), eq(contentVersions.itemId, id)))
      .orderBy(desc(contentVersions.version))) as VersionRow[];
    const newest = rows.find((r) => r.version === item.headVersion);
    if (!newest) throw new Error(`${adapter.kind} ${id} has no version ${item.headVersion}`);
    head = fullVersion(adapter, newest);
    versions = rows.map(metaOf);
  } else if (live) {
    head = liveVersion(live);
    versions = [
      metaOf({ ...liveVersion(live), createdAt: live.updatedAt, publishedAt: live.publishedAt }),
    ];
  } else {
    throw new NotFound(`No such ${adapter.kind}.`);
  }
  return {
    item: {
      id,
      siteId: scope.siteId,
      lang: scope.lang,
      headVersion: item?.headVersion ?? 1,
      publishedVersion: item ? item.publishedVersion : 1,
      publishedPath: live?.path ?? null,
      liveUrl: live?.path ? publicUrl(request, live.siteId, live.lang, live.path) : null,
    },
    head,
    versions,
    present: await othersPresent(db, adapter.kind, id, staff.staffId),
    canPublish: can(staff.grants, 'content.publish', scope),
  };
}

/** One version of an item, whole. */
export async function readVersion<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
) {
  const db = request.server.db;
  const { item, live, scope } = await scopeOf(db, adapter, id);
  assertMay(request, 'content.edit', scope);
  if (!item) {
    if (live && version === 1) return liveVersion(live);
    throw new NotFound('No such version.');
  }
  const row = await versionOf(db, adapter.kind, id, version);
  if (!row) throw new NotFound('No such version.');
  return fullVersion(adapter, row);
}

/**
 * The item's versions row, locked for the change; for an item that so far is only a seeded live
 * row, the row is made with the live row as its published version 1 (once: a second asker waits
 * for the lock and finds it made).
 */
export async function lockedItem<Doc extends object>(
  tx: Transaction,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<{ item: ItemRow; live: LiveRow<Doc> | undefined }> {
  const existing = await itemOf(tx, adapter.kind, id, true);
  const live = await adapter.live(tx, id);
  if (existing) return { item: existing, live };
  if (!live) throw new NotFound(`No such ${adapter.kind}.`);
  const [made] = await tx
    .insert(contentItems)
    .values({
      kind: adapter.kind,
      itemId: id,
      siteId: live.siteId,
      lang: live.lang,
      translationKey: live.translationKey,
      headVersion: 1,
      publishedVersion: 1,
    })
    .onConflictDoNothing()
    .returning();
  if (!made) {
    const other = await itemOf(tx, adapter.kind, id, true);
    if (!other) throw new Error(`${adapter.kind} ${id}: versions row vanished`);
    return { item: other, live };
  }
  await tx.insert(contentVersions).values({
    kind: adapter.kind,
    itemId: id,
    version: 1,
    status: 'published',
    document: live.document as Record<string, unknown>,
    authorId: null,
    createdAt: live.updatedAt,
    publishedAt: live.publishedAt,
  });
  return { item: made, live };
}

export async function stale<Doc extends object>(
  tx: Transaction,
  adapter: KindAdapter<Doc>,
  item: ItemRow,
): Promise<never> {
  const row = await versionOf(tx, adapter.kind, item.itemId, item.headVersion);
  throw new StaleVersion(row ? fullVersion(adapter, row) : null);
}

/** Field errors of a document beyond its schema: its references. */
async function checkDocument<Doc extends object>(
  db: Db,
  adapter: KindAdapter<Doc>,
  item: { siteId: string; lang: string; itemId: number },
  doc: Doc,
): Promise<void> {
  const errors: FieldErrors = {};
  for (const [field, key] of Object.entries(await adapter.check(db, item, doc))) {
    errors[`document.${field}`] ??= key;
  }
  if (Object.keys(errors).length > 0) throw new Invalid(errors);
}

export function changesOf(before: object | null, after: object) {
  const changes: Record<string, { before?: unknown; after?: unknown }> = {};
  for (const change of diffDocuments(before ?? {}, after)) {
    changes[change.path] = { before: change.before ?? null, after: change.after ?? null };
  }
  return changes;
}

/**
 * Writes the next version of a locked item, checked, with its audit row: a save, or a restore of
 * the version `restoredFrom`.
 */
async function writeVersion<Doc extends object>(
  tx: Transaction,
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  locked: { item: ItemRow; live: LiveRow<Doc> | undefined },
  doc: Doc,
  restoredFrom: number | null,
): Promise<number> {
  const { item } = locked;
  const action = restoredFrom === null ? 'content.save' : 'content.restore';
  await checkDocument(tx, adapter, item, doc);
  const previous = await versionOf(tx, adapter.kind, item.itemId, item.headVersion);
  const version = item.headVersion + 1;
  await tx.insert(contentVersions).values({
    kind: adapter.kind,
    itemId: item.itemId,
    version,
    status: 'draft',
    document: doc as Record<string, unknown>,
    authorId: staffOf(request).staffId,
    restoredFrom,
  });
  await tx
    .update(contentItems)
    .set({ headVersion: version, updatedAt: new Date() })
    .where(and(eq(contentItems.kind, adapter.kind), eq(contentItems.itemId, item.itemId)));
  await recordAudit(tx, actorOf(request), {
    action,
    subjectType: adapter.kind,
    subjectId: String(item.itemId),
    siteId: item.siteId,
    lang: item.lang,
    changes: {
      version: { before: item.headVersion, after: version },
      ...(restoredFrom === null ? {} : { restoredFrom: { after: restoredFrom } }),
      ...changesOf(previous?.document ?? null, doc),
    },
  });
  return version;
}

/**
 * A new item of a site and language with its first draft. Its id is taken from the live table's
 * sequence now, so the live row it becomes at its first publish has it, and its content id
 * (`recipe-<id>`) is the same before and after.
 */
export async function createItem<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  scope: { siteId: string; lang: string },
  doc: Doc,
): Promise<number> {
  assertMay(request, 'content.edit', scope);
  const site = getSite(scope.siteId);
  if (!site || !(site.languages as readonly string[]).includes(scope.lang)) {
    throw new Invalid({ lang: 'admin.recipe.noSuchSiteLang' });
  }
  return request.server.db.transaction(async (tx) => {
    const result = (await tx.execute(
      sql`select nextval(pg_get_serial_sequence(${adapter.table}, 'id'))::int as id`,
    )) as unknown as { rows: { id: number }[] };
    const id = Number(result.rows[0]?.id);
    await checkDocument(tx, adapter, { ...scope, itemId: id }, doc);
    await tx.insert(contentItems).values({
      kind: adapter.kind,
      itemId: id,
      siteId: scope.siteId,
      lang: scope.lang,
      translationKey: `${adapter.kind}-${randomUUID()}`,
      headVersion: 1,
      publishedVersion: null,
    });
    await tx.insert(contentVersions).values({
      kind: adapter.kind,
      itemId: id,
      version: 1,
      status: 'draft',
      document: doc as Record<string, unknown>,
      authorId: staffOf(request).staffId,
    });
    await recordAudit(tx, actorOf(request), {
      action: 'content.create',
      subjectType: adapter.kind,
      subjectId: String(id),
      siteId: scope.siteId,
      lang: scope.lang,
      changes: { version: { after: 1 }, ...changesOf(null, doc) },
    });
    return id;
  });
}

/**
 * A new draft of an item on version `basedOn`, the newest the staff member saw (409 with the
 * newest when someone saved since): `draft` gives its document, and the version it restores.
 */
async function newDraft<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  basedOn: number,
  draft: (tx: Transaction) => Promise<{ doc: Doc; restoredFrom: number | null }>,
): Promise<number> {
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.edit', scope);
  return request.server.db.transaction(async (tx) => {
    const locked = await lockedItem(tx, adapter, id);
    if (locked.item.headVersion !== basedOn) await stale(tx, adapter, locked.item);
    const { doc, restoredFrom } = await draft(tx);
    return writeVersion(tx, request, adapter, locked, doc, restoredFrom);
  });
}

/** Saves a draft made on version `basedOn`: a new version; the live row is not touched. */
export function saveDraft<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  basedOn: number,
  doc: Doc,
): Promise<number> {
  return newDraft(request, adapter, id, basedOn, async () => ({ doc, restoredFrom: null }));
}

/** An old version made the newest again, as a new draft on `basedOn`. */
export function restoreVersion<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
  basedOn: number,
): Promise<number> {
  return newDraft(request, adapter, id, basedOn, async (tx) => {
    const source = await versionOf(tx, adapter.kind, id, version);
    if (!source) throw new NotFound('No such version.');
    return { doc: adapter.schema.parse(source.document), restoredFrom: version };
  });
}

/**
 * Publishes the newest version (the one the publisher saw, `version`): written into the live row
 * in one transaction with the version's and the item's new state and the audit row. The same
 * version again is answered as it is, with nothing written.
 */
export async function publishVersion<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
): Promise<void> {
  const { item: existing, live: seeded, scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.publish', scope);
  // A seeded row nobody has saved is its version 1, and live already: nothing to write.
  if (!existing && seeded && version === 1) return;
  const who = { actor: actorOf(request), staffId: staffOf(request).staffId };
  await request.server.db.transaction((tx) => publishWithin(tx, adapter, id, version, who));
}

/** Who publishes: a staff member's request, or a scheduled run in the name of who scheduled it. */
export interface Publisher {
  actor: Actor;
  staffId: string | null;
}

/**
 * Publishing inside the caller's transaction: the version written into the live row, the
 * version's and the item's new state, a moved path's redirect and the audit row. The version
 * must be the newest unless `newest` is false (a scheduled run publishes the version that was
 * scheduled). Answers whether anything was written (the same version again, and live: nothing).
 */
export async function publishWithin<Doc extends object>(
  tx: Transaction,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
  who: Publisher,
  options: {
    newest?: boolean;
    at?: Date;
    changes?: Record<string, { before?: unknown; after?: unknown }>;
  } = {},
): Promise<{ published: boolean; item: ItemRow; doc: Doc; live: LiveRow<Doc> | undefined }> {
  const { item, live } = await lockedItem(tx, adapter, id);
  if ((options.newest ?? true) && item.headVersion !== version) await stale(tx, adapter, item);
  const row = await versionOf(tx, adapter.kind, id, version);
  if (!row) throw new NotFound('No such version.');
  const doc = adapter.schema.parse(row.document);
  if (item.publishedVersion === version && live) return { published: false, item, doc, live };
  await checkDocument(tx, adapter, item, doc);
  const at = options.at ?? new Date();
  await adapter.writeLive(tx, item, doc, live !== undefined, at);
  // A published path that moves keeps answering, with 301 to the new one (decision 165).
  const path = pathOfDocument(doc);
  if (live?.path && path !== null && live.path !== path) {
    await recordPathChange(tx, {
      siteId: item.siteId,
      lang: item.lang,
      from: live.path,
      to: path,
    });
  }
  const now = new Date();
  await tx
    .update(contentVersions)
    .set({ status: 'published', publishedAt: now, publishedBy: who.staffId })
    .where(
      and(
        eq(contentVersions.kind, adapter.kind),
        eq(contentVersions.itemId, id),
        eq(contentVersions.version, version),
      ),
    );
  await tx
    .update(contentItems)
    .set({ publishedVersion: version, updatedAt: now })
    .where(and(eq(contentItems.kind, adapter.kind), eq(contentItems.itemId, id)));
  await recordAudit(tx, who.actor, {
    action: 'content.publish',
    subjectType: adapter.kind,
    subjectId: String(id),
    siteId: item.siteId,
    lang: item.lang,
    changes: {
      publishedVersion: { before: item.publishedVersion, after: version },
      ...options.changes,
      ...changesOf(live?.document ?? null, doc),
    },
  });
  return { published: true, item, doc, live };
}

/**
 * The staff member has the item open (the screen's heartbeat): their row's time moves, rows long
 * gone quiet are cleared, and the others who have it open are answered. Opening it (the first
 * beat, or the first after a gap) is an audit row; the beats that keep it open are not.
 */
export async function heartbeat<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<Present[]> {
  const staffId = staffOf(request).staffId;
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.edit', scope);
  const window = sql`make_interval(secs => ${PRESENCE_TTL_MS / 1000})`;
  return request.server.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contentPresence)
      .values({ kind: adapter.kind, itemId: id, staffId })
      .onConflictDoUpdate({
        target: [contentPresence.kind, contentPresence.itemId, contentPresence.staffId],
        set: {
          seenAt: sql`now()`,
          openedAt: sql`case when ${contentPresence.seenAt} > now() - ${window} then ${contentPresence.openedAt} else now() end`,
        },
      })
      .returning({ openedAt: contentPresence.openedAt, seenAt: contentPresence.seenAt });
    // Both times are the statement's `now()` exactly when it was opened by this beat.
    if (row && row.openedAt.getTime() === row.seenAt.getTime()) {
      await recordAudit(tx, actorOf(request), {
        action: 'content.open',
        subjectType: adapter.kind,
        subjectId: String(id),
        siteId: scope.siteId,
        lang: scope.lang,
      });
    }
    await tx
      .delete(contentPresence)
      .where(
        and(
          eq(contentPresence.kind, adapter.kind),
          eq(contentPresence.itemId, id),
          lt(contentPresence.seenAt, sql`now() - ${window} * 10`),
        ),
      );
    return othersPresent(tx, adapter.kind, id, staffId);
  });
}

/** The staff member closed the item (an audit row when they had it open). */
export async function leave<Doc extends object>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<void> {
  const staffId = staffOf(request).staffId;
  const { scope } = await scopeOf(request.server.db, adapter, id);
  await request.server.db.transaction(async (tx) => {
    const gone = await tx
      .delete(contentPresence)
      .where(
        and(
          eq(contentPresence.kind, adapter.kind),
          eq(contentPresence.itemId, id),
          eq(contentPresence.staffId, staffId),
        ),
      )
      .returning({ staffId: contentPresence.staffId });
    if (gone.length === 0) return;
    await recordAudit(tx, actorOf(request), {
      action: 'content.close',
      subjectType: adapter.kind,
      subjectId: String(id),
      siteId: scope.siteId,
      lang: scope.lang,
    });
  });
}

/**
 * A version to preview: its document, and the live row it would replace (none before its first
 * publish).
 */
export interface PreviewVersion<Doc> {
  document: Doc;
  live: LiveRow<Doc> | undefined;
}

/** Where an item is, for the preview: its scope and whether the version exists. */
export async function versionForPreview<Doc extends object>(
  db: Db,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
): Promise<(PreviewVersion<Doc> & { scope: Scope }) | undefined> {
  const { item, live, scope } = await scopeOf(db, adapter, id);
  if (!item) return live && version === 1 ? { scope, document: live.document, live } : undefined;
  const row = await versionOf(db, adapter.kind, id, version);
  return row ? { scope, document: adapter.schema.parse(row.document), live } : undefined;
}
