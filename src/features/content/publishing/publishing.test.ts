import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFacetCategory,
  createImage,
  createPage,
  createRecipe,
  createRecipeSite,
  recipeDocument,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { images } from '../../../images/tables.ts';
import { contentVersions, recipes } from '../tables.ts';
import { signPreview } from './preview.server.ts';
import {
  CONTENT_IMAGES_API,
  diffDocuments,
  RECIPES_ADMIN_API,
  type RecipeDocument,
  type RecipeOpen,
  type RecipesList,
} from './schemas.ts';

/**
 * Drafts, versions and publishing of recipes (decision 162), through the HTTP API: a draft
 * writes only the versions (no live row, no content version, no search document, the page cache
 * keeps serving); publishing writes the live row, which the listing and the search show at once;
 * a stale save is 409 with the newest version; an old version comes back as a new draft; the
 * grants' sites and languages bound every route; a preview link shows a draft on the site's own
 * renderer, never cached, never indexed, and stops opening.
 */
const HOST = { host: 'jyvabroiler.localhost' };
let t: TestApp;
let editor: Enrolled;
let publisher: Enrolled;
let imageId = 0;
let tags: Record<string, number> = {};
let sibyllaRecipeId = 0;
let seededId = 0;

const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';
const anonymous = (url: string) => t.app.inject({ url, headers: HOST });
const contentVersion = () => t.database.contentVersion.current;

function recipe(title: string, path: string, extra: Partial<RecipeDocument> = {}): RecipeDocument {
  return recipeDocument({
    path,
    title,
    imageId,
    teaser: 'Mehevä arkiruoka koko perheelle.',
    totalTimeMinutes: 40,
    steps: [
      {
        heading: 'Valmistelu',
        instructions: 'Paista broileri ja lisää kastike.',
        ingredients: [
          { name: 'broilerin fileesuikaleita', amount: 400, unit: 'g' },
          { name: 'kermaa', amount: 2, unit: 'dl' },
          { name: 'currytahnaa', amount: 1, unit: 'rkl' },
        ],
      },
    ],
    facetTagIds: [tags.Broileri ?? 0],
    categoryIds: [tags.Broileri ?? 0],
    ...extra,
  });
}

async function create(v: Visitor, document: RecipeDocument, site = 'jyvabroiler', lang = 'fi') {
  return v.post(`${RECIPES_ADMIN_API}?site=${site}&lang=${lang}`, json({ document }));
}

async function opened(res: LightMyRequestResponse): Promise<RecipeOpen> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RecipeOpen;
}

const save = (v: Visitor, id: number, basedOn: number, document: RecipeDocument) =>
  v.request('PUT', `${RECIPES_ADMIN_API}/${id}`, json({ basedOn, document }));
const publish = (v: Visitor, id: number, version: number) =>
  v.post(`${RECIPES_ADMIN_API}/${id}/publish`, json({ version }));

async function liveRow(id: number) {
  const [row] = await t.app.db.select().from(recipes).where(eq(recipes.id, id));
  return row;
}

