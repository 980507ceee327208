import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImage,
  createNewsCategory,
  createNewsroomSite,
  createRecipe,
  createRecipeSite,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { newsReleaseMailings } from '../../subscriptions/tables.ts';
import { ADMIN_NEWS_API, type AdminNewsRow, type NewsDocument } from '../admin/schemas.ts';
import { contentItems, contentSchedules, newsReleases, recipes } from '../tables.ts';
import { runDueSchedules } from './schedule.server.ts';
import type { BulkResult, Schedules } from './schedule-schemas.ts';
import { RECIPES_ADMIN_API, type RecipesList } from './schemas.ts';

/**
 * Unpublishing, scheduled publishing and bulk actions (decision 167), through the HTTP API:
 * unpublishing deletes the live row (the listing, the path and search lose it) and publishing
 * again brings it back with the same id; a schedule is refused when stale, doubled or in the
 * past, can be cancelled once, and its run publishes once; a news release scheduled ahead is
 * nowhere on the site until its run, which queues its mailing; a bulk action changes exactly the
 * selected items or, when one of them is stale or outside the grants, nothing.
 */
const HOST = { host: 'jyvabroiler.localhost' };
const KONSERNI = { host: 'konsernifi.localhost' };
let t: TestApp;
let editor: Enrolled;
let publisher: Enrolled;
let newsPublisher: Enrolled;
const seeded: number[] = [];
let sibyllaId = 0;

const anonymous = (url: string, headers = HOST) => t.app.inject({ url, headers });
const live = async (id: number) =>
  (await t.app.db.select().from(recipes).where(eq(recipes.id, id)))[0];
const later = (ms: number) => () => new Date(Date.now() + ms);
async function found(q: string): Promise<string[]> {
  const res = await anonymous(`/api/search/content/?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { hits: { title: string }[] }).hits.map((h) => h.title);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createRecipeSite(db);
  await createNewsroomSite(db);
  await createNewsCategory(db, {
    siteId: 'konsernifi',
    lang: 'fi',
    informationType: 'PRM',
    name: 'Lehdistötiedotteet',
    position: 0,
  });
  const imageId = (await createImage(db)).id;
  for (let i = 1; i <= 5; i++) {
    const row = await createRecipe(db, {
      siteId: 'jyvabroiler',
      path: `/reseptit/joukko-${i}`,
      title: `Joukkoresepti ${i}`,
      imageId,
    });
    seeded.push(row.id);
  }
  sibyllaId = (await createRecipe(db, { siteId: 'sibylla', path: '/reseptit/nakki' })).id;
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] }]);
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['jyvabroiler'], langs: ['fi'] },
  ]);
  newsPublisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: ['fi'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('unpublishing', () => {
  it('takes the live row off the site in one transaction with its audit row; publishing brings it back', async () => {
    const id = seeded[4] ?? 0;
    expect((await anonymous('/reseptit/joukko-5')).statusCode).toBe(200);
    expect(await found('Joukkoresepti 5')).toContain('Joukkoresepti 5');
    expect(
      (await editor.visitor.post(`${RECIPES_ADMIN_API}/${id}/unpublish`, json({ version: 1 })))
        .statusCode,
    ).toBe(403);
    const stale = await publisher.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/unpublish`,
      json({ version: 2 }),
    );
    expect(stale.statusCode, stale.body).toBe(409);
    expect(await live(id)).toBeDefined();

    const res = await publisher.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/unpublish`,
      json({ version: 1 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unpublished: true });
    expect(await live(id)).toBeUndefined();
    expect((await anonymous('/reseptit/joukko-5')).statusCode).toBe(404);
    expect((await anonymous('/reseptit')).body).not.toContain('Joukkoresepti 5');
    expect(await found('Joukkoresepti 5')).not.toContain('Joukkoresepti 5');
    const [audit] = await auditOf(t.app, 'content.unpublish');
    expect(audit).toMatchObject({ subjectType: 'recipe', subjectId: String(id) });
    const list = (await publisher.visitor.get(`${RECIPES_ADMIN_API}?q=Joukkoresepti 5`)).json();
    expect((list as RecipesList).recipes).toMatchObject([{ id, state: 'draft', version: 1 }]);

    const again = await publisher.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/unpublish`,
      json({ version: 1 }),
    );
    expect(again.json()).toEqual({ unpublished: false });

    const back = await publisher.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/publish`,
      json({ version: 1 }),
    );
    expect(back.statusCode, back.body).toBe(200);
    expect((await live(id))?.title).toBe('Joukkoresepti 5');
    expect((await anonymous('/reseptit/joukko-5')).statusCode).toBe(200);
    expect(await found('Joukkoresepti 5')).toContain('Joukkoresepti 5');
  });
});

describe('scheduled publishing and unpublishing', () => {
  it('is refused stale, in the past, twice or without the right; cancelled once', async () => {
    const id = seeded[3] ?? 0;
    const url = `${RECIPES_ADMIN_API}/${id}/schedules`;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect(
      (await editor.visitor.post(url, json({ action: 'unpublish', at, version: 1 }))).statusCode,
    ).toBe(403);
    expect(
      (await publisher.visitor.post(url, json({ action: 'unpublish', at, version: 2 }))).statusCode,
    ).toBe(409);
    const past = await publisher.visitor.post(
      url,
      json({ action: 'unpublish', at: new Date(Date.now() - 3_600_000).toISOString(), version: 1 }),
    );
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ errors: { at: 'admin.schedule.error.past' } });
    const made = await publisher.visitor.post(url, json({ action: 'unpublish', at, version: 1 }));
    expect(made.statusCode, made.body).toBe(200);
    const [schedule] = (made.json() as Schedules).schedules;
    expect(schedule).toMatchObject({ action: 'unpublish', state: 'pending', version: 1, at });
    expect(
      (await publisher.visitor.post(url, json({ action: 'unpublish', at, version: 1 }))).statusCode,
    ).toBe(409);
    expect(await auditOf(t.app, 'content.schedule')).toHaveLength(1);

    const cancel = `${url}/${schedule?.id}/cancel`;
    expect((await editor.visitor.post(cancel, json({}))).statusCode).toBe(403);
    const cancelled = await publisher.visitor.post(cancel, json({}));
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((cancelled.json() as Schedules).schedules[0]).toMatchObject({ state: 'cancelled' });
    expect((await publisher.visitor.post(cancel, json({}))).statusCode).toBe(409);
    expect(await auditOf(t.app, 'content.schedule.cancel')).toHaveLength(1);
    // Nothing runs for a cancelled one.
    expect(await runDueSchedules(t.app.db, later(7_200_000))).toBe(0);
    expect(await live(id)).toBeDefined();
  });

  it('runs a due unpublish once, in the name of who scheduled it', async () => {
    const id = seeded[3] ?? 0;
    const at = new Date(Date.now() + 1_000).toISOString();
    const made = await publisher.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/schedules`,
      json({ action: 'unpublish', at, version: 1 }),
    );
    expect(made.statusCode, made.body).toBe(200);
    expect(await live(id)).toBeDefined();
    const unpublishes = (await auditOf(t.app, 'content.unpublish')).length;
    expect(await runDueSchedules(t.app.db, later(60_000))).toBe(1);
    expect(await runDueSchedules(t.app.db, later(60_000))).toBe(0);
    expect(await live(id)).toBeUndefined();
    const rows = await auditOf(t.app, 'content.unpublish');
    expect(rows).toHaveLength(unpublishes + 1);
    expect(rows.at(-1)).toMatchObject({ staffId: publisher.id, subjectId: String(id) });
    expect(rows.at(-1)?.actor).toContain('(scheduled #');
  });
});

