import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createImage,
  createRecipeSite,
  recipeDocument,
} from '../../../../tests/factories/index.ts';
import { type Enrolled, enrolledStaff, json } from '../../../../tests/helpers/staff.ts';
import { twoServersOnPostgres } from '../../../../tests/helpers/two-servers.ts';
import { RECIPES_ADMIN_API, type RecipeOpen } from './schemas.ts';

/**
 * Decision 162 on PostgreSQL with two servers on one database (two processes' pools and LISTEN
 * connections): a draft saved through one leaves the other's cached listing as it was (it is
 * still served from its cache); a publish through one shows on the very next request to the
 * other, whose page cache held the listing without the recipe, and in its search.
 */
const template = inject('templateDatabase');
const onPostgres = template.engine === 'postgres';
const HOST = { host: 'jyvabroiler.localhost' };
const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';

describe.runIf(onPostgres)('publishing across processes (PostgreSQL)', () => {
  const { apps, handles } = twoServersOnPostgres(template);
  let publisher: Enrolled;
  let imageId = 0;

  beforeAll(async () => {
    if (template.engine !== 'postgres') return;
    const db = handles[0]?.db;
    if (!db || !apps[0]) throw new Error('no database');
    await createRecipeSite(db);
    imageId = (await createImage(db)).id;
    publisher = await enrolledStaff(apps[0], [
      { role: 'publisher', sites: ['jyvabroiler'], langs: ['fi'] },
    ]);
  }, 120_000);

  const document = (title: string, path: string) => recipeDocument({ path, title, imageId });

  it('a draft leaves the other server’s cache serving; a publish reaches it on the next request', async () => {
    const [writer, reader] = apps;
    const [, readerHandle] = handles;
    if (!writer || !reader || !readerHandle) throw new Error('two apps');
    for (let round = 1; round <= 5; round++) {
      const title = `Kierrosbroileri ${round}`;
      const path = `/reseptit/kierros-${round}`;
      await reader.inject({ url: '/reseptit', headers: HOST });
      expect(hit(await reader.inject({ url: '/reseptit', headers: HOST }))).toBe(true);

      const made = await publisher.visitor.post(
        `${RECIPES_ADMIN_API}?site=jyvabroiler&lang=fi`,
        json({ document: document(title, path) }),
      );
      expect(made.statusCode, made.body).toBe(200);
      const { item } = made.json() as RecipeOpen;
      const saved = await publisher.visitor.request(
        'PUT',
        `${RECIPES_ADMIN_API}/${item.id}`,
        json({ basedOn: 1, document: document(title, path) }),
      );
      expect(saved.statusCode, saved.body).toBe(200);
      // Drafts: the other server heard nothing, its cached listing is still served.
      const version = readerHandle.contentVersion.current;
      await readerHandle.contentVersion.sync();
      expect(readerHandle.contentVersion.current).toBe(version);
      const still = await reader.inject({ url: '/reseptit', headers: HOST });
      expect(hit(still)).toBe(true);
      expect(still.body).not.toContain(title);

      const started = performance.now();
      const published = await publisher.visitor.post(
        `${RECIPES_ADMIN_API}/${item.id}/publish`,
        json({ version: 2 }),
      );
      expect(published.statusCode, published.body).toBe(200);
      // No wait: the very next request to the other server.
      const next = await reader.inject({ url: '/reseptit', headers: HOST });
      expect(hit(next)).toBe(false);
      expect(next.body).toContain(title);
      expect(performance.now() - started).toBeLessThan(1000);
      const search = await reader.inject({
        url: `/api/search/content/?q=${encodeURIComponent(`kierrosbroileri ${round}`)}`,
        headers: HOST,
      });
      expect((search.json() as { hits: { title: string }[] }).hits.map((h) => h.title)).toContain(
        title,
      );
    }
  });
});
