import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createNews,
  createNewsCategory,
  createNewsroomSite,
  createSubscription,
} from '../../../../tests/factories/index.ts';
import { type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { twoServersOnPostgres } from '../../../../tests/helpers/two-servers.ts';
import { auditLog } from '../../staff/tables.ts';
import { newsReleaseMailings, newsReleaseMails } from '../../subscriptions/tables.ts';
import { ADMIN_NEWS_API, type AdminNewsRow, type NewsDocument } from '../admin/schemas.ts';
import { contentSchedules, newsReleases } from '../tables.ts';
import { runDueSchedules, SCHEDULE_TICK_MS } from './schedule.server.ts';

/**
 * A news release under embargo (decision 167) on PostgreSQL with two servers on one database,
 * each with its own pool, LISTEN connection and job runner, as two processes have: scheduled
 * `SCHEDULE_AHEAD_MS` ahead (a few seconds by default; run once with 120000 for "two minutes
 * ahead"), it is absent from both servers' newsroom and its own address until its time, then on
 * both shortly after; its scheduled publish ran once (one live row, one `content.publish` audit
 * row, the schedule done) and its mailing was queued once and mailed each subscriber once.
 */
const template = inject('templateDatabase');
const onPostgres = template.engine === 'postgres';
const AHEAD_MS = Number(process.env.SCHEDULE_AHEAD_MS ?? 5_000);
const HOST = { host: 'konsernifi.localhost' };
const TITLE = 'Kauppa vahvistui salassa';
const PATH = '/uutiset/2026/kauppa-vahvistui';

/** Polls `check` until it holds or `limitMs` passes; answers whether it came to hold. */
async function until(check: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function shows(app: FastifyInstance): Promise<{ listed: boolean; page: number }> {
  const [list, page] = await Promise.all([
    app.inject({ url: '/uutiset', headers: HOST }),
    app.inject({ url: PATH, headers: HOST }),
  ]);
  return { listed: list.body.includes(TITLE), page: page.statusCode };
}

describe.runIf(onPostgres)('a news release under embargo across processes (PostgreSQL)', () => {
  const { apps, handles } = twoServersOnPostgres(template);
  let publisher: Enrolled;

  beforeAll(async () => {
    if (template.engine !== 'postgres') return;
    const db = handles[0]?.db;
    if (!db || !apps[0]) throw new Error('no database');
    await createNewsroomSite(db);
    await createNewsCategory(db, {
      siteId: 'konsernifi',
      lang: 'fi',
      informationType: 'PRM',
      name: 'Lehdistötiedotteet',
    });
    for (let i = 0; i < 3; i++) {
      await createSubscription(db, { siteId: 'konsernifi', list: 'newsreleases:PRM' });
    }
    publisher = await enrolledStaff(apps[0], [
      { role: 'publisher', sites: ['konsernifi'], langs: ['fi'] },
    ]);
  }, 120_000);

  it(`goes out on both servers at its time, ${AHEAD_MS} ms ahead, published once`, {
    timeout: AHEAD_MS + 90_000,
  }, async () => {
    const [one, two] = apps;
    const db = handles[0]?.db;
    if (!one || !two || !db) throw new Error('two apps');
    const document: NewsDocument = {
      path: PATH,
      title: TITLE,
      teaser: 'Yrityskauppa on vahvistettu.',
      bodyHtml: '<p>Yrityskauppa on vahvistettu.</p>',
      imageId: null,
      authors: ['Viestintä'],
      textType: 'Lehdistötiedote',
      source: 'cision',
      categoryIds: [],
      facetTagIds: [],
    };
    const made = await publisher.visitor.post(
      `${ADMIN_NEWS_API}?site=konsernifi&lang=fi`,
      json({ document }),
    );
    expect(made.statusCode, made.body).toBe(200);
    const { id } = made.json() as AdminNewsRow;
    // Both servers have the newsroom in their page cache before the schedule.
    for (const app of apps) await shows(app);

    const at = new Date(Date.now() + AHEAD_MS);
    const scheduled = await publisher.visitor.post(
      `${ADMIN_NEWS_API}/${id}/publish`,
      json({ at: at.toISOString(), informationTypes: ['PRM'], mailingVersion: null, version: 1 }),
    );
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({ state: 'draft', schedule: { at: at.toISOString() } });

    // Before its time: on neither server, looked at again and again until a moment before.
    let looks = 0;
    while (Date.now() < at.getTime() - 300) {
      for (const app of apps) {
        expect(await shows(app)).toEqual({ listed: false, page: 404 });
      }
      looks++;
      await new Promise((r) => setTimeout(r, Math.min(250, AHEAD_MS / 10)));
    }
    expect(looks).toBeGreaterThan(2);

    // After its time: on both, within the job's tick and a little.
    const out = await until(async () => {
      const seen = await Promise.all(apps.map(shows));
      return seen.every((s) => s.listed && s.page === 200);
    }, SCHEDULE_TICK_MS + 10_000);
    expect(out).toBe(true);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    expect(Date.now() - at.getTime()).toBeLessThan(SCHEDULE_TICK_MS + 10_000);

    // Once: one live row, one publish, one schedule run, one mailing.
    const rows = await db.select().from(newsReleases).where(eq(newsReleases.path, PATH));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.publishDate.toISOString()).toBe(at.toISOString());
    const publishes = await db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'content.publish'),
          eq(auditLog.subjectType, 'news'),
          eq(auditLog.subjectId, String(id)),
        ),
      );
    expect(publishes).toHaveLength(1);
    expect(publishes[0]?.staffId).toBe(publisher.id);
    expect(
      await db
        .select({ n: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'news.publish'), eq(auditLog.subjectId, String(id)))),
    ).toEqual([{ n: 1 }]);
    const schedules = await db
      .select()
      .from(contentSchedules)
      .where(and(eq(contentSchedules.kind, 'news'), eq(contentSchedules.itemId, id)));
    expect(schedules).toMatchObject([{ state: 'done', error: null }]);
    const mailings = await db
      .select()
      .from(newsReleaseMailings)
      .where(eq(newsReleaseMailings.releaseId, id));
    expect(mailings).toHaveLength(1);
    expect(mailings[0]?.sendAt.toISOString()).toBe(at.toISOString());
    // Its mailing job (every 15 s, on both servers) mails each of the three subscribers once.
    const mailed = await until(async () => {
      const [row] = await db
        .select({ status: newsReleaseMailings.status })
        .from(newsReleaseMailings)
        .where(eq(newsReleaseMailings.releaseId, id));
      return row?.status === 'sent';
    }, 40_000);
    expect(mailed).toBe(true);
    const mails = await db
      .select()
      .from(newsReleaseMails)
      .where(eq(newsReleaseMails.mailingId, mailings[0]?.id ?? 0));
    expect(mails).toHaveLength(3);
  });

  it('runs each due action once when two processes claim at the same moment, bare', async () => {
    const [first, second] = handles;
    if (!first || !second) throw new Error('two handles');
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const row = await createNews(first.db, {
        siteId: 'konsernifi',
        path: `/uutiset/2026/kilpa-${i}`,
        translationKey: `news:kilpa-${i}`,
      });
      ids.push(row.id);
      // An hour ahead: the servers' own job runners leave them be; the bare claims below run
      // them as if it were two hours later.
      const res = await publisher.visitor.post(
        `${ADMIN_NEWS_API}/${row.id}/schedules`,
        json({
          action: 'unpublish',
          at: new Date(Date.now() + 3_600_000).toISOString(),
          version: 1,
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const later = () => new Date(Date.now() + 7_200_000);
    // Without the job's advisory lock: only the row claims keep them apart.
    const ran = await Promise.all([
      runDueSchedules(first.db, later),
      runDueSchedules(second.db, later),
      runDueSchedules(first.db, later),
      runDueSchedules(second.db, later),
    ]);
    expect(ran.reduce((a, b) => a + b, 0)).toBe(ids.length);
    for (const id of ids) {
      const audits = await first.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'content.unpublish'), eq(auditLog.subjectId, String(id))));
      expect(audits, String(id)).toHaveLength(1);
      expect(await first.db.select().from(newsReleases).where(eq(newsReleases.id, id))).toEqual([]);
    }
  });
});
