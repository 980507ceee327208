import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { auditOf, type Enrolled, enrolledStaff, json } from '../../../tests/helpers/staff.ts';
import { nounsOfAdjective } from './base-forms.server.ts';
import { searchLanguageOf, searchResultSchema } from './schemas.ts';
import { SYNONYMS_API, type SynonymList, type SynonymRow } from './synonym-schemas.ts';
import { expand, indexOf } from './synonyms.server.ts';

/** Synonyms (decision 164): their lookup, their effect on search, and their back-office API. */
describe('synonym lookup', () => {
  const index = indexOf([
    { kind: 'two-way', terms: ['kana', 'broileri'], targets: [] },
    { kind: 'two-way', terms: ['hodari', 'hot dog'], targets: [] },
    { kind: 'one-way', terms: ['jauhis'], targets: ['jauheliha'] },
    { kind: 'one-way', terms: ['lenkki'], targets: ['makkara'] },
  ]);
  const plain = (w: string) => ({ lemmas: w === 'kanan' ? ['kana'] : [], parts: [] });

  it('gives a word its set’s other terms, one-way only forwards', () => {
    expect(expand(index, 'fi', ['kana'], plain)).toEqual([
      { words: ['kana'], alternatives: [['broileri']] },
    ]);
    expect(expand(index, 'fi', ['kanan'], plain)[0]?.alternatives).toEqual([['broileri']]);
    expect(expand(index, 'fi', ['jauhis'], plain)[0]?.alternatives).toEqual([['jauheliha']]);
    expect(expand(index, 'fi', ['jauheliha'], plain)[0]?.alternatives).toEqual([]);
  });

  it('reads a phrase of the query as one stretch, its last word inflected too', () => {
    expect(expand(index, 'fi', ['hot', 'dogit', 'chili'], plain)).toEqual([
      { words: ['hot', 'dogit'], alternatives: [['hodari']] },
      { words: ['chili'], alternatives: [] },
    ]);
    expect(expand(index, 'fi', ['hodari'], plain)[0]?.alternatives).toEqual([['hot', 'dog']]);
  });

  it('splits a compound whose part has synonyms', () => {
    const alternatives = expand(index, 'fi', ['kanasuikaleet'], plain)[0]?.alternatives;
    expect(alternatives).toContainEqual(['broileri', 'suikaleet']);
    expect(alternatives).toContainEqual(['kana', 'suikaleet']);
    expect(expand(index, 'fi', ['saunalenkki'], plain)[0]?.alternatives).toContainEqual([
      'sauna',
      'makkara',
    ]);
    expect(expand(index, 'fi', ['pekonipasta'], plain)[0]?.alternatives).toEqual([]);
  });

  it('makes the noun of a Finnish descriptive adjective', () => {
    expect(nounsOfAdjective('pippurinen')).toEqual(['pippuri']);
    expect(nounsOfAdjective('valkosipulinen')).toEqual(['valkosipuli']);
    expect(nounsOfAdjective('hunajainen')).toEqual(['hunaja']);
    expect(nounsOfAdjective('juustoisen')).toEqual(['juusto']);
    expect(nounsOfAdjective('makkara')).toEqual([]);
  });
});

let t: TestApp;
let editor: Enrolled;
let limited: Enrolled;
let publisher: Enrolled;

