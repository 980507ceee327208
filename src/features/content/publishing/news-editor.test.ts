import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNews,
  createNewsCategory,
  createNewsroomSite,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { newsReleaseMailings } from '../../subscriptions/tables.ts';
import {
  type AdminNewsList,
  NEWS_RELEASES_API,
  type NewsDocument,
  type NewsOpen,
} from '../admin/schemas.ts';
import { editPathOf } from '../media/schemas.ts';
import { contentSchedules, newsReleases } from '../tables.ts';
import { runDueSchedules } from './schedule.server.ts';
import type { BulkResult, Schedules } from './schedule-schemas.ts';

/**
 * News releases in the shared content editor (decision 172), through the HTTP API: a seeded
 * release opens as its live row; a draft leaves the site alone; a stale save is 409 with the
 * newest version; publishing now writes the live row and queues the mailing once in the same
 * transaction; a scheduled publish waits and its run mails; rights per site, language and
 * permission; audit rows; the news list's bulk actions.
 */
const KONSERNI = { host: 'konsernifi.localhost' };
let t: TestApp;
let editor: Enrolled;
let publisher: Enrolled;
let stranger: Enrolled;
let seededId = 0;

const anonymous = (url: string) => t.app.inject({ url, headers: KONSERNI });
const later = (ms: number) => () => new Date(Date.now() + ms);

async function opened(res: LightMyRequestResponse): Promise<NewsOpen> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NewsOpen;
}
const api = (id: number, path = '') => `${NEWS_RELEASES_API}/${id}${path}`;
const save = (who: Enrolled, id: number, basedOn: number, document: NewsDocument) =>
  who.visitor.request('PUT', api(id), json({ basedOn, document }));
const mailingsOf = (id: number) =>
  t.app.db.select().from(newsReleaseMailings).where(eq(newsReleaseMailings.releaseId, id));