describe('a news release under embargo', () => {
  const release = (title: string, path: string): NewsDocument => ({
    path,
    title,
    teaser: 'Konserni kertoo.',
    bodyHtml: '<p>Tiedotteen teksti.</p>',
    imageId: null,
    authors: [],
    textType: 'Lehdistötiedote',
    source: 'cision',
    categoryIds: [],
    facetTagIds: [],
  });

  it('is nowhere on the site until its scheduled run, which publishes it once with its mailing', async () => {
    const made = await newsPublisher.visitor.post(
      `${ADMIN_NEWS_API}?site=konsernifi&lang=fi`,
      json({ document: release('Salainen tulos', '/uutiset/salainen-tulos') }),
    );
    expect(made.statusCode, made.body).toBe(200);
    const draft = made.json() as AdminNewsRow;
    expect(draft).toMatchObject({ state: 'draft', version: 1, publishDate: null });
    const unsafe = await newsPublisher.visitor.request(
      'PUT',
      `${ADMIN_NEWS_API}/${draft.id}`,
      json({
        basedOn: 1,
        document: {
          ...release('Salainen tulos', '/uutiset/salainen-tulos'),
          bodyHtml: '<script>x</script>',
        },
      }),
    );
    expect(unsafe.statusCode).toBe(400);

    const at = new Date(Date.now() + 2_000);
    const scheduled = await newsPublisher.visitor.post(
      `${ADMIN_NEWS_API}/${draft.id}/publish`,
      json({ at: at.toISOString(), informationTypes: ['PRM'], mailingVersion: null, version: 1 }),
    );
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json()).toMatchObject({
      state: 'draft',
      schedule: { at: at.toISOString() },
      mailing: null,
    });
    expect((await anonymous('/uutiset/salainen-tulos', KONSERNI)).statusCode).toBe(404);
    expect((await anonymous('/uutiset', KONSERNI)).body).not.toContain('Salainen tulos');
    // Not due yet.
    expect(await runDueSchedules(t.app.db)).toBe(0);

    expect(await runDueSchedules(t.app.db, later(10_000))).toBe(1);
    expect(await runDueSchedules(t.app.db, later(10_000))).toBe(0);
    expect((await anonymous('/uutiset/salainen-tulos', KONSERNI)).statusCode).toBe(200);
    expect((await anonymous('/uutiset', KONSERNI)).body).toContain('Salainen tulos');
    const [row] = await t.app.db.select().from(newsReleases).where(eq(newsReleases.id, draft.id));
    expect(row?.publishDate.toISOString()).toBe(at.toISOString());
    expect(row?.informationTypes).toEqual(['PRM']);
    const mailings = await t.app.db
      .select()
      .from(newsReleaseMailings)
      .where(eq(newsReleaseMailings.releaseId, draft.id));
    expect(mailings).toMatchObject([{ status: 'scheduled', informationTypes: ['PRM'] }]);
    expect(mailings[0]?.sendAt.toISOString()).toBe(at.toISOString());
    const publishes = (await auditOf(t.app, 'content.publish')).filter(
      (a) => a.subjectType === 'news' && a.subjectId === String(draft.id),
    );
    expect(publishes).toHaveLength(1);
    expect(publishes[0]).toMatchObject({ staffId: newsPublisher.id });
    const [schedule] = await t.app.db
      .select()
      .from(contentSchedules)
      .where(and(eq(contentSchedules.kind, 'news'), eq(contentSchedules.itemId, draft.id)));
    expect(schedule).toMatchObject({ state: 'done', error: null });

    // Taken off: the page goes, and so would a mailing that had not begun.
    const off = await newsPublisher.visitor.post(
      `${ADMIN_NEWS_API}/${draft.id}/unpublish`,
      json({ version: 1 }),
    );
    expect(off.statusCode, off.body).toBe(200);
    expect((await anonymous('/uutiset/salainen-tulos', KONSERNI)).statusCode).toBe(404);
    expect(
      await t.app.db
        .select()
        .from(newsReleaseMailings)
        .where(eq(newsReleaseMailings.releaseId, draft.id)),
    ).toEqual([]);
  });
});

