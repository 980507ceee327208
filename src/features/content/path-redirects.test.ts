import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createRecipe } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type PathChange, recordPathChange } from './path-redirects.server.ts';
import { pages, pathRedirects, recipes } from './tables.ts';

/**
 * Decision 165: a published path that moves keeps answering, with 301 to where it went; chains
 * collapse to one hop, a path that is live again is served, and nothing leads off the site.
 */

let t: TestApp;
const HOST = { host: 'jyvabroiler.localhost' };
const get = (url: string, headers: Record<string, string> = HOST) => t.app.inject({ url, headers });

/** Moves an item's path and records it, as publishing a moved path does: one transaction. */
async function move(table: typeof pages | typeof recipes, change: PathChange) {
  await t.app.db.transaction(async (tx) => {
    await tx.update(table).set({ path: change.to }).where(eq(table.path, change.from));
    await recordPathChange(tx, change);
  });
}

const fi = (from: string, to: string): PathChange => ({
  siteId: 'jyvabroiler',
  lang: 'fi',
  from,
  to,
});

beforeAll(async () => {
  t = await createTestApp();
  const home = await createPage(t.app.db, {
    siteId: 'jyvabroiler',
    path: '/',
    type: 'home',
    title: 'Jyväbroileri',
  });
  await createPage(t.app.db, {
    siteId: 'jyvabroiler',
    path: '/yhteystiedot',
    type: 'content',
    title: 'Yhteystiedot',
    parentId: home.id,
  });
  await createRecipe(t.app.db, {
    siteId: 'jyvabroiler',
    path: '/reseptit/broilerivartaat',
    title: 'Broilerivartaat',
  });
});

afterAll(async () => {
  await t?.close();
});

describe('a moved path', () => {
  it('answers 301 to the new path, with the query kept, and the new path is the page', async () => {
    await move(pages, fi('/yhteystiedot', '/ota-yhteytta'));
    const old = await get('/yhteystiedot?lahde=uutiskirje');
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/ota-yhteytta?lahde=uutiskirje');
    expect((await get('/ota-yhteytta')).statusCode).toBe(200);
  });

  it('points every older path at the current one: one hop, never a chain', async () => {
    await move(recipes, fi('/reseptit/broilerivartaat', '/reseptit/vartaat'));
    await move(recipes, fi('/reseptit/vartaat', '/reseptit/grillivartaat'));
    for (const old of ['/reseptit/broilerivartaat', '/reseptit/vartaat']) {
      const res = await get(old);
      expect(res.statusCode).toBe(301);
      expect(res.headers.location).toBe('/reseptit/grillivartaat');
    }
    expect((await get('/reseptit/grillivartaat')).statusCode).toBe(200);
  });

  it('is served again when an item takes it back, and the way back redirects', async () => {
    await move(recipes, fi('/reseptit/grillivartaat', '/reseptit/broilerivartaat'));
    expect((await get('/reseptit/broilerivartaat')).statusCode).toBe(200);
    const rows = await t.app.db
      .select()
      .from(pathRedirects)
      .where(eq(pathRedirects.toPath, '/reseptit/broilerivartaat'));
    expect(rows.map((r) => r.fromPath).sort()).toEqual([
      '/reseptit/grillivartaat',
      '/reseptit/vartaat',
    ]);
    expect(rows.every((r) => r.fromPath !== r.toPath)).toBe(true);
  });

  it('is per site and language: the same path elsewhere is still 404', async () => {
    expect((await get('/yhteystiedot', { host: 'sibylla.localhost' })).statusCode).toBe(404);
    expect((await get('/sv/yhteystiedot')).statusCode).toBe(404);
    expect((await get('/ei-ole-olemassa')).statusCode).toBe(404);
  });

  it('cannot be stored pointing off the site or at itself', async () => {
    const insert = (toPath: string, fromPath = '/vanha') =>
      t.app.db
        .insert(pathRedirects)
        .values({ siteId: 'jyvabroiler', lang: 'fi', fromPath, toPath });
    await expect(insert('//evil.example/')).rejects.toThrow();
    await expect(insert('https://evil.example/')).rejects.toThrow();
    await expect(insert('/vanha')).rejects.toThrow();
    await expect(insert('/uusi', '//evil.example')).rejects.toThrow();
  });
});
