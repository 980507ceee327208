import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { schoolMaterials } from '../../forms/index.server.ts';
import { jobs } from '../tables.ts';
import {
  JOBS_ADMIN_API,
  type JobDocument,
  type JobOpen,
  type KindList,
  MAP_REGIONS_ADMIN_API,
  type MapRegionDocument,
  SCHOOL_MATERIALS_ADMIN_API,
  type SchoolMaterialDocument,
  type SchoolMaterialOpen,
  TIMELINE_ADMIN_API,
  type TimelineYearDocument,
} from './kind-schemas.ts';

/**
 * Job listings and school materials in the versions (decision 171): rows without a page of
 * their own, shown by other pages' widgets. A draft changes nothing on the site; publishing
 * writes the row and the widget's page shows it at once; a stale save is 409; an old version
 * comes back as a new draft; the grants bound every route; there is no preview.
 */
const HOST = { host: 'konsernifi.localhost' };
let t: TestApp;
let editor: Enrolled;
let publisher: Enrolled;
let brandEditor: Enrolled;
let seededJobId = 0;
let seededMaterialId = 0;

const anonymous = (url: string) => t.app.inject({ url, headers: HOST });
const contentVersion = () => t.database.contentVersion.current;
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

async function opened<T>(res: LightMyRequestResponse): Promise<T> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const home = await createPage(db, { siteId: 'konsernifi', path: '/', type: 'home', title: 'K' });
  await createPage(db, {
    siteId: 'konsernifi',
    path: '/tyopaikat',
    type: 'content',
    title: 'Avoimet työpaikat',
    parentId: home.id,
    blocks: [{ type: 'jobs', pageSize: 10 }],
  });
  await createPage(db, {
    siteId: 'konsernifi',
    path: '/koulumateriaalit',
    type: 'content',
    title: 'Koulumateriaalit',
    parentId: home.id,
    blocks: [{ type: 'school-materials' }],
  });
  await createPage(db, {
    siteId: 'konsernifi',
    path: '/historia',
    type: 'content',
    title: 'Historia',
    parentId: home.id,
    blocks: [{ type: 'timeline', window: 25 }, { type: 'map' }],
  });
  const [job] = await db
    .insert(jobs)
    .values({
      siteId: 'konsernifi',
      lang: 'fi',
      title: 'Tuotantotyöntekijä',
      city: 'Forssa',
      url: 'https://careers.kattaus.example/fi/jobs/1000',
      applicationPeriodEnd: new Date(Date.now() + 10 * 86_400_000),
    })
    .returning();
  seededJobId = job?.id ?? 0;
  const [material] = await db
    .insert(schoolMaterials)
    .values({
      siteId: 'konsernifi',
      lang: 'fi',
      material: 'Ruokaketju',
      url: 'https://materials.kattaus.example/fi/ruokaketju.pdf',
      topic: 'Yläkoulu',
    })
    .returning();
  seededMaterialId = material?.id ?? 0;
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: ['konsernifi'], langs: ['fi'] }]);
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['konsernifi'], langs: ['fi'] },
  ]);
  brandEditor = await enrolledStaff(t.app, [
    { role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a job listing', () => {
  it('made and saved is a draft: the jobs page does not show it until it is published', async () => {
    await anonymous('/tyopaikat');
    const before = contentVersion();
    const document: JobDocument = {
      title: 'Kunnossapitoasentaja',
      city: 'Seinäjoki',
      url: 'https://careers.kattaus.example/fi/jobs/2001',
      applicationPeriodEnd: inAMonth(),
    };
    const made = await opened<JobOpen>(
      await editor.visitor.post(`${JOBS_ADMIN_API}?site=konsernifi&lang=fi`, json({ document })),
    );
    expect(made.item).toMatchObject({ publishedVersion: null, liveUrl: null, publishedPath: null });
    const id = made.item.id;
    expect(contentVersion()).toBe(before);
    expect((await anonymous('/tyopaikat')).body).not.toContain('Kunnossapitoasentaja');
    // No page of its own: no preview.
    const preview = await editor.visitor.post(
      `${JOBS_ADMIN_API}/${id}/preview`,
      json({ version: 1 }),
    );
    expect(preview.statusCode).toBe(404);

    expect(
      (await editor.visitor.post(`${JOBS_ADMIN_API}/${id}/publish`, json({ version: 1 })))
        .statusCode,
    ).toBe(403);
    await opened<JobOpen>(
      await publisher.visitor.post(`${JOBS_ADMIN_API}/${id}/publish`, json({ version: 1 })),
    );
    expect(contentVersion()).not.toBe(before);
    const page = await anonymous('/tyopaikat');
    expect(page.body).toContain('Kunnossapitoasentaja');
    expect(page.body).toContain('Seinäjoki');
    const publishes = await auditOf(t.app, 'content.publish');
    expect(publishes.some((a) => a.subjectType === 'job' && a.subjectId === String(id))).toBe(true);
  });

  it('seeded, is edited with a stale save refused and an old version restored', async () => {
    const item = await opened<JobOpen>(
      await editor.visitor.get(`${JOBS_ADMIN_API}/${seededJobId}`),
    );
    expect(item.head.document.title).toBe('Tuotantotyöntekijä');
    const doc = { ...item.head.document, city: 'Forssa ja Loimaa' };
    const saved = await opened<JobOpen>(
      await editor.visitor.request(
        'PUT',
        `${JOBS_ADMIN_API}/${seededJobId}`,
        json({ basedOn: 1, document: doc }),
      ),
    );
    const stale = await editor.visitor.request(
      'PUT',
      `${JOBS_ADMIN_API}/${seededJobId}`,
      json({ basedOn: 1, document: { ...doc, city: 'Turku' } }),
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current.document.city).toBe('Forssa ja Loimaa');
    await opened<JobOpen>(
      await publisher.visitor.post(
        `${JOBS_ADMIN_API}/${seededJobId}/publish`,
        json({ version: saved.item.headVersion }),
      ),
    );
    const [row] = await t.app.db.select().from(jobs).where(eq(jobs.id, seededJobId));
    expect(row?.city).toBe('Forssa ja Loimaa');
    expect((await anonymous('/tyopaikat')).body).toContain('Forssa ja Loimaa');

    const restored = await opened<JobOpen>(
      await editor.visitor.post(
        `${JOBS_ADMIN_API}/${seededJobId}/restore`,
        json({ version: 1, basedOn: saved.item.headVersion }),
      ),
    );
    expect(restored.head.document.city).toBe('Forssa');
    expect(restored.head.restoredFrom).toBe(1);
  });

  it('refuses a link that is neither https nor a path of the site, and a date that is none', async () => {
    const res = await editor.visitor.post(
      `${JOBS_ADMIN_API}?site=konsernifi&lang=fi`,
      json({
        document: {
          title: 'X',
          city: 'Y',
          url: 'javascript:alert(1)',
          applicationPeriodEnd: 'huomenna',
        },
      }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toMatchObject({
      'document.url': 'admin.kinds.linkInvalid',
      'document.applicationPeriodEnd': 'admin.job.endInvalid',
    });
  });

  it('is listed and made only within the grants', async () => {
    const list = await opened<KindList>(await editor.visitor.get(JOBS_ADMIN_API));
    expect(list.rows.map((r) => r.title)).toContain('Kunnossapitoasentaja');
    expect(list.rows.every((r) => r.siteId === 'konsernifi')).toBe(true);
    const other = await opened<KindList>(await brandEditor.visitor.get(JOBS_ADMIN_API));
    expect(other.rows).toEqual([]);
    expect((await brandEditor.visitor.get(`${JOBS_ADMIN_API}/${seededJobId}`)).statusCode).toBe(
      403,
    );
    const made = await brandEditor.visitor.post(
      `${JOBS_ADMIN_API}?site=konsernifi&lang=fi`,
      json({
        document: { title: 'X', city: 'Y', url: '/ura', applicationPeriodEnd: inAMonth() },
      }),
    );
    expect(made.statusCode).toBe(403);
  });
});

describe('a school material', () => {
  it('is published into the materials list; a second one of the same name is refused', async () => {
    const document: SchoolMaterialDocument = {
      material: 'Broilerin tie pellolta pöytään',
      url: 'https://materials.kattaus.example/fi/broilerin-tie.pdf',
      description: 'Tehtäviä alakouluun.',
      topic: 'Alakoulu',
      sortOrder: 2,
    };
    const made = await opened<SchoolMaterialOpen>(
      await editor.visitor.post(
        `${SCHOOL_MATERIALS_ADMIN_API}?site=konsernifi&lang=fi`,
        json({ document }),
      ),
    );
    expect((await anonymous('/koulumateriaalit')).body).not.toContain('Broilerin tie');
    await opened<SchoolMaterialOpen>(
      await publisher.visitor.post(
        `${SCHOOL_MATERIALS_ADMIN_API}/${made.item.id}/publish`,
        json({ version: 1 }),
      ),
    );
    expect((await anonymous('/koulumateriaalit')).body).toContain('Broilerin tie pellolta pöytään');

    const twin = await editor.visitor.post(
      `${SCHOOL_MATERIALS_ADMIN_API}?site=konsernifi&lang=fi`,
      json({ document: { ...document, material: 'Ruokaketju' } }),
    );
    expect(twin.statusCode).toBe(400);
    expect(twin.json().errors).toMatchObject({ 'document.material': 'admin.material.taken' });
    const seeded = await opened<SchoolMaterialOpen>(
      await editor.visitor.get(`${SCHOOL_MATERIALS_ADMIN_API}/${seededMaterialId}`),
    );
    expect(seeded.head.document).toMatchObject({ material: 'Ruokaketju', topic: 'Yläkoulu' });
  });
});

describe('a timeline year and a map button', () => {
  it('are drafts until published, then on the history page; one a year, one a number', async () => {
    const year: TimelineYearDocument = {
      year: new Date().getFullYear() - 1,
      title: 'Uusi broileritehdas',
      text: 'Tehdas aloitti Forssassa.',
      imageId: null,
    };
    const madeYear = await opened<{ item: { id: number } }>(
      await editor.visitor.post(
        `${TIMELINE_ADMIN_API}?site=konsernifi&lang=fi`,
        json({ document: year }),
      ),
    );
    const button: MapRegionDocument = {
      number: 7,
      buttonLabel: 'Forssan tehdas',
      buttonRegion: 'Kanta-Häme',
      buttonInfo: 'Broilerin jatkojalostus.',
    };
    const madeButton = await opened<{ item: { id: number } }>(
      await editor.visitor.post(
        `${MAP_REGIONS_ADMIN_API}?site=konsernifi&lang=fi`,
        json({ document: button }),
      ),
    );
    const before = (await anonymous('/historia')).body;
    expect(before).not.toContain('Uusi broileritehdas');
    expect(before).not.toContain('Forssan tehdas');

    await opened(
      await publisher.visitor.post(
        `${TIMELINE_ADMIN_API}/${madeYear.item.id}/publish`,
        json({ version: 1 }),
      ),
    );
    await opened(
      await publisher.visitor.post(
        `${MAP_REGIONS_ADMIN_API}/${madeButton.item.id}/publish`,
        json({ version: 1 }),
      ),
    );
    const after = (await anonymous('/historia')).body;
    expect(after).toContain('Uusi broileritehdas');
    expect(after).toContain('Forssan tehdas');

    const sameYear = await editor.visitor.post(
      `${TIMELINE_ADMIN_API}?site=konsernifi&lang=fi`,
      json({ document: { ...year, title: 'Toinen' } }),
    );
    expect(sameYear.json().errors).toMatchObject({ 'document.year': 'admin.timeline.taken' });
    const sameNumber = await editor.visitor.post(
      `${MAP_REGIONS_ADMIN_API}?site=konsernifi&lang=fi`,
      json({ document: { ...button, buttonLabel: 'Toinen' } }),
    );
    expect(sameNumber.json().errors).toMatchObject({ 'document.number': 'admin.map.taken' });
    const missingImage = await editor.visitor.post(
      `${TIMELINE_ADMIN_API}?site=konsernifi&lang=fi`,
      json({ document: { ...year, year: 1950, imageId: 999_999 } }),
    );
    expect(missingImage.json().errors).toMatchObject({
      'document.imageId': 'admin.recipe.imageMissing',
    });
    const list = await opened<KindList>(
      await editor.visitor.get(`${TIMELINE_ADMIN_API}?q=broileritehdas`),
    );
    expect(list.rows.map((r) => [r.title, r.detail, r.state])).toEqual([
      ['Uusi broileritehdas', String(year.year), 'published'],
    ]);
  });
});