async function searchTitles(q: string): Promise<string[]> {
  const res = await t.app.inject({
    url: `/api/search/content/?q=${encodeURIComponent(q)}`,
    headers: HOST,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { hits: { title: string }[] }).hits.map((h) => h.title);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createRecipeSite(db);
  await createPage(db, { siteId: 'sibylla', path: '/', type: 'home', title: 'Sibylla' });
  imageId = (await createImage(db, { alt: { fi: 'Broileripata padassa' } })).id;
  tags = (
    await createFacetCategory(db, {
      siteId: 'jyvabroiler',
      scope: 'recipes',
      name: 'Pääraaka-aine',
      tags: ['Broileri', 'Kala'],
    })
  ).tags;
  sibyllaRecipeId = (await createRecipe(db, { siteId: 'sibylla', path: '/reseptit/nakkikastike' }))
    .id;
  seededId = (
    await createRecipe(db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/kanakeitto',
      title: 'Kanakeitto',
      imageId,
    })
  ).id;
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] }]);
  publisher = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['jyvabroiler'], langs: ['fi'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a new recipe', () => {
  it('is a draft until published: no live row, no content version, the page cache keeps serving', async () => {
    await anonymous('/reseptit');
    expect(hit(await anonymous('/reseptit'))).toBe(true);
    const before = contentVersion();

    const made = await opened(
      await create(editor.visitor, recipe('Kookosbroileri', '/reseptit/kookosbroileri')),
    );
    expect(made.item).toMatchObject({
      siteId: 'jyvabroiler',
      lang: 'fi',
      headVersion: 1,
      publishedVersion: null,
    });
    expect(made.head).toMatchObject({ version: 1, status: 'draft' });
    expect(made.head.authorId).toBe(editor.id);
    expect(made.canPublish).toBe(false);
    const id = made.item.id;
    expect(await liveRow(id)).toBeUndefined();

    // A second draft: still nothing live.
    const second = await opened(
      await save(
        editor.visitor,
        id,
        1,
        recipe('Kookosbroileri limellä', '/reseptit/kookosbroileri'),
      ),
    );
    expect(second.head).toMatchObject({ version: 2, status: 'draft' });
    expect(second.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(await liveRow(id)).toBeUndefined();

    expect(contentVersion()).toBe(before);
    const listing = await anonymous('/reseptit');
    expect(hit(listing)).toBe(true);
    expect(listing.body).not.toContain('Kookosbroileri');
    expect(await searchTitles('kookosbroileri')).toEqual([]);
    expect((await auditOf(t.app, 'content.create')).some((a) => a.subjectId === String(id))).toBe(
      true,
    );
    expect((await auditOf(t.app, 'content.save')).some((a) => a.subjectId === String(id))).toBe(
      true,
    );
  });

  it('is published by a publisher only, and then listed and found at once', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Sitruunabroileri', '/reseptit/sitruunabroileri')),
    );
    const id = made.item.id;

    const refused = await publish(editor.visitor, id, 1);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(await liveRow(id)).toBeUndefined();

    await anonymous('/reseptit');
    const before = contentVersion();
    const done = await opened(await publish(publisher.visitor, id, 1));
    expect(done.item.publishedVersion).toBe(1);
    expect(done.head).toMatchObject({ version: 1, status: 'published' });
    expect(done.item.liveUrl).toMatch(
      /^http:\/\/jyvabroiler\.localhost.*\/reseptit\/sitruunabroileri$/,
    );
    expect(contentVersion()).toBeGreaterThan(before);

    const row = await liveRow(id);
    expect(row).toMatchObject({
      siteId: 'jyvabroiler',
      lang: 'fi',
      title: 'Sitruunabroileri',
      imageId,
    });
    expect(row?.steps[0]?.ingredients.map((i) => i.name)).toEqual([
      'broilerin fileesuikaleita',
      'kermaa',
      'currytahnaa',
    ]);
    const listing = await anonymous('/reseptit');
    expect(hit(listing)).toBe(false);
    expect(listing.body).toContain('Sitruunabroileri');
    const page = await anonymous('/reseptit/sitruunabroileri');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('currytahnaa');
    expect(page.body).toContain('"@type":"Recipe"');
    expect(await searchTitles('sitruunabroileri')).toEqual(['Sitruunabroileri']);

    // The same version again: nothing written.
    const again = contentVersion();
    await opened(await publish(publisher.visitor, id, 1));
    expect(contentVersion()).toBe(again);
    const audits = (await auditOf(t.app, 'content.publish')).filter(
      (a) => a.subjectId === String(id),
    );
    expect(audits).toHaveLength(1);
    expect(audits[0]?.staffId).toBe(publisher.id);
  });

  it('refuses a path another page of the site already has, and an unknown image', async () => {
    const taken = await create(editor.visitor, recipe('Toinen keitto', '/reseptit/kanakeitto'));
    expect(taken.statusCode, taken.body).toBe(400);
    expect(taken.json().errors).toMatchObject({ 'document.path': 'admin.recipe.pathTaken' });
    const noImage = await create(
      editor.visitor,
      recipe('Kuvaton', '/reseptit/kuvaton', { imageId: 999_999 }),
    );
    expect(noImage.statusCode).toBe(400);
    expect(noImage.json().errors).toMatchObject({
      'document.imageId': 'admin.recipe.imageMissing',
    });
    const invalid = await create(editor.visitor, { ...recipe('', '/Reseptit/Iso'), steps: [] });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toMatchObject({
      'document.title': 'admin.error.required',
      'document.path': 'admin.recipe.pathInvalid',
      'document.steps': 'admin.recipe.stepsRequired',
    });
  });
});

