import { and, asc, desc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { AppError, Conflict, Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { type Actor, actorOf, recordAudit, staffMembers } from '../../staff/index.server.ts';
import { contentItems, contentSchedules } from '../tables.ts';
import type {
  Schedule,
  ScheduleAction,
  ScheduleCreate,
  ScheduleState,
} from './schedule-schemas.ts';
import {
  assertMay,
  type ItemRow,
  type KindAdapter,
  type LiveRow,
  lockedItem,
  type Publisher,
  publishWithin,
  scopeOf,
  stale,
} from './versions.server.ts';

/**
 * Unpublishing and scheduled publishing of any kind of content (decision 167), written against
 * the versions' `KindAdapter`: a kind joins by `registerScheduledKind`.
 *
 * Unpublishing deletes the live row (its child rows go with it by their foreign keys) and keeps
 * every version: the site reads only the live tables, so the page cache, search and sitemaps
 * follow as they follow a publish; publishing again writes the row back with the same id. A
 * scheduled action is a `content_schedules` row; the `content-schedule` job (every two seconds,
 * once across processes) runs each due row in one transaction with the publish it orders: the
 * row is claimed `FOR UPDATE SKIP LOCKED` and leaves `pending` in that transaction, so a second
 * process skips it and a second run finds it done.
 */

type Db = Database | Transaction;
type AnyAdapter = KindAdapter<{ path: string }>;

/** What a kind's publishing does beside the live row (a news release's mailing). */
export interface ScheduledKind {
  // biome-ignore lint/suspicious/noExplicitAny: each kind brings its own document type.
  adapter: KindAdapter<any>;
  /** In the publishing transaction, after the live row was written. */
  afterPublish?: (
    tx: Transaction,
    context: {
      item: ItemRow;
      at: Date;
      payload: Record<string, unknown>;
      actor: Actor;
    },
  ) => Promise<Record<string, { before?: unknown; after?: unknown }> | undefined>;
  /** In the unpublishing transaction, after the live row was deleted. */
  afterUnpublish?: (tx: Transaction, item: ItemRow) => Promise<void>;
}

const kinds = new Map<string, ScheduledKind>();

/** Makes a kind's schedules runnable by the job (idempotent: the last registration counts). */
export function registerScheduledKind(kind: ScheduledKind): void {
  kinds.set(kind.adapter.kind, kind);
}

function staffIdOf(request: FastifyRequest): string {
  const id = request.staff?.staffId;
  if (!id) throw new Forbidden();
  return id;
}

/** How far in the past a scheduled time may be (the clock of the browser that chose it). */
const PAST_SLACK_MS = 60_000;
/** How far ahead a time may be scheduled. */
const MAX_AHEAD_MS = 2 * 366 * 24 * 3_600_000;

// -------------------------------------------------------------------------------------------
// Unpublishing
// -------------------------------------------------------------------------------------------

/**
 * Takes an item off the site inside the caller's transaction: the live row is deleted, the item
 * has no published version, its versions stay, and the audit row is written. `version` is the
 * newest version the staff member saw (undefined: a scheduled run, which does not check).
 * Answers whether anything changed (an item not on the site: nothing).
 */
export async function unpublishWithin<Doc extends { path: string }>(
  tx: Transaction,
  adapter: KindAdapter<Doc>,
  id: number,
  who: Publisher,
  options: { version?: number; changes?: Record<string, { after?: unknown }> } = {},
): Promise<{ unpublished: boolean; item: ItemRow; live: LiveRow<Doc> | undefined }> {
  const { item, live } = await lockedItem(tx, adapter, id);
  if (options.version !== undefined && item.headVersion !== options.version) {
    await stale(tx, adapter, item);
  }
  if (!live) return { unpublished: false, item, live };
  await tx.execute(sql`delete from ${sql.identifier(adapter.table)} where id = ${id}`);
  await tx
    .update(contentItems)
    .set({ publishedVersion: null, updatedAt: new Date() })
    .where(and(eq(contentItems.kind, adapter.kind), eq(contentItems.itemId, id)));
  await kinds.get(adapter.kind)?.afterUnpublish?.(tx, item);
  await recordAudit(tx, who.actor, {
    action: 'content.unpublish',
    subjectType: adapter.kind,
    subjectId: String(id),
    siteId: item.siteId,
    lang: item.lang,
    changes: {
      publishedVersion: { before: item.publishedVersion, after: null },
      path: { before: live.path, after: null },
      ...options.changes,
    },
  });
  return { unpublished: true, item, live };
}

/** A staff member's unpublish: `content.publish` for the item's site and language. */
export async function unpublishItem<Doc extends { path: string }>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
): Promise<boolean> {
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.publish', scope);
  const who = { actor: actorOf(request), staffId: staffIdOf(request) };
  return request.server.db.transaction(
    async (tx) => (await unpublishWithin(tx, adapter, id, who, { version })).unpublished,
  );
}

// -------------------------------------------------------------------------------------------
// Schedules
// -------------------------------------------------------------------------------------------

type ScheduleRow = typeof contentSchedules.$inferSelect;

function scheduleOf(row: ScheduleRow & { createdByName: string | null }): Schedule {
  return {
    id: row.id,
    action: row.action as ScheduleAction,
    version: row.version,
    at: row.runAt.toISOString(),
    state: row.state as ScheduleState,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    doneAt: row.doneAt?.toISOString() ?? null,
    error: row.error,
  };
}

/** An item's schedules: the waiting ones (soonest first), then the ten latest others. */
export async function listSchedules<Doc extends { path: string }>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
): Promise<Schedule[]> {
  const db = request.server.db;
  const { scope } = await scopeOf(db, adapter, id);
  assertMay(request, 'content.edit', scope);
  const select = () =>
    db
      .select({ row: contentSchedules, createdByName: staffMembers.name })
      .from(contentSchedules)
      .leftJoin(staffMembers, eq(staffMembers.id, contentSchedules.createdBy));
  const where = and(eq(contentSchedules.kind, adapter.kind), eq(contentSchedules.itemId, id));
  const [pending, past] = await Promise.all([
    select()
      .where(and(where, eq(contentSchedules.state, 'pending')))
      .orderBy(asc(contentSchedules.runAt), asc(contentSchedules.id)),
    select()
      .where(and(where, ne(contentSchedules.state, 'pending')))
      .orderBy(desc(contentSchedules.id))
      .limit(10),
  ]);
  return [...pending, ...past].map((r) => scheduleOf({ ...r.row, createdByName: r.createdByName }));
}