beforeAll(async () => {
  t = await createTestApp();
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    path: '/tuotteet/lampaan-potka',
    name: 'Lampaan potka 800 g',
  });
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    path: '/tuotteet/karitsan-kare',
    name: 'Karitsan kare 500 g',
  });
  publisher = await enrolledStaff(t.app, [{ role: 'publisher', sites: null, langs: ['fi'] }]);
  editor = await enrolledStaff(t.app, [{ role: 'editor', sites: null, langs: null }]);
  limited = await enrolledStaff(t.app, [
    { role: 'publisher', sites: ['lihakauppa'], langs: ['fi'] },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function titlesFor(q: string) {
  const params = new URLSearchParams({ q, language: searchLanguageOf('fi'), pageSize: '5' });
  const response = await t.app.inject({
    url: `/api/search/suggestions/?${params}`,
    headers: { host: 'lihakauppa.localhost' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return searchResultSchema.parse(response.json()).hits.map((h) => h.title);
}

const put = (v: Enrolled['visitor'], url: string, body: unknown) =>
  v.request('PUT', url, json(body));

describe('synonyms in the back office', () => {
  it('lists the seeded food vocabulary of a language', async () => {
    const response = await publisher.visitor.get(`${SYNONYMS_API}/fi`);
    expect(response.statusCode, response.body).toBe(200);
    const { synonyms } = response.json() as SynonymList;
    expect(synonyms.some((s) => s.terms.includes('kana') && s.terms.includes('broileri'))).toBe(
      true,
    );
    expect(synonyms.every((s) => s.lang === 'fi')).toBe(true);
  });

  it('needs search.synonyms for the language on every site', async () => {
    expect((await editor.visitor.get(`${SYNONYMS_API}/fi`)).statusCode).toBe(403);
    expect((await limited.visitor.get(`${SYNONYMS_API}/fi`)).statusCode).toBe(403);
    expect((await publisher.visitor.get(`${SYNONYMS_API}/sv`)).statusCode).toBe(403);
    const refused = await limited.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'two-way', terms: ['lammas', 'karitsa'] }),
    );
    expect(refused.statusCode).toBe(403);
  });

  it('answers field errors for a set that does not add up', async () => {
    const one = await publisher.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'two-way', terms: ['lammas'] }),
    );
    expect(one.statusCode).toBe(400);
    expect(one.headers['content-type']).toContain('application/problem+json');
    expect(one.json().errors).toHaveProperty('terms');
    const noTargets = await publisher.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'one-way', terms: ['lammas'] }),
    );
    expect(noTargets.json().errors).toHaveProperty('targets');
    const odd = await publisher.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'two-way', terms: ['lammas', '%%'] }),
    );
    expect(odd.json().errors).toHaveProperty(['terms.1']);
  });

  it('adds, changes and removes a set, each audited, and the next search follows', async () => {
    expect(await titlesFor('lammas')).not.toContain('Karitsan kare 500 g');
    const added = await publisher.visitor.post(
      `${SYNONYMS_API}/fi`,
      json({ kind: 'two-way', terms: ['Lammas', 'karitsa'] }),
    );
    expect(added.statusCode, added.body).toBe(200);
    const set = added.json() as SynonymRow;
    expect(set.terms).toEqual(['lammas', 'karitsa']);
    // Both ways, and the word's own title first.
    expect((await titlesFor('lammas')).slice(0, 2)).toEqual([
      'Lampaan potka 800 g',
      'Karitsan kare 500 g',
    ]);
    expect(await titlesFor('karitsa')).toContain('Lampaan potka 800 g');
    const [created] = await auditOf(t.app, 'search.synonyms.create');
    expect(created?.subjectId).toBe(String(set.id));
    expect(created?.lang).toBe('fi');

    const url = `${SYNONYMS_API}/fi/${set.id}`;
    const changed = await put(publisher.visitor, url, {
      kind: 'one-way',
      terms: ['karitsa'],
      targets: ['lammas'],
      version: set.version,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await titlesFor('lammas')).not.toContain('Karitsan kare 500 g');
    expect(await titlesFor('karitsa')).toContain('Lampaan potka 800 g');
    // The version seen is gone: 409, nothing written.
    const stale = await put(publisher.visitor, url, {
      kind: 'two-way',
      terms: ['karitsa', 'lammas'],
      version: set.version,
    });
    expect(stale.statusCode).toBe(409);
    const [updated] = await auditOf(t.app, 'search.synonyms.update');
    expect(updated?.changes).toMatchObject({ kind: { before: 'two-way', after: 'one-way' } });

    const version = (changed.json() as SynonymRow).version;
    expect((await publisher.visitor.delete(`${url}?version=${set.version}`)).statusCode).toBe(409);
    const removed = await publisher.visitor.delete(`${url}?version=${version}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await titlesFor('karitsa')).not.toContain('Lampaan potka 800 g');
    expect(await auditOf(t.app, 'search.synonyms.delete')).toHaveLength(1);
    expect((await publisher.visitor.delete(`${url}?version=${version}`)).statusCode).toBe(404);
  });
});