describe('no silent overwrite', () => {
  it('answers a save made on an older version 409 with the newest, and writes nothing', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Broilerivartaat', '/reseptit/vartaat')),
    );
    const id = made.item.id;
    await opened(
      await save(
        publisher.visitor,
        id,
        1,
        recipe('Broilerivartaat grillissä', '/reseptit/vartaat'),
      ),
    );
    const stale = await save(
      editor.visitor,
      id,
      1,
      recipe('Broilerivartaat uunissa', '/reseptit/vartaat'),
    );
    expect(stale.statusCode, stale.body).toBe(409);
    const problem = stale.json() as {
      type: string;
      current: { version: number; authorId: string; document: RecipeDocument };
    };
    expect(problem.type).toBe('/problems/stale-version');
    expect(problem.current.version).toBe(2);
    expect(problem.current.authorId).toBe(publisher.id);
    expect(problem.current.document.title).toBe('Broilerivartaat grillissä');
    const versions = await t.app.db
      .select({ version: contentVersions.version })
      .from(contentVersions)
      .where(and(eq(contentVersions.kind, 'recipe'), eq(contentVersions.itemId, id)));
    expect(versions.map((v) => v.version).sort()).toEqual([1, 2]);
    // Reapplied on the newest: saved.
    const reapplied = await opened(
      await save(editor.visitor, id, 2, recipe('Broilerivartaat uunissa', '/reseptit/vartaat')),
    );
    expect(reapplied.head.version).toBe(3);
    // Publishing an older version than the newest is stale too.
    const old = await publish(publisher.visitor, id, 2);
    expect(old.statusCode).toBe(409);
  });

  it('shows who else has the recipe open, until they leave', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Broileriwokki', '/reseptit/wokki')),
    );
    const id = made.item.id;
    const mine = await editor.visitor.request('PUT', `${RECIPES_ADMIN_API}/${id}/presence`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().present).toEqual([]);
    const theirs = await publisher.visitor.request('PUT', `${RECIPES_ADMIN_API}/${id}/presence`);
    expect(theirs.json().present.map((p: { staffId: string }) => p.staffId)).toEqual([editor.id]);
    expect(
      (await opened(await publisher.visitor.get(`${RECIPES_ADMIN_API}/${id}`))).present,
    ).toHaveLength(1);
    // Opening is an audit row; the beats that keep it open are not.
    await editor.visitor.request('PUT', `${RECIPES_ADMIN_API}/${id}/presence`);
    const opens = (await auditOf(t.app, 'content.open')).filter((a) => a.subjectId === String(id));
    expect(opens.map((a) => a.staffId).sort()).toEqual([editor.id, publisher.id].sort());
    await editor.visitor.delete(`${RECIPES_ADMIN_API}/${id}/presence`);
    expect(
      (await auditOf(t.app, 'content.close')).filter((a) => a.subjectId === String(id)),
    ).toHaveLength(1);
    const after = await publisher.visitor.request('PUT', `${RECIPES_ADMIN_API}/${id}/presence`);
    expect(after.json().present).toEqual([]);
  });
});

