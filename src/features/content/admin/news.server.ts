import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import { Forbidden, Invalid, NotFound } from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang } from '../../../sites/types.ts';
import { actorOf, recordAudit, scopeWhere } from '../../staff/index.server.ts';
import { type AccessGrant, can } from '../../staff/index.ts';
import {
  mailingsOf,
  newsCategories,
  scheduleNewsReleaseMailing,
} from '../../subscriptions/index.server.ts';
import { newsReleases } from '../tables.ts';
import type { AdminNewsRow, PublishNews } from './schemas.ts';

/**
 * News releases in the back office, for now only their publishing (decision 158): staff with
 * `content.publish` for a release's site and language set it to appear now or at a time, with
 * the categories whose subscribers are mailed; the mailing is queued in the same transaction and
 * sent by the marketing lists' job when the time comes. Issue 35's drafts and versions will take
 * this over and call the same mailing function from their publishing transaction.
 */

const PAGE_SIZE = 50;
/** A time a little in the past still means "now" (the clock of the browser that chose it). */
const PAST_SLACK_MS = 60_000;

type Release = typeof newsReleases.$inferSelect;

function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** The releases the grants give `content.publish` for, the latest first, with their mailings. */
export async function listNewsForPublishing(
  db: Database,
  grants: readonly AccessGrant[],
  query: { site?: string | undefined; lang?: string | undefined; offset: number },
): Promise<{ releases: AdminNewsRow[]; total: number }> {
  const where: SQL[] = [
    scopeWhere(grants, 'content.publish', { site: newsReleases.siteId, lang: newsReleases.lang }),
  ];
  if (query.site) where.push(eq(newsReleases.siteId, query.site));
  if (query.lang) where.push(eq(newsReleases.lang, query.lang));
  const [total] = await db
    .select({ n: count() })
    .from(newsReleases)
    .where(and(...where));
  const rows = await db
    .select()
    .from(newsReleases)
    .where(and(...where))
    .orderBy(desc(newsReleases.publishDate), desc(newsReleases.id))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  const mailings = await mailingsOf(
    db,
    rows.map((r) => r.id),
  );
  const categories = new Map<string, { informationType: string; name: string }[]>();
  for (const row of rows) {
    const key = `${row.siteId} ${row.lang}`;
    if (!categories.has(key)) {
      categories.set(key, await newsCategories(db, row.siteId, row.lang as Lang));
    }
  }
  return {
    releases: rows.map((row) => ({
      id: row.id,
      siteId: row.siteId,
      lang: row.lang,
      path: row.path,
      title: row.title,
      publishDate: row.publishDate.toISOString(),
      informationTypes: row.informationTypes,
      categories: categories.get(`${row.siteId} ${row.lang}`) ?? [],
      mailing: mailings.get(row.id) ?? null,
    })),
    total: Number(total?.n ?? 0),
  };
}

/** The release, if the grants give `content.publish` for its site and language (403, 404). */
async function scopedRelease(request: FastifyRequest, id: number): Promise<Release> {
  const [release] = await request.server.db
    .select()
    .from(newsReleases)
    .where(eq(newsReleases.id, id));
  if (!release) throw new NotFound('No such news release.');
  if (!can(signedIn(request).grants, 'content.publish', release)) {
    throw new Forbidden(
      `This needs the permission content.publish for ${release.siteId}/${release.lang}.`,
    );
  }
  return release;
}

/** For the route's `preValidation`: 403 or 404 before the body is looked at. */
export async function assertReleaseAccess(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as { id?: unknown }).id);
  if (!Number.isInteger(id) || id < 1) return; // the params schema answers 400
  await scopedRelease(request, id);
}

/** The release's page on its site, absolute. */
function releaseUrl(home: string, release: Pick<Release, 'siteId' | 'lang' | 'path'>): string {
  const site = getSite(release.siteId);
  const prefix = site ? langPrefix(site, release.lang as Lang) : '';
  return new URL(`${prefix}${release.path}`, home).href;
}

/**
 * Publishes a release now or at `at`: its date and categories are set and its mailing queued
 * (or moved, while it waits) in one transaction with the audit row (`news.publish`), on the
 * mailing's version the staff member saw. The release's language versions go with the mailing,
 * so that each subscriber gets the one in their language where there is one.
 */
export async function publishNewsRelease(
  request: FastifyRequest,
  id: number,
  body: PublishNews,
): Promise<AdminNewsRow> {
  const release = await scopedRelease(request, id);
  const now = Date.now();
  const at = body.at ? new Date(body.at) : new Date(now);
  if (at.getTime() < now - PAST_SLACK_MS) {
    throw new Invalid({ at: 'admin.news.error.past' }, 'The time has passed.');
  }
  const home = siteHomeUrl(request, release.siteId);
  const actor = actorOf(request);
  await request.server.db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(newsReleases)
      .where(eq(newsReleases.id, id))
      .for('update');
    if (!locked) throw new NotFound('No such news release.');
    const siblings = await tx
      .select()
      .from(newsReleases)
      .where(
        and(
          eq(newsReleases.siteId, locked.siteId),
          eq(newsReleases.translationKey, locked.translationKey),
        ),
      );
    const versions = [locked, ...siblings.filter((s) => s.id !== locked.id)].map((v) => ({
      lang: v.lang,
      title: v.title,
      teaser: v.teaser,
      url: releaseUrl(home, v),
    }));
    const mailing = await scheduleNewsReleaseMailing(
      tx,
      {
        releaseId: locked.id,
        siteId: locked.siteId,
        lang: locked.lang,
        translationKey: locked.translationKey,
        informationTypes: body.informationTypes,
        versions,
        siteUrl: home,
        sendAt: at,
      },
      body.mailingVersion,
      actor.label,
    );
    await tx
      .update(newsReleases)
      .set({
        publishDate: at,
        informationTypes: mailing.after.informationTypes,
        updatedAt: new Date(),
      })
      .where(eq(newsReleases.id, id));
    await recordAudit(tx, actor, {
      action: 'news.publish',
      subjectType: 'news_release',
      subjectId: String(id),
      siteId: locked.siteId,
      lang: locked.lang,
      changes: {
        publishDate: { before: locked.publishDate.toISOString(), after: at.toISOString() },
        informationTypes: {
          before: locked.informationTypes,
          after: mailing.after.informationTypes,
        },
        mailing: { before: mailing.before, after: mailing.after },
      },
    });
  });
  return newsRowOf(request.server.db, id);
}

/** One release as the list shows it. */
async function newsRowOf(db: Database, id: number): Promise<AdminNewsRow> {
  const [release] = await db.select().from(newsReleases).where(eq(newsReleases.id, id));
  if (!release) throw new NotFound('No such news release.');
  return {
    id,
    siteId: release.siteId,
    lang: release.lang,
    path: release.path,
    title: release.title,
    publishDate: release.publishDate.toISOString(),
    informationTypes: release.informationTypes,
    categories: await newsCategories(db, release.siteId, release.lang as Lang),
    mailing: (await mailingsOf(db, [id])).get(id) ?? null,
  };
}
