import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createNews,
  createPage,
  createProduct,
  createRecipe,
  createRecipeSite,
  recipeDocument,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { images } from '../../../images/tables.ts';
import { variantKey } from '../../../images/variants.server.ts';
import { CONTENT_IMAGES_API, RECIPES_ADMIN_API } from '../publishing/schemas.ts';
import { type ImageUse, MEDIA_ADMIN_API, type MediaImage, type MediaList } from './schemas.ts';

/**
 * The media library (decision 168) through the HTTP API: alt texts per language on the image's
 * version (409 when stale, audited, a language's grant needed), where an image is used (live
 * pages' nested blocks, recipes, products, news releases and unpublished drafts), delete refused
 * while anything uses it and allowed (with its files) when nothing does, and a new file for an
 * image that every page shows at new crop addresses.
 */
const HOST = { host: 'jyvabroiler.localhost' };
/** Races are real only with several connections: on PostgreSQL. */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
/** Content editor of every site and language. */
let everywhere: Enrolled;
/** Content editor of jyvabroiler in Finnish only. */
let finnish: Enrolled;

const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const picture = (background: string, width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

async function upload(v: Visitor, alt: string, colour = '#d35400'): Promise<number> {
  const res = await v.post(
    `${CONTENT_IMAGES_API}?site=jyvabroiler&lang=fi`,
    json({ data: dataUrl(await picture(colour)), alt }),
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }).id;
}

function recipeOf(path: string, imageId: number, title = 'Resepti') {
  return recipeDocument({
    path,
    title,
    imageId,
    steps: [{ heading: 'Tee', instructions: 'Tee näin.', ingredients: [] }],
  });
}

async function opened(res: LightMyRequestResponse): Promise<MediaImage> {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as MediaImage;
}

const open = (v: Visitor, id: number) => v.get(`${MEDIA_ADMIN_API}/${id}`);
const edit = (v: Visitor, id: number, body: unknown) =>
  v.request('PUT', `${MEDIA_ADMIN_API}/${id}`, json(body));
const replace = (v: Visitor, id: number, version: number, data: string) =>
  v.request('PUT', `${MEDIA_ADMIN_API}/${id}/file`, json({ version, data }));
const remove = (v: Visitor, id: number, version: number) =>
  v.delete(`${MEDIA_ADMIN_API}/${id}?version=${version}`);