describe('versions', () => {
  it('of a seeded recipe start from its live row', async () => {
    const open = await opened(await editor.visitor.get(`${RECIPES_ADMIN_API}/${seededId}`));
    expect(open.item).toMatchObject({ headVersion: 1, publishedVersion: 1 });
    expect(open.item.publishedPath).toBe(open.head.document.path);
    expect(open.head).toMatchObject({ version: 1, status: 'published', authorId: null });
    expect(open.head.document.title).toBe('Kanakeitto');
    // Publishing what is live already writes nothing, not even the versions' bookkeeping.
    const audits = (await auditOf(t.app, 'content.publish')).length;
    const again = await opened(await publish(publisher.visitor, seededId, 1));
    expect(again.item.headVersion).toBe(1);
    expect((await auditOf(t.app, 'content.publish')).length).toBe(audits);
    expect(
      await t.app.db.$count(
        contentVersions,
        and(eq(contentVersions.kind, 'recipe'), eq(contentVersions.itemId, seededId)),
      ),
    ).toBe(0);

    const before = contentVersion();
    const saved = await opened(
      await save(editor.visitor, seededId, 1, {
        ...open.head.document,
        title: 'Kanakeitto inkiväärillä',
      }),
    );
    expect(saved.versions.map((v) => [v.version, v.status])).toEqual([
      [2, 'draft'],
      [1, 'published'],
    ]);
    expect(contentVersion()).toBe(before);
    expect((await liveRow(seededId))?.title).toBe('Kanakeitto');
  });

  it('of a published path that moves: the old path answers 301 once the new one is published (decision 165)', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Broilerikeitto', '/reseptit/broilerikeitto')),
    );
    const id = made.item.id;
    await opened(await publish(publisher.visitor, id, 1));
    const moved = await opened(
      await save(editor.visitor, id, 1, recipe('Broilerikeitto', '/reseptit/kanakeitto-arkeen')),
    );
    expect(moved.item.publishedPath).toBe('/reseptit/broilerikeitto');
    // A draft moves nothing: the published path is still the page.
    expect((await anonymous('/reseptit/broilerikeitto')).statusCode).toBe(200);
    expect((await anonymous('/reseptit/kanakeitto-arkeen')).statusCode).toBe(404);
    await opened(await publish(publisher.visitor, id, 2));
    const old = await anonymous('/reseptit/broilerikeitto?lahde=haku');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/reseptit/kanakeitto-arkeen?lahde=haku');
    expect((await anonymous('/reseptit/kanakeitto-arkeen')).statusCode).toBe(200);
    expect((await liveRow(id))?.path).toBe('/reseptit/kanakeitto-arkeen');
  });

  it('compare field by field, and an old version comes back as a new draft', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Broileripasta', '/reseptit/broileripasta')),
    );
    const id = made.item.id;
    await opened(await publish(publisher.visitor, id, 1));
    await opened(
      await save(
        editor.visitor,
        id,
        1,
        recipe('Broileripasta pestolla', '/reseptit/broileripasta'),
      ),
    );
    const v1 = (await editor.visitor.get(`${RECIPES_ADMIN_API}/${id}/versions/1`)).json();
    const v2 = (await editor.visitor.get(`${RECIPES_ADMIN_API}/${id}/versions/2`)).json();
    expect(diffDocuments(v1.document, v2.document)).toEqual([
      { path: 'title', field: 'title', before: 'Broileripasta', after: 'Broileripasta pestolla' },
    ]);

    const restored = await opened(
      await editor.visitor.post(
        `${RECIPES_ADMIN_API}/${id}/restore`,
        json({ version: 1, basedOn: 2 }),
      ),
    );
    expect(restored.head).toMatchObject({ version: 3, status: 'draft', restoredFrom: 1 });
    expect(restored.head.document.title).toBe('Broileripasta');
    expect(restored.item.publishedVersion).toBe(1);
    const audit = (await auditOf(t.app, 'content.restore')).find((a) => a.subjectId === String(id));
    expect(audit?.changes).toMatchObject({
      restoredFrom: { after: 1 },
      title: { before: 'Broileripasta pestolla', after: 'Broileripasta' },
    });

    const stale = await editor.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/restore`,
      json({ version: 1, basedOn: 2 }),
    );
    expect(stale.statusCode).toBe(409);
  });
});

describe('the grants’ sites and languages', () => {
  it('refuse another site and another language, and list only what they reach', async () => {
    expect((await editor.visitor.get(`${RECIPES_ADMIN_API}/${sibyllaRecipeId}`)).statusCode).toBe(
      403,
    );
    const doc = recipe('Nakkikastike', '/reseptit/nakkikastike', {
      imageId: null,
      facetTagIds: [],
      categoryIds: [],
    });
    expect((await save(editor.visitor, sibyllaRecipeId, 1, doc)).statusCode).toBe(403);
    expect((await publish(publisher.visitor, sibyllaRecipeId, 1)).statusCode).toBe(403);
    expect(
      (
        await editor.visitor.post(
          `${RECIPES_ADMIN_API}/${sibyllaRecipeId}/preview`,
          json({ version: 1 }),
        )
      ).statusCode,
    ).toBe(403);
    expect((await create(editor.visitor, doc, 'sibylla', 'fi')).statusCode).toBe(403);
    expect((await create(editor.visitor, doc, 'jyvabroiler', 'sv')).statusCode).toBe(403);
    expect(
      (await editor.visitor.get(`${RECIPES_ADMIN_API}/options?site=sibylla&lang=fi`)).statusCode,
    ).toBe(403);

    const sibyllaFinnish = await enrolledStaff(t.app, [
      { role: 'publisher', sites: ['sibylla'], langs: ['fi'] },
    ]);
    expect((await create(sibyllaFinnish.visitor, doc, 'sibylla', 'sv')).statusCode).toBe(403);
    const own = { ...doc, path: '/reseptit/uusi-nakkikastike' };
    expect(
      (await opened(await create(sibyllaFinnish.visitor, own, 'sibylla', 'fi'))).item.siteId,
    ).toBe('sibylla');

    const list = (await editor.visitor.get(RECIPES_ADMIN_API)).json() as RecipesList;
    expect(list.recipes.length).toBeGreaterThan(0);
    expect(list.recipes.every((r) => r.siteId === 'jyvabroiler' && r.lang === 'fi')).toBe(true);
    expect(list.scopes).toEqual([{ siteId: 'jyvabroiler', lang: 'fi' }]);
    expect(list.recipes.find((r) => r.title === 'Kookosbroileri limellä')?.state).toBe('draft');
    expect(list.recipes.find((r) => r.title === 'Kanakeitto')?.state).toBe('changed');
    expect(list.recipes.find((r) => r.title === 'Sitruunabroileri')?.state).toBe('published');
  });
});

describe('preview links', () => {
  it('show a draft on the site’s renderer: marked, no-store, noindex, never cached', async () => {
    const made = await opened(
      await create(editor.visitor, recipe('Salainen broileri', '/reseptit/salainen')),
    );
    const id = made.item.id;
    const link = await editor.visitor.post(
      `${RECIPES_ADMIN_API}/${id}/preview`,
      json({ version: 1 }),
    );
    expect(link.statusCode, link.body).toBe(200);
    const { url, expiresAt } = link.json() as { url: string; expiresAt: string };
    expect(url).toMatch(/^http:\/\/jyvabroiler\.localhost(:\d+)?\/_preview\/[\w-]+\.[\w-]+$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
    const path = new URL(url).pathname;
    for (let i = 0; i < 2; i++) {
      const page = await anonymous(path);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
      expect(hit(page)).toBe(false);
      expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
      expect(page.body).toContain('data-preview-mark');
      expect(page.body).toContain('Esikatselu: versio 1.');
      expect(page.body).toContain('<h1>Salainen broileri</h1>');
      expect(page.body).toContain('currytahnaa');
    }
    // Still not on the site.
    expect((await anonymous('/reseptit/salainen')).statusCode).toBe(404);
    expect((await auditOf(t.app, 'content.preview')).some((a) => a.subjectId === String(id))).toBe(
      true,
    );

    // Another site's address, a changed token, an expired one: nothing.
    expect(
      (await t.app.inject({ url: path, headers: { host: 'sibylla.localhost' } })).statusCode,
    ).toBe(404);
    const tampered = `${path.slice(0, -3)}${path.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    expect((await anonymous(tampered)).statusCode).toBe(404);
    const secret = t.app.config.sessionSecret;
    const claims = { k: 'recipe' as const, i: id, v: 1, s: 'jyvabroiler', l: 'fi' };
    const expired = await anonymous(
      `/_preview/${signPreview(secret, { ...claims, e: Date.now() - 1000 })}`,
    );
    expect(expired.statusCode).toBe(404);
    expect(expired.headers['cache-control']).toBe('no-store');
    expect(expired.body).not.toContain('Salainen broileri');
    const fresh = await anonymous(
      `/_preview/${signPreview(secret, { ...claims, e: Date.now() + 60_000 })}`,
    );
    expect(fresh.statusCode).toBe(200);
  });
});