/**
 * Schedules publishing the newest version (`version`, as seen: 409 when stale) or taking the item
 * off the site at `at`. One waiting action of each kind per item (409 for a second: cancel the
 * first). Unpublishing must have something to take off: a live row, or a publish waiting before
 * it. `payload` is the kind's own (a news release's mailing categories), stored as given.
 */
export async function createSchedule<Doc extends { path: string }>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  body: ScheduleCreate,
  payload: Record<string, unknown> = {},
): Promise<number> {
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.publish', scope);
  const at = new Date(body.at);
  const now = Date.now();
  if (at.getTime() < now - PAST_SLACK_MS) {
    throw new Invalid({ at: 'admin.schedule.error.past' }, 'The time has passed.');
  }
  if (at.getTime() > now + MAX_AHEAD_MS) {
    throw new Invalid({ at: 'admin.error.invalid' }, 'Too far ahead.');
  }
  const staffId = staffIdOf(request);
  return request.server.db.transaction(async (tx) => {
    const { item, live } = await lockedItem(tx, adapter, id);
    if (item.headVersion !== body.version) await stale(tx, adapter, item);
    const waiting = await tx
      .select()
      .from(contentSchedules)
      .where(
        and(
          eq(contentSchedules.kind, adapter.kind),
          eq(contentSchedules.itemId, id),
          eq(contentSchedules.state, 'pending'),
        ),
      );
    if (waiting.some((w) => w.action === body.action)) {
      throw new Conflict('This item already has a waiting action of this kind. Cancel it first.');
    }
    if (body.action === 'unpublish') {
      const publish = waiting.find((w) => w.action === 'publish');
      if (!live && !(publish && publish.runAt < at)) {
        throw new Invalid({ at: 'admin.schedule.error.notLive' }, 'Nothing to take off then.');
      }
    } else if (item.publishedVersion === body.version && live) {
      throw new Invalid({ action: 'admin.schedule.error.alreadyLive' }, 'Already published.');
    }
    const [row] = await tx
      .insert(contentSchedules)
      .values({
        kind: adapter.kind,
        itemId: id,
        action: body.action,
        version: body.version,
        runAt: at,
        siteId: item.siteId,
        lang: item.lang,
        payload,
        createdBy: staffId,
      })
      .returning({ id: contentSchedules.id });
    if (!row) throw new Error('schedule not stored');
    await recordAudit(tx, actorOf(request), {
      action: 'content.schedule',
      subjectType: adapter.kind,
      subjectId: String(id),
      siteId: item.siteId,
      lang: item.lang,
      changes: {
        schedule: { after: row.id },
        action: { after: body.action },
        at: { after: at.toISOString() },
        version: { after: body.version },
        ...(Object.keys(payload).length ? { payload: { after: payload } } : {}),
      },
    });
    return row.id;
  });
}