/** The red, green and blue of the middle pixel of a picture the image route answered. */
async function middle(res: LightMyRequestResponse): Promise<number[]> {
  const { data, info } = await sharp(res.rawPayload).raw().toBuffer({ resolveWithObject: true });
  const at =
    (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
  return [data[at] ?? -1, data[at + 1] ?? -1, data[at + 2] ?? -1];
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createRecipeSite(db);
  everywhere = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
  finnish = await enrolledStaff(t.app, [{ role: 'editor', sites: ['jyvabroiler'], langs: ['fi'] }]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('alt texts', () => {
  it('change per language on the version seen; a stale change is 409 and writes nothing', async () => {
    const id = await upload(everywhere.visitor, 'Broileripata');
    const first = await opened(await open(everywhere.visitor, id));
    expect(first).toMatchObject({ version: 1, revision: 1, alt: { fi: 'Broileripata' } });

    const saved = await opened(
      await edit(everywhere.visitor, id, { version: 1, alt: { sv: 'Kycklinggryta' } }),
    );
    expect(saved).toMatchObject({ version: 2, alt: { fi: 'Broileripata', sv: 'Kycklinggryta' } });
    // Alt texts do not change the pixels: the crops keep their addresses.
    expect(saved.revision).toBe(1);
    expect(saved.thumbUrl).toBe(first.thumbUrl);
    const audit = (await auditOf(t.app, 'content.image.edit')).find(
      (a) => a.subjectId === String(id),
    );
    expect(audit?.staffId).toBe(everywhere.id);
    expect(audit?.changes).toEqual({ 'alt.sv': { before: null, after: 'Kycklinggryta' } });

    const stale = await edit(everywhere.visitor, id, { version: 1, alt: { en: 'Chicken stew' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      type: '/problems/stale-version',
      current: { version: 2, alt: { sv: 'Kycklinggryta' } },
    });
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    expect(row?.alt).toEqual({ fi: 'Broileripata', sv: 'Kycklinggryta' });
    expect(row?.version).toBe(2);

    // An empty text takes the language's text away.
    const cleared = await opened(
      await edit(everywhere.visitor, id, { version: 2, alt: { sv: '' } }),
    );
    expect(cleared.alt).toEqual({ fi: 'Broileripata' });
  });

  it('needs content.edit for the language: a Finnish editor changes Finnish only', async () => {
    const id = await upload(everywhere.visitor, 'Kanasalaatti');
    const swedish = await edit(finnish.visitor, id, { version: 1, alt: { sv: 'Kycklingsallad' } });
    expect(swedish.statusCode).toBe(403);
    const fi = await opened(
      await edit(finnish.visitor, id, { version: 1, alt: { fi: 'Kanasalaatti kulhossa' } }),
    );
    expect(fi.alt).toEqual({ fi: 'Kanasalaatti kulhossa' });
    const invalid = await edit(finnish.visitor, id, { version: 2, focus: { x: 1.5, y: 0 } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toHaveProperty(['focus.x']);
  });
});

describe('where an image is used', () => {
  let used = 0;
  let draftOnly = 0;
  let draftRecipe = 0;

  beforeAll(async () => {
    const db = t.app.db;
    used = await upload(everywhere.visitor, 'Käytetty kuva');
    draftOnly = await upload(everywhere.visitor, 'Luonnoksen kuva');
    await createPage(db, {
      siteId: 'jyvabroiler',
      path: '/kampanja',
      type: 'content',
      title: 'Kampanja',
      blocks: [
        {
          type: 'card-grid',
          cardType: 'headerImageSquare',
          cards: [
            { type: 'headerImageSquare', link: '/a', header: 'Ilman kuvaa' },
            { type: 'headerImageSquare', link: '/b', header: 'Kuvalla', imageId: used },
          ],
        },
      ],
    });
    await createPage(db, {
      siteId: 'sibylla',
      path: '/hero',
      type: 'content',
      title: 'Sibyllan etusivun karuselli',
      blocks: [{ type: 'hero-carousel', slides: [{ imageId: used, text: 'Grilli' }] }],
    });
    await createRecipe(db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/kanakeitto',
      title: 'Kanakeitto',
      imageId: used,
    });
    await createProduct(db, {
      siteId: 'jyvabroiler',
      path: '/tuotteet/fileesuikale',
      name: 'Fileesuikale',
      imageIds: [1, used],
    });
    await createNews(db, {
      siteId: 'jyvabroiler',
      path: '/uutiset/uusi-tehdas',
      title: 'Uusi tehdas',
      imageId: used,
    });
    const made = await everywhere.visitor.post(
      `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`,
      json({ document: recipeOf('/reseptit/luonnos', draftOnly, 'Luonnosresepti') }),
    );
    expect(made.statusCode, made.body).toBe(200);
    draftRecipe = (made.json() as { item: { id: number } }).item.id;
  });

  it('lists live pages (nested cards and slides), recipes, products, news and drafts', async () => {
    const image = await opened(await open(everywhere.visitor, used));
    const places = image.uses.map((u) => `${u.kind} ${u.siteId} ${u.title} ${u.state}`).sort();
    expect(places).toEqual([
      'news jyvabroiler Uusi tehdas live',
      'page jyvabroiler Kampanja live',
      'page sibylla Sibyllan etusivun karuselli live',
      'product jyvabroiler Fileesuikale live',
      'recipe jyvabroiler Kanakeitto live',
    ]);
    expect(image.elsewhere).toBe(0);
    // The Finnish jyvabroiler editor sees the places of her grant; the other one is counted.
    const limited = await opened(await open(finnish.visitor, used));
    expect(limited.uses.map((u) => u.siteId)).toEqual(Array(4).fill('jyvabroiler'));
    expect(limited.elsewhere).toBe(1);
    // …and may not change what sibylla shows: alt texts, focus point, file, delete.
    expect((await edit(finnish.visitor, used, { version: 1, alt: { fi: 'Muu' } })).statusCode).toBe(
      403,
    );
    expect((await remove(finnish.visitor, used, 1)).statusCode).toBe(403);
    const draft = await opened(await open(finnish.visitor, draftOnly));
    expect(draft.uses).toEqual([
      {
        kind: 'recipe',
        id: draftRecipe,
        siteId: 'jyvabroiler',
        lang: 'fi',
        title: 'Luonnosresepti',
        path: '/reseptit/luonnos',
        state: 'draft',
      },
    ]);
  });

  it('refuses to delete what a live page or only a draft uses, with every place', async () => {
    const refused = await remove(everywhere.visitor, used, 1);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ type: '/problems/image-in-use', elsewhere: 0 });
    expect((refused.json() as { uses: ImageUse[] }).uses).toHaveLength(5);
    const draft = await remove(everywhere.visitor, draftOnly, 1);
    expect(draft.statusCode).toBe(409);
    expect((draft.json() as { uses: ImageUse[] }).uses.map((u) => u.state)).toEqual(['draft']);
    expect(await t.app.db.$count(images, eq(images.id, used))).toBe(1);
    expect(await t.app.db.$count(images, eq(images.id, draftOnly))).toBe(1);
  });

  it('deletes an unused image with its files, on the version seen, audited', async () => {
    const id = await upload(everywhere.visitor, 'Turha kuva');
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    if (!row) throw new Error('no row');
    const thumb = await t.app.inject({
      url: (await opened(await open(everywhere.visitor, id))).thumbUrl,
    });
    expect(thumb.statusCode).toBe(200);
    const crop = variantKey(id, 'thumbnail-medium', 'jpeg');
    expect(await t.app.files.exists(crop)).toBe(true);

    await edit(everywhere.visitor, id, { version: 1, alt: { en: 'Useless picture' } });
    const stale = await remove(everywhere.visitor, id, 1);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ type: '/problems/stale-version' });

    const done = await remove(everywhere.visitor, id, 2);
    expect(done.statusCode, done.body).toBe(200);
    expect(await t.app.db.$count(images, eq(images.id, id))).toBe(0);
    expect(await t.app.files.exists(row.storageKey)).toBe(false);
    expect(await t.app.files.exists(crop)).toBe(false);
    expect(
      (await t.app.inject({ url: `/images/${id}/x.jpg?preset=thumbnail-medium` })).statusCode,
    ).toBe(404);
    const audit = (await auditOf(t.app, 'content.image.delete')).find(
      (a) => a.subjectId === String(id),
    );
    expect(audit?.staffId).toBe(everywhere.id);
    expect((await open(everywhere.visitor, id)).statusCode).toBe(404);
  });

  it.runIf(onPostgres)(
    'a delete and a save naming the image at once: never a draft left pointing at nothing',
    async () => {
      const outcomes = new Set<string>();
      for (let round = 0; round < 8; round++) {
        const id = await upload(everywhere.visitor, `Kilpa ${round}`);
        const [deleted, saved] = await Promise.all([
          remove(everywhere.visitor, id, 1),
          everywhere.visitor.post(
            `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`,
            json({ document: recipeOf(`/reseptit/kilpa-${round}`, id) }),
          ),
        ]);
        outcomes.add(`${deleted.statusCode} ${saved.statusCode}`);
        const exists = await t.app.db.$count(images, eq(images.id, id));
        if (deleted.statusCode === 200) {
          expect(saved.statusCode).toBe(400);
          expect(exists).toBe(0);
        } else {
          expect([deleted.statusCode, saved.statusCode]).toEqual([409, 200]);
          expect(exists).toBe(1);
        }
      }
      expect(outcomes.size).toBeGreaterThan(0);
    },
  );

  it('a save naming a deleted image is refused by the recipe’s reference check', async () => {
    const id = await upload(everywhere.visitor, 'Pian poissa');
    expect((await remove(everywhere.visitor, id, 1)).statusCode).toBe(200);
    const made = await everywhere.visitor.post(
      `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`,
      json({ document: recipeOf('/reseptit/poissa', id) }),
    );
    expect(made.statusCode).toBe(400);
    expect(made.json().errors).toEqual({ 'document.imageId': 'admin.recipe.imageMissing' });
  });
});

describe('a new file for an image', () => {
  it('shows everywhere at new crop addresses; the page is made again; the old files go', async () => {
    const id = await upload(everywhere.visitor, 'Vaihdettava kuva', '#ff0000');
    await createRecipe(t.app.db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/vaihdettava',
      title: 'Vaihdettava',
      imageId: id,
    });
    const page = () => t.app.inject({ url: '/reseptit/vaihdettava', headers: HOST });
    const before = await page();
    expect(before.statusCode).toBe(200);
    expect((await page()).headers['x-page-cache']).toBe('hit');
    const oldUrl = `/images/${id}/image.jpg?preset=three-by-two-crop`;
    expect(before.body).toContain(oldUrl);
    const red = await t.app.inject({ url: oldUrl });
    expect(await middle(red)).toEqual([
      expect.closeTo(255, -1),
      expect.closeTo(0, -1),
      expect.closeTo(0, -1),
    ]);
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    if (!row) throw new Error('no row');

    const notPicture = await replace(
      everywhere.visitor,
      id,
      1,
      `data:image/png;base64,${Buffer.from('%PDF-1.4 nothing').toString('base64')}`,
    );
    expect(notPicture.statusCode).toBe(400);
    expect(notPicture.json().errors).toEqual({ data: 'admin.recipe.imageType' });

    const blue = dataUrl(await picture('#0000ff', 800, 600));
    const done = await opened(await replace(everywhere.visitor, id, 1, blue));
    expect(done).toMatchObject({ version: 2, revision: 2, width: 800, height: 600 });
    expect(done.cropUrl).toContain('&v=2');
    const audit = (await auditOf(t.app, 'content.image.replace')).find(
      (a) => a.subjectId === String(id),
    );
    expect(audit?.staffId).toBe(everywhere.id);

    // A content change: the cached page is made again, with the new addresses.
    const after = await page();
    expect(after.headers['x-page-cache']).not.toBe('hit');
    expect(after.body).toContain(`${oldUrl}&amp;v=2`);
    const newCrop = await t.app.inject({ url: `${oldUrl}&v=2` });
    expect(newCrop.headers['cache-control']).toContain('immutable');
    expect(await middle(newCrop)).toEqual([
      expect.closeTo(0, -1),
      expect.closeTo(0, -1),
      expect.closeTo(255, -1),
    ]);
    // A revision is written in plain digits only, as the id is.
    expect((await t.app.inject({ url: `${oldUrl}&v=02` })).statusCode).toBe(400);
    // The old address shows the new picture too, kept only for a minute.
    const old = await t.app.inject({ url: oldUrl });
    expect(old.headers['cache-control']).toBe('public, max-age=60');
    expect(await middle(old)).toEqual([
      expect.closeTo(0, -1),
      expect.closeTo(0, -1),
      expect.closeTo(255, -1),
    ]);
    expect(await t.app.files.exists(row.storageKey)).toBe(false);
    expect(await t.app.files.exists(variantKey(id, 'three-by-two-crop', 'jpeg'))).toBe(false);

    const stale = await replace(everywhere.visitor, id, 1, blue);
    expect(stale.statusCode).toBe(409);
  });

  it('needs content.edit wherever the image is used, and so does its focus point', async () => {
    const id = await upload(everywhere.visitor, 'Sibyllan kuva');
    await createRecipe(t.app.db, { siteId: 'sibylla', path: '/reseptit/sibylla', imageId: id });
    const green = dataUrl(await picture('#00ff00'));
    expect((await replace(finnish.visitor, id, 1, green)).statusCode).toBe(403);
    expect(
      (await edit(finnish.visitor, id, { version: 1, focus: { x: 0.2, y: 0.2 } })).statusCode,
    ).toBe(403);
    const [row] = await t.app.db.select().from(images).where(eq(images.id, id));
    expect(row).toMatchObject({ version: 1, revision: 1, focusX: 0.5 });
  });
});