describe('the image library', () => {
  const dataUrl = (mime: string, bytes: Buffer) =>
    `data:${mime};base64,${bytes.toString('base64')}`;
  const upload = (v: Visitor, data: string, site = 'jyvabroiler', lang = 'fi') =>
    v.post(`${CONTENT_IMAGES_API}?site=${site}&lang=${lang}`, json({ data, alt: 'Broileripata' }));

  it('takes a picture checked by its bytes, stores it for the image route, and a recipe uses it', async () => {
    const picture = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#d35400' },
    })
      .png()
      .toBuffer();
    // The URL's claimed type is not trusted: the bytes say PNG.
    const res = await upload(editor.visitor, dataUrl('image/jpeg', picture));
    expect(res.statusCode, res.body).toBe(200);
    const made = res.json() as { id: number; width: number; height: number; thumbUrl: string };
    expect(made).toMatchObject({ width: 640, height: 480 });
    const [row] = await t.app.db.select().from(images).where(eq(images.id, made.id));
    expect(row).toMatchObject({ mime: 'image/png', alt: { fi: 'Broileripata' } });
    const crop = await t.app.inject({ url: made.thumbUrl });
    expect(crop.statusCode).toBe(200);
    expect((await sharp(crop.rawPayload).metadata()).width).toBe(160);
    const audit = (await auditOf(t.app, 'content.image.upload')).find(
      (a) => a.subjectId === String(made.id),
    );
    expect(audit?.staffId).toBe(editor.id);
    const used = await create(
      editor.visitor,
      recipe('Ladattu broileri', '/reseptit/ladattu', { imageId: made.id }),
    );
    expect(used.statusCode, used.body).toBe(200);
  });

  it('refuses what is no picture, what does not decode, and another site', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const before = await t.app.db.$count(images);
    const notPicture = await upload(editor.visitor, dataUrl('image/png', pdf));
    expect(notPicture.statusCode).toBe(400);
    expect(notPicture.json().errors).toEqual({ data: 'admin.recipe.imageType' });
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const broken = await upload(editor.visitor, dataUrl('image/png', png.subarray(0, 40)));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().errors).toEqual({ data: 'admin.recipe.imageUnreadable' });
    expect(
      (await upload(editor.visitor, dataUrl('image/png', png), 'sibylla', 'fi')).statusCode,
    ).toBe(403);
    expect(await t.app.db.$count(images)).toBe(before);
  });
});