/**
 * Cancels a waiting action. One that has run (or is running: its run holds the row) or was
 * cancelled is 409 with nothing written.
 */
export async function cancelSchedule<Doc extends { path: string }>(
  request: FastifyRequest,
  adapter: KindAdapter<Doc>,
  id: number,
  scheduleId: number,
): Promise<void> {
  const { scope } = await scopeOf(request.server.db, adapter, id);
  assertMay(request, 'content.publish', scope);
  const staffId = staffIdOf(request);
  await request.server.db.transaction(async (tx) => {
    const [row] = await tx
      .update(contentSchedules)
      .set({ state: 'cancelled', cancelledBy: staffId, doneAt: new Date() })
      .where(
        and(
          eq(contentSchedules.id, scheduleId),
          eq(contentSchedules.kind, adapter.kind),
          eq(contentSchedules.itemId, id),
          eq(contentSchedules.state, 'pending'),
        ),
      )
      .returning();
    if (!row) {
      const [exists] = await tx
        .select({ state: contentSchedules.state })
        .from(contentSchedules)
        .where(
          and(
            eq(contentSchedules.id, scheduleId),
            eq(contentSchedules.kind, adapter.kind),
            eq(contentSchedules.itemId, id),
          ),
        );
      if (!exists) throw new NotFound('No such scheduled action.');
      throw new Conflict(`The scheduled action is ${exists.state} already.`);
    }
    await recordAudit(tx, actorOf(request), {
      action: 'content.schedule.cancel',
      subjectType: adapter.kind,
      subjectId: String(id),
      siteId: row.siteId,
      lang: row.lang,
      changes: {
        schedule: { after: row.id },
        action: { after: row.action },
        at: { after: row.runAt.toISOString() },
        state: { before: 'pending', after: 'cancelled' },
      },
    });
  });
}

/**
 * Runs a publish within a transaction with the kind's own step (a news release's mailing): the
 * same path for a staff member's publish now and a scheduled run.
 */
export async function publishWithKind<Doc extends { path: string }>(
  tx: Transaction,
  adapter: KindAdapter<Doc>,
  id: number,
  version: number,
  who: Publisher,
  options: {
    newest: boolean;
    at: Date;
    payload: Record<string, unknown>;
    changes?: Record<string, { before?: unknown; after?: unknown }>;
  },
): Promise<boolean> {
  const kind = kinds.get(adapter.kind);
  const result = await publishWithin(tx, adapter, id, version, who, options);
  if (!result.published) return false;
  await kind?.afterPublish?.(tx, {
    item: { ...result.item, publishedVersion: version },
    at: options.at,
    payload: options.payload,
    actor: who.actor,
  });
  return true;
}