describe('bulk actions', () => {
  const bulk = (who: Enrolled, body: unknown) =>
    who.visitor.post(`${RECIPES_ADMIN_API}/bulk`, json(body));

  it('change exactly the selected items, each audited', async () => {
    const selected = [seeded[0], seeded[2], seeded[1]] as number[];
    const before = (await auditOf(t.app, 'content.unpublish')).length;
    const res = await bulk(publisher, {
      action: 'unpublish',
      items: selected.map((id) => ({ id, version: 1 })),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as BulkResult).items).toEqual(selected.map((id) => ({ id, changed: true })));
    for (const id of seeded) {
      const gone = selected.includes(id) || id === seeded[3];
      expect(await live(id), String(id)).toEqual(gone ? undefined : expect.anything());
    }
    const rows = await auditOf(t.app, 'content.unpublish');
    expect(rows).toHaveLength(before + 3);
    expect(
      rows
        .slice(-3)
        .map((r) => Number(r.subjectId))
        .sort((a, b) => a - b),
    ).toEqual([...selected].sort((a, b) => a - b));

    const back = await bulk(publisher, {
      action: 'publish',
      items: selected.map((id) => ({ id, version: 1 })),
    });
    expect(back.statusCode, back.body).toBe(200);
    for (const id of selected) expect(await live(id)).toBeDefined();
    expect(await live(seeded[3] ?? 0)).toBeUndefined();
  });

  it('change nothing when one selected item is stale or outside the grants', async () => {
    const [a, b] = seeded as [number, number];
    const items = await t.app.db
      .select()
      .from(contentItems)
      .where(and(eq(contentItems.kind, 'recipe'), eq(contentItems.itemId, a)));
    expect(items).toHaveLength(1);
    const stale = await bulk(publisher, {
      action: 'unpublish',
      items: [
        { id: a, version: 1 },
        { id: b, version: 7 },
      ],
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ refused: [{ id: b, reason: 'stale' }] });
    expect(await live(a)).toBeDefined();
    expect(await live(b)).toBeDefined();

    const foreign = await bulk(publisher, {
      action: 'unpublish',
      items: [
        { id: a, version: 1 },
        { id: sibyllaId, version: 1 },
      ],
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ refused: [{ id: sibyllaId, reason: 'forbidden' }] });
    expect(await live(a)).toBeDefined();
    expect(
      (await bulk(editor, { action: 'unpublish', items: [{ id: a, version: 1 }] })).statusCode,
    ).toBe(403);
    expect(
      (
        await bulk(publisher, {
          action: 'unpublish',
          items: [
            { id: a, version: 1 },
            { id: a, version: 1 },
          ],
        })
      ).statusCode,
    ).toBe(400);
  });
});