const release = (title: string, path: string, bodyHtml = '<p>Tiedotteen teksti.</p>') =>
  ({
    path,
    title,
    teaser: 'Konserni kertoo.',
    bodyHtml,
    imageId: null,
    authors: ['Viestintä'],
    textType: 'Lehdistötiedote',
    source: 'cision',
    categoryIds: [],
    facetTagIds: [],
  }) satisfies NewsDocument;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createNewsroomSite(db);
  await createNewsCategory(db, {
    siteId: 'konsernifi',
    lang: 'fi',
    informationType: 'PRM',
    name: 'Lehdistötiedotteet',
    position: 0,
  });
  seededId = (
    await createNews(db, {
      siteId: 'konsernifi',
      lang: 'fi',
      path: '/uutiset/vanha-tiedote',
      title: 'Vanha tiedote',
    })
  ).id;
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: ['konsernifi'], langs: ['fi'] }]);
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: ['fi'] },
  ]);
  stranger = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: ['sv'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a news release in the content editor', () => {
  it('opens as its live row, saves drafts the site does not show, and refuses a stale save', async () => {
    const first = await opened(await editor.visitor.get(api(seededId)));
    expect(first.item).toMatchObject({ headVersion: 1, publishedVersion: 1 });
    expect(first.head.document.title).toBe('Vanha tiedote');
    expect(first.canPublish).toBe(false);

    const body = '<p>Uusi <strong>lihavoitu</strong> teksti.</p>';
    const drafted = await opened(
      await save(editor, seededId, 1, { ...first.head.document, bodyHtml: body }),
    );
    expect(drafted.head).toMatchObject({ version: 2, status: 'draft' });
    expect((await anonymous('/uutiset/vanha-tiedote')).body).not.toContain('lihavoitu');

    // Rich text the sanitiser would change is refused with its field.
    const unsafe = await save(editor, seededId, 2, {
      ...first.head.document,
      bodyHtml: '<p onclick="x()">Teksti</p>',
    });
    expect(unsafe.statusCode).toBe(400);
    expect(JSON.stringify(unsafe.json())).toContain('document.bodyHtml');

    // Saved on version 1 again: someone saved since, 409 with the newest whole.
    const stale = await save(editor, seededId, 1, { ...first.head.document, title: 'Toinen' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      type: '/problems/stale-version',
      current: { version: 2, document: { bodyHtml: body } },
    });

    const audit = await auditOf(t.app, 'content.save');
    expect(audit.some((r) => r.subjectType === 'news' && r.subjectId === String(seededId))).toBe(
      true,
    );
  });

  it('is refused outside the grants, and publishing needs content.publish', async () => {
    expect((await stranger.visitor.get(api(seededId))).statusCode).toBe(403);
    const now = await opened(await editor.visitor.get(api(seededId)));
    expect(
      (
        await editor.visitor.post(
          api(seededId, '/publish'),
          json({ version: now.head.version, informationTypes: ['PRM'], mailingVersion: null }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await stranger.visitor.post(api(seededId, '/publish'), json({ version: now.head.version })))
        .statusCode,
    ).toBe(403);
  });

  it('publishes now with its mailing queued once in the same transaction', async () => {
    const now = await opened(await publisher.visitor.get(api(seededId)));
    expect(now.canPublish).toBe(true);
    const stale = await publisher.visitor.post(
      api(seededId, '/publish'),
      json({ version: now.head.version - 1, informationTypes: ['PRM'], mailingVersion: null }),
    );
    expect(stale.statusCode).toBe(409);
    expect(await mailingsOf(seededId)).toEqual([]);

    const done = await opened(
      await publisher.visitor.post(
        api(seededId, '/publish'),
        json({ version: now.head.version, informationTypes: ['PRM'], mailingVersion: null }),
      ),
    );
    expect(done.item.publishedVersion).toBe(now.head.version);
    const page = await anonymous('/uutiset/vanha-tiedote');
    expect(page.body).toContain('<strong>lihavoitu</strong>');
    const mailings = await mailingsOf(seededId);
    expect(mailings).toMatchObject([{ status: 'scheduled', informationTypes: ['PRM'] }]);
    // The same version again: nothing more is written, no second mailing.
    await opened(
      await publisher.visitor.post(
        api(seededId, '/publish'),
        json({ version: now.head.version, informationTypes: [], mailingVersion: null }),
      ),
    );
    expect(await mailingsOf(seededId)).toHaveLength(1);
    const publishes = (await auditOf(t.app, 'content.publish')).filter(
      (a) => a.subjectType === 'news' && a.subjectId === String(seededId),
    );
    expect(publishes).toHaveLength(1);
    expect(publishes[0]).toMatchObject({ staffId: publisher.id });
    expect(
      (await auditOf(t.app, 'news.publish')).some((a) => a.subjectId === String(seededId)),
    ).toBe(true);
  });

  it('schedules a new release with its mailing; cancelled it waits no more; its run publishes once', async () => {
    const made = await publisher.visitor.post(
      '/api/admin/content/news?site=konsernifi&lang=fi',
      json({ document: release('Tuleva tulos', '/uutiset/tuleva-tulos') }),
    );
    expect(made.statusCode, made.body).toBe(200);
    const id = (made.json() as { id: number }).id;
    const draft = await opened(await publisher.visitor.get(api(id)));
    expect(draft.item).toMatchObject({ headVersion: 1, publishedVersion: null });

    const at = new Date(Date.now() + 3_600_000);
    const schedule = (version: number) =>
      publisher.visitor.post(
        api(id, '/schedules'),
        json({
          action: 'publish',
          at: at.toISOString(),
          version,
          informationTypes: ['PRM'],
          mailingVersion: null,
        }),
      );
    expect((await schedule(2)).statusCode).toBe(409);
    const first = await schedule(1);
    expect(first.statusCode, first.body).toBe(200);
    const waiting = (first.json() as Schedules).schedules[0];
    expect(waiting).toMatchObject({ action: 'publish', state: 'pending', version: 1 });
    const cancelled = await publisher.visitor.post(
      api(id, `/schedules/${waiting?.id}/cancel`),
      json({}),
    );
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await runDueSchedules(t.app.db, later(7_200_000))).toBe(0);
    expect((await anonymous('/uutiset/tuleva-tulos')).statusCode).toBe(404);

    const again = await schedule(1);
    expect(again.statusCode, again.body).toBe(200);
    const [row] = await t.app.db
      .select()
      .from(contentSchedules)
      .where(
        and(
          eq(contentSchedules.kind, 'news'),
          eq(contentSchedules.itemId, id),
          eq(contentSchedules.state, 'pending'),
        ),
      );
    expect(row?.payload).toMatchObject({ informationTypes: ['PRM'], mailingVersion: null });
    expect(await runDueSchedules(t.app.db, later(7_200_000))).toBe(1);
    expect(await runDueSchedules(t.app.db, later(7_200_000))).toBe(0);
    expect((await anonymous('/uutiset/tuleva-tulos')).statusCode).toBe(200);
    const [live] = await t.app.db.select().from(newsReleases).where(eq(newsReleases.id, id));
    expect(live?.publishDate.toISOString()).toBe(at.toISOString());
    const mailings = await mailingsOf(id);
    expect(mailings).toMatchObject([{ status: 'scheduled', informationTypes: ['PRM'] }]);
    expect(mailings[0]?.sendAt.toISOString()).toBe(at.toISOString());
    for (const action of ['content.schedule', 'content.schedule.cancel', 'content.publish']) {
      const rows = (await auditOf(t.app, action)).filter(
        (a) => a.subjectType === 'news' && a.subjectId === String(id),
      );
      expect(rows.length, action).toBeGreaterThan(0);
    }
  });

  it('has a preview link, and versions to restore', async () => {
    const now = await opened(await editor.visitor.get(api(seededId)));
    const link = await editor.visitor.post(
      api(seededId, '/preview'),
      json({ version: now.head.version }),
    );
    expect(link.statusCode, link.body).toBe(200);
    const shown = await anonymous(new URL((link.json() as { url: string }).url).pathname);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.body).toContain('<strong>lihavoitu</strong>');
    expect(shown.body).toContain('noindex');
    const restored = await opened(
      await editor.visitor.post(
        api(seededId, '/restore'),
        json({ version: 1, basedOn: now.head.version }),
      ),
    );
    expect(restored.head).toMatchObject({ version: now.head.version + 1, restoredFrom: 1 });
    expect(restored.head.document.bodyHtml).not.toContain('lihavoitu');
  });

  it('are published and unpublished in bulk from the news list, exactly the selected', async () => {
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const made = await publisher.visitor.post(
        '/api/admin/content/news?site=konsernifi&lang=fi',
        json({ document: release(`Joukko ${n}`, `/uutiset/joukko-${n}`) }),
      );
      ids.push((made.json() as { id: number }).id);
    }
    const res = await publisher.visitor.post(
      `${NEWS_RELEASES_API}/bulk`,
      json({ action: 'publish', items: ids.map((id) => ({ id, version: 1 })) }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as BulkResult).items.every((i) => i.changed)).toBe(true);
    expect((await anonymous('/uutiset/joukko-1')).statusCode).toBe(200);
    expect((await anonymous('/uutiset/joukko-2')).statusCode).toBe(200);
    const list = (
      await publisher.visitor.get('/api/admin/content/news?site=konsernifi&lang=fi')
    ).json() as AdminNewsList;
    expect(list.releases.filter((r) => ids.includes(r.id)).map((r) => r.state)).toEqual([
      'published',
      'published',
    ]);
    const off = await publisher.visitor.post(
      `${NEWS_RELEASES_API}/bulk`,
      json({ action: 'unpublish', items: [{ id: ids[0], version: 1 }] }),
    );
    expect(off.statusCode, off.body).toBe(200);
    expect((await anonymous('/uutiset/joukko-1')).statusCode).toBe(404);
    expect((await anonymous('/uutiset/joukko-2')).statusCode).toBe(200);
  });

  it('is where the image library’s where-used links to', () => {
    expect(editPathOf({ kind: 'news', id: 7 })).toBe('/content/news/7');
  });
});