/** Why a run could not be done, for the screen and the audit row. */
function reasonOf(err: unknown): string {
  if (err instanceof AppError) {
    const errors = (err.extra?.errors ?? {}) as Record<string, string>;
    const fields = Object.entries(errors)
      .map(([field, key]) => `${field}: ${key}`)
      .join(', ');
    return `${err.type}${fields ? ` (${fields})` : ''}: ${err.detail ?? err.title}`.slice(0, 500);
  }
  throw err;
}

/**
 * One tick of the `content-schedule` job: runs every due action, oldest first, each in its own
 * transaction with what it orders, in the name of who scheduled it. An action whose item cannot
 * be published as scheduled (its path taken meanwhile, a picture gone) is marked failed with the
 * reason and an audit row; nothing of it is written. Answers how many ran.
 */
export async function runDueSchedules(db: Database, now: () => Date = () => new Date()) {
  let ran = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const [claimed] = await tx
        .select()
        .from(contentSchedules)
        .where(and(eq(contentSchedules.state, 'pending'), lte(contentSchedules.runAt, now())))
        .orderBy(asc(contentSchedules.runAt), asc(contentSchedules.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!claimed) return false;
      const [by] = await tx
        .select({ email: staffMembers.email })
        .from(staffMembers)
        .where(eq(staffMembers.id, claimed.createdBy));
      const who: Publisher = {
        actor: {
          staffId: claimed.createdBy,
          label: `${by?.email ?? claimed.createdBy} (scheduled #${claimed.id})`,
        },
        staffId: claimed.createdBy,
      };
      const changes = { schedule: { after: claimed.id } };
      const kind = kinds.get(claimed.kind);
      let error: string | null = null;
      try {
        if (!kind) throw new Invalid({}, `No publishing is registered for ${claimed.kind}.`);
        const adapter = kind.adapter as AnyAdapter;
        // A savepoint: a refused run leaves nothing of itself, and the row is marked failed.
        await tx.transaction(async (step) => {
          if (claimed.action === 'publish') {
            await publishWithKind(step, adapter, claimed.itemId, claimed.version ?? 0, who, {
              newest: false,
              at: claimed.runAt,
              payload: claimed.payload,
              changes,
            });
          } else {
            await unpublishWithin(step, adapter, claimed.itemId, who, { changes });
          }
        });
      } catch (err) {
        error = reasonOf(err);
      }
      await tx
        .update(contentSchedules)
        .set({ state: error ? 'failed' : 'done', doneAt: new Date(), error })
        .where(and(eq(contentSchedules.id, claimed.id), eq(contentSchedules.state, 'pending')));
      if (error) {
        await recordAudit(tx, who.actor, {
          action: 'content.schedule.fail',
          subjectType: claimed.kind,
          subjectId: String(claimed.itemId),
          siteId: claimed.siteId,
          lang: claimed.lang,
          changes: { ...changes, action: { after: claimed.action }, error: { after: error } },
        });
      }
      return true;
    });
    if (!done) return ran;
    ran += 1;
  }
}

/** How often the job looks for due actions: an embargo lifts within this of its time. */
export const SCHEDULE_TICK_MS = 2_000;

/** The waiting publish of an item, if any (for a list's state). */
export async function pendingOf(db: Db, kind: string, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { publish?: Date; unpublish?: Date }>();
  const rows = await db
    .select({
      itemId: contentSchedules.itemId,
      action: contentSchedules.action,
      runAt: contentSchedules.runAt,
    })
    .from(contentSchedules)
    .where(
      and(
        eq(contentSchedules.kind, kind),
        eq(contentSchedules.state, 'pending'),
        inArray(contentSchedules.itemId, [...ids]),
      ),
    );
  const map = new Map<number, { publish?: Date; unpublish?: Date }>();
  for (const row of rows) {
    const entry = map.get(row.itemId) ?? {};
    entry[row.action as ScheduleAction] = row.runAt;
    map.set(row.itemId, entry);
  }
  return map;
}
