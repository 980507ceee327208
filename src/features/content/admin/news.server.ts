import { and, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import { Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { sites } from '../../../sites/registry.ts';
import type { Lang } from '../../../sites/types.ts';
import { actorOf } from '../../staff/index.server.ts';
import { type AccessGrant, can } from '../../staff/index.ts';
import { mailingsOf, newsCategories } from '../../subscriptions/index.server.ts';
import { atHeadVersion, listPage, listWhere } from '../publishing/item-list.server.ts';
import { type NewsPayload, newsAdapter, queueNewsMailing } from '../publishing/news.server.ts';
import { createSchedule, pendingOf, publishWithKind } from '../publishing/schedule.server.ts';
import { assertMay, publishVersion, StaleVersion, scopeOf } from '../publishing/versions.server.ts';
import { contentItems, contentVersions, newsReleases } from '../tables.ts';
import type { AdminNewsRow, NewsPublish, PublishNews } from './schemas.ts';

/**
 * News releases in the back office (decisions 158, 167): staff with `content.publish` for a
 * release's site and language publish it now or at a time, with the categories whose
 * subscribers are mailed. A release on the site with nothing new to publish only has its date and
 * mailing set (decision 158). One not on the site (a new draft, or one taken off) or with a newer
 * draft goes through the versions: now, its version is written into the live row and its mailing
 * queued in that transaction; at a time, a scheduled publish waits in `content_schedules` and the
 * schedule job does the same then, so the release is nowhere on the site before its time.
 */

/** A time a little in the past still means "now" (the clock of the browser that chose it). */
const PAST_SLACK_MS = 60_000;

type ListRow = {
  id: number;
  siteId: string;
  lang: string;
  title: string;
  path: string;
  publishDate: Date | null;
  informationTypes: string[];
  state: AdminNewsRow['state'];
  version: number;
};

/**
 * The releases the grants give `content.publish` for: those on the site and those not (drafts,
 * or taken off), the latest first (a release not on the site by when it was last changed), with
 * their mailings and waiting scheduled publishes.
 */
export async function listNewsForPublishing(
  db: Database,
  grants: readonly AccessGrant[],
  query: { site?: string | undefined; lang?: string | undefined; offset: number },
): Promise<{
  releases: AdminNewsRow[];
  total: number;
  scopes: { siteId: string; lang: string }[];
}> {
  const { live, drafts } = listWhere(grants, 'content.publish', 'news', newsReleases, query);
  const liveRows = db
    .select({
      id: newsReleases.id,
      siteId: newsReleases.siteId,
      lang: newsReleases.lang,
      title: newsReleases.title,
      path: newsReleases.path,
      publishDate: sql<Date | null>`${newsReleases.publishDate}`.as('publish_date'),
      informationTypes: newsReleases.informationTypes,
      state:
        sql<string>`case when ${contentItems.headVersion} > ${contentItems.publishedVersion} then 'changed' else 'published' end`.as(
          'state',
        ),
      version: sql<number>`coalesce(${contentItems.headVersion}, 1)`.as('version'),
      sortAt: sql<Date>`${newsReleases.publishDate}`.as('sort_at'),
    })
    .from(newsReleases)
    .leftJoin(
      contentItems,
      and(eq(contentItems.kind, 'news'), eq(contentItems.itemId, newsReleases.id)),
    )
    .where(and(...live));
  const draftRows = db
    .select({
      id: contentItems.itemId,
      siteId: contentItems.siteId,
      lang: contentItems.lang,
      title: sql<string>`${contentVersions.document}->>'title'`,
      path: sql<string>`${contentVersions.document}->>'path'`,
      publishDate: sql<Date | null>`null::timestamptz`,
      informationTypes: sql<string[]>`'{}'::text[]`,
      state: sql<string>`'draft'`,
      version: contentItems.headVersion,
      sortAt: contentItems.updatedAt,
    })
    .from(contentItems)
    .innerJoin(contentVersions, atHeadVersion)
    .where(and(...drafts));
  const union = liveRows.unionAll(draftRows).as('u');
  const { rows, total } = await listPage(db, union, union.sortAt, query.offset);
  return {
    releases: await rowsOf(
      db,
      rows.map((r) => ({
        ...r,
        publishDate: r.publishDate ? new Date(r.publishDate) : null,
        state: r.state as AdminNewsRow['state'],
        version: Number(r.version),
      })),
    ),
    total,
    scopes: sites.flatMap((site) =>
      site.languages
        .map((lang) => ({ siteId: site.id, lang }))
        .filter(
          (scope) => can(grants, 'content.edit', scope) && can(grants, 'content.publish', scope),
        ),
    ),
  };
}

/** The rows as the list shows them: with their categories, mailings and scheduled publishes. */
async function rowsOf(db: Database, rows: ListRow[]): Promise<AdminNewsRow[]> {
  const ids = rows.map((r) => r.id);
  const [mailings, pending] = await Promise.all([mailingsOf(db, ids), pendingOf(db, 'news', ids)]);
  const scheduleIds = await scheduleIdsOf(db, ids);
  const categories = new Map<string, { informationType: string; name: string }[]>();
  for (const row of rows) {
    const key = `${row.siteId} ${row.lang}`;
    if (!categories.has(key)) {
      categories.set(key, await newsCategories(db, row.siteId, row.lang as Lang));
    }
  }
  return rows.map((row) => {
    const at = pending.get(row.id)?.publish;
    const scheduleId = scheduleIds.get(row.id);
    return {
      id: row.id,
      siteId: row.siteId,
      lang: row.lang,
      path: row.path,
      title: row.title,
      publishDate: row.publishDate?.toISOString() ?? null,
      state: row.state,
      version: row.version,
      schedule: at && scheduleId ? { id: scheduleId, at: at.toISOString() } : null,
      informationTypes: row.informationTypes,
      categories: categories.get(`${row.siteId} ${row.lang}`) ?? [],
      mailing: mailings.get(row.id) ?? null,
    };
  });
}

async function scheduleIdsOf(db: Database, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const result = (await db.execute(sql`
    select item_id, id from content_schedules
    where kind = 'news' and action = 'publish' and state = 'pending'
      and item_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`)) as unknown as { rows: { item_id: number; id: number }[] };
  return new Map(result.rows.map((r) => [Number(r.item_id), Number(r.id)]));
}

function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** For the route's `preValidation`: 403 or 404 before the body is looked at. */
export async function assertReleaseAccess(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as { id?: unknown }).id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return; // the params schema: 400
  const { scope } = await scopeOf(request.server.db, newsAdapter, id);
  assertMay(request, 'content.publish', scope);
}

/**
 * Publishes a release now or at `at`, with the categories whose subscribers are mailed, on the
 * mailing's version the staff member saw:
 * - on the site with nothing newer (decision 158): its date and categories are set and its
 *   mailing queued (or moved, while it waits) in one transaction with `news.publish`;
 * - otherwise (decision 167), now: its newest version is written into the live row and the
 *   mailing queued in that transaction (`content.publish` and `news.publish`); at a time: a
 *   scheduled publish, which the schedule job runs then in the same way.
 */
export async function publishNewsRelease(
  request: FastifyRequest,
  id: number,
  body: PublishNews,
): Promise<AdminNewsRow> {
  const db = request.server.db;
  const { item, live, scope } = await scopeOf(db, newsAdapter, id);
  assertMay(request, 'content.publish', scope);
  const now = Date.now();
  const at = body.at ? new Date(body.at) : new Date(now);
  if (at.getTime() < now - PAST_SLACK_MS) {
    throw new Invalid({ at: 'admin.news.error.past' }, 'The time has passed.');
  }
  const payload: NewsPayload = {
    informationTypes: body.informationTypes,
    mailingVersion: body.mailingVersion,
    siteUrl: siteHomeUrl(request, scope.siteId),
  };
  const actor = actorOf(request);
  const head = item?.headVersion ?? 1;
  const onSite =
    live && (!item || (item.publishedVersion !== null && head === item.publishedVersion));
  if (onSite) {
    if (body.version !== undefined && body.version !== head) {
      throw new StaleVersion(null);
    }
    await db.transaction((tx) => queueNewsMailing(tx, id, payload, at, actor, { setDate: true }));
  } else if (at.getTime() <= now) {
    const who = { actor, staffId: signedIn(request).staffId };
    await db.transaction((tx) =>
      publishWithKind(tx, newsAdapter, id, body.version ?? head, who, {
        newest: true,
        at,
        payload,
      }),
    );
  } else {
    await createSchedule(
      request,
      newsAdapter,
      id,
      { action: 'publish', at: at.toISOString(), version: body.version ?? head },
      payload,
    );
  }
  return newsRowOf(request, id);
}

/** One release as the list shows it (on the site or not). */
export async function newsRowOf(request: FastifyRequest, id: number): Promise<AdminNewsRow> {
  const db = request.server.db;
  const { item, live } = await scopeOf(db, newsAdapter, id);
  const [row] = live
    ? await db.select().from(newsReleases).where(eq(newsReleases.id, id))
    : [undefined];
  const [draft] =
    item && !row
      ? await db
          .select({ document: contentVersions.document })
          .from(contentVersions)
          .where(
            and(
              eq(contentVersions.kind, 'news'),
              eq(contentVersions.itemId, id),
              eq(contentVersions.version, item.headVersion),
            ),
          )
      : [undefined];
  const head = item?.headVersion ?? 1;
  const base = row
    ? {
        siteId: row.siteId,
        lang: row.lang,
        title: row.title,
        path: row.path,
        publishDate: row.publishDate,
        informationTypes: row.informationTypes,
        state: (item && item.publishedVersion !== null && head > item.publishedVersion
          ? 'changed'
          : 'published') as AdminNewsRow['state'],
      }
    : {
        siteId: item?.siteId ?? '',
        lang: item?.lang ?? '',
        title: String(draft?.document.title ?? ''),
        path: String(draft?.document.path ?? ''),
        publishDate: null,
        informationTypes: [],
        state: 'draft' as const,
      };
  const [one] = await rowsOf(db, [{ id, version: head, ...base }]);
  if (!one) throw new NotFound('No such news release.');
  return one;
}

/**
 * Publishing a release now from its editor (decision 172). With mailing categories it is the
 * list's publish (decisions 158, 167): the live row written and the mailing queued in one
 * transaction. Without, the shared publish of a version, which mails nobody.
 */
export async function publishReleaseFromEditor(
  request: FastifyRequest,
  id: number,
  body: NewsPublish,
): Promise<void> {
  if (body.informationTypes.length === 0) {
    await publishVersion(request, newsAdapter, id, body.version);
    return;
  }
  await publishNewsRelease(request, id, {
    at: null,
    informationTypes: body.informationTypes,
    mailingVersion: body.mailingVersion,
    version: body.version,
  });
}

/**
 * What a release's scheduled publish carries (decision 167's payload): the categories mailed when
 * it runs, the mailing's version seen and the site's address as this request sees it. An
 * unpublish, or a publish with no categories, carries nothing.
 */
export async function releaseSchedulePayload(
  request: FastifyRequest,
  id: number,
  body: { action: string; informationTypes?: string[]; mailingVersion?: number | null },
): Promise<Record<string, unknown>> {
  const types = body.informationTypes ?? [];
  if (body.action !== 'publish' || types.length === 0) return {};
  const { scope } = await scopeOf(request.server.db, newsAdapter, id);
  const payload: NewsPayload = {
    informationTypes: types,
    mailingVersion: body.mailingVersion ?? null,
    siteUrl: siteHomeUrl(request, scope.siteId),
  };
  return payload;
}
