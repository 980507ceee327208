import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createProduct } from '../../../tests/factories/index.ts';
import { enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { twoServersOnPostgres } from '../../../tests/helpers/two-servers.ts';
import { searchLanguageOf, searchResultSchema } from './schemas.ts';
import { SYNONYMS_API, type SynonymRow } from './synonym-schemas.ts';

/**
 * Decision 164 on PostgreSQL: two servers on one database (each its own pool and LISTEN
 * connection, as two processes have), each having searched and so holding the synonym sets in
 * memory. A set added through the back office of one changes the next search on both within
 * five seconds, and so does its removal.
 */
const template = inject('templateDatabase');
const onPostgres = template.engine === 'postgres';
const WITHIN_MS = 5_000;

describe.runIf(onPostgres)('synonyms across processes (PostgreSQL)', () => {
  const { apps, handles } = twoServersOnPostgres(template);

  beforeAll(async () => {
    if (template.engine !== 'postgres') return;
    const db = handles[0]?.db;
    if (!db) throw new Error('no database');
    await createProduct(db, {
      siteId: 'lihakauppa',
      path: '/tuotteet/potka',
      name: 'Lampaan potka',
    });
    await createProduct(db, {
      siteId: 'lihakauppa',
      path: '/tuotteet/kare',
      name: 'Karitsan kare',
    });
  }, 120_000);

  const titles = async (app: FastifyInstance, q: string) => {
    const params = new URLSearchParams({ q, language: searchLanguageOf('fi'), pageSize: '5' });
    const response = await app.inject({
      url: `/api/search/content/?${params}`,
      headers: { host: 'lihakauppa.localhost' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return searchResultSchema.parse(response.json()).hits.map((h) => h.title);
  };

  /** Milliseconds until `check` holds on the app, asking again every 20 ms; fails after 5 s. */
  const until = async (app: FastifyInstance, check: (titles: string[]) => boolean) => {
    const started = performance.now();
    for (;;) {
      if (check(await titles(app, 'karitsa'))) return performance.now() - started;
      if (performance.now() - started > WITHIN_MS) throw new Error('not within 5 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('a set added in the back office of one server changes the next search on both', async () => {
    const [writer, reader] = apps;
    if (!writer || !reader) throw new Error('two apps');
    // Both have searched: each holds the sets without this one.
    for (const app of apps) expect(await titles(app, 'karitsa')).toEqual(['Karitsan kare']);
    const staff = await enrolledStaff(writer, [{ role: 'admin', sites: null, langs: null }]);
    const added = await staff.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'two-way', terms: ['karitsa', 'lammas'] }),
    );
    expect(added.statusCode, added.body).toBe(200);
    const found = (list: string[]) => list.includes('Lampaan potka');
    const onWriter = await until(writer, found);
    const onReader = await until(reader, found);
    console.info(
      `synonym added: on the writer after ${onWriter.toFixed(0)} ms, on the other after ${onReader.toFixed(0)} ms`,
    );
    expect(onWriter).toBeLessThan(WITHIN_MS);
    expect(onReader).toBeLessThan(WITHIN_MS);

    const set = added.json() as SynonymRow;
    const removed = await staff.visitor.delete(
      `${SYNONYMS_API}/fi/${set.id}?version=${set.version}`,
    );
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await until(reader, (list) => !found(list))).toBeLessThan(WITHIN_MS);
    expect(await until(writer, (list) => !found(list))).toBeLessThan(WITHIN_MS);
  });
});