describe('the focus point', () => {
  it('is stored, gives the crops new addresses, and they are cut around it', async () => {
    // Blue, with a red square in the top left corner.
    const base = await sharp({
      create: { width: 1200, height: 600, channels: 3, background: '#0000ff' },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 200, height: 200, channels: 3, background: '#ff0000' },
          })
            .png()
            .toBuffer(),
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const res = await everywhere.visitor.post(
      `${CONTENT_IMAGES_API}?site=jyvabroiler&lang=fi`,
      json({ data: dataUrl(base), alt: 'Punainen kulma' }),
    );
    const id = (res.json() as { id: number }).id;
    const before = await opened(await open(everywhere.visitor, id));
    const centred = await t.app.inject({ url: `/images/${id}/x.jpg?preset=card-square` });
    const corner = async (r: LightMyRequestResponse) => {
      const { data } = await sharp(r.rawPayload).raw().toBuffer({ resolveWithObject: true });
      return [data[0], data[1], data[2]];
    };
    // The centre crop (300..900 of 1200) leaves the red corner out.
    expect((await corner(centred))[2]).toBeGreaterThan(200);

    const moved = await opened(
      await edit(everywhere.visitor, id, { version: 1, focus: { x: 0.05, y: 0.1 } }),
    );
    expect(moved).toMatchObject({ focus: { x: 0.05, y: 0.1 }, revision: 2, version: 2 });
    expect(moved.cropUrl).not.toBe(before.cropUrl);
    const cropped = await t.app.inject({ url: `/images/${id}/x.jpg?preset=card-square&v=2` });
    expect((await corner(cropped))[0]).toBeGreaterThan(200);
    expect((await corner(cropped))[2]).toBeLessThan(60);
    const audit = (await auditOf(t.app, 'content.image.edit')).find(
      (a) => a.subjectId === String(id),
    );
    expect(audit?.changes).toEqual({
      focus: { before: { x: 0.5, y: 0.5 }, after: { x: 0.05, y: 0.1 } },
    });
  });
});

describe('the library', () => {
  it('lists images by alt text in any language, 50 at a time', async () => {
    const id = await upload(everywhere.visitor, 'Ainutlaatuinen');
    await edit(everywhere.visitor, id, { version: 1, alt: { sv: 'Enastående bild' } });
    const res = await finnish.visitor.get(`${MEDIA_ADMIN_API}?q=enast`);
    expect(res.statusCode).toBe(200);
    const list = res.json() as MediaList;
    expect(list.images.map((i) => i.id)).toEqual([id]);
    expect(list).toMatchObject({ total: 1, pageSize: 50 });
    // Where she may upload: her one site and language.
    expect(list.scopes).toEqual([{ siteId: 'jyvabroiler', lang: 'fi' }]);
    const all = (await finnish.visitor.get(MEDIA_ADMIN_API)).json() as MediaList;
    expect(all.total).toBeGreaterThan(5);
    const visitorOnly = await t.app.inject({ url: MEDIA_ADMIN_API });
    expect(visitorOnly.statusCode).toBe(401);
  });
});
