import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { searchResultSchema } from './schemas.ts';
import { typoSimilarity } from './search.server.ts';
import {
  CHANGE_CHECK_MS,
  closestTitleWord,
  startingWithExceeds,
  titlesMayHoldEvery,
  titleWordsOf,
  trigramsOf,
  typoCandidates,
} from './typo-vocabulary.server.ts';

let t: TestApp;

const TITLES = [
  'Broilerin rintafilee 400 g',
  'Broilerikastike',
  'Kanan koipireidet 1 kg',
  'Jauhelihakastike',
  'Chicken wings BBQ',
  'Pastrami ohuina viipaleina',
  'Savupalvikinkku',
  'Grillimakkara 400 g',
];

beforeAll(async () => {
  t = await createTestApp();
  let n = 0;
  for (const name of TITLES) {
    n += 1;
    await createProduct(t.app.db, { siteId: 'jyvabroiler', path: `/tuotteet/v-${n}`, name });
  }
});

afterAll(async () => {
  await t?.close();
});

async function suggestions(q: string, siteId = 'jyvabroiler'): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/search/suggestions/?q=${encodeURIComponent(q)}`,
    headers: { host: `${siteId}.localhost` },
  });
  expect(response.statusCode).toBe(200);
  return searchResultSchema.parse(response.json()).hits.map((h) => h.title);
}

describe('closest title word', () => {
  it('finds the whole title word one edit away, the same first letter first', () => {
    expect(closestTitleWord(['chili', 'china', 'chicken'], 'chiken', 1)).toBe('chicken');
    expect(closestTitleWord(['pekoni', 'bekoni'], 'bekon', 1)).toBe('bekoni');
    // The word itself is no correction; two edits are not one.
    expect(closestTitleWord(['chicken'], 'chicken', 1)).toBeUndefined();
    expect(closestTitleWord(['chicken'], 'chikn', 1)).toBeUndefined();
    expect(closestTitleWord(['chicken'], 'chikn', 2)).toBe('chicken');
  });
});

describe('titles starting with a prefix', () => {
  const titles = ['broileri', 'broilerin filee', 'broilerin koipi', 'broilerin siivet', 'grilli'];
  it('says whether more than the count of sorted titles start with it', () => {
    expect(startingWithExceeds(titles, 'broilerin', 2)).toBe(true);
    expect(startingWithExceeds(titles, 'broilerin', 3)).toBe(false);
    expect(startingWithExceeds(titles, 'broileri', 3)).toBe(true);
    expect(startingWithExceeds(titles, 'grilli', 0)).toBe(true);
    expect(startingWithExceeds(titles, 'grilli', 1)).toBe(false);
    expect(startingWithExceeds(titles, 'a', 0)).toBe(false);
    expect(startingWithExceeds(titles, 'ö', 0)).toBe(false);
    expect(startingWithExceeds([], 'broileri', 0)).toBe(false);
  });
});

describe('typo vocabulary', () => {
  it('makes trigrams as pg_trgm does', async () => {
    // pg_trgm shows a trigram with a letter beyond ASCII as a hash of it; the count still agrees.
    for (const word of ['pöytä', 'säilyke']) {
      const result = (await t.app.db.execute(
        sql`select cardinality(show_trgm(${word})) as n`,
      )) as unknown as { rows: { n: number }[] };
      expect(trigramsOf(word).size, word).toBe(Number(result.rows[0]?.n));
    }
    for (const word of ['chiken', 'koipireidet', 'ab']) {
      const result = (await t.app.db.execute(
        sql`select show_trgm(${word}) as trigrams`,
      )) as unknown as { rows: { trigrams: string[] }[] };
      expect([...trigramsOf(word)].sort(), word).toEqual(
        [...(result.rows[0]?.trigrams ?? [])].sort(),
      );
    }
    expect(titleWordsOf('Kanan koipireidet, 1 kg')).toEqual(['kanan', 'koipireidet', '1', 'kg']);
  });

  it('leaves out no title word that pg_trgm finds one typo away', async () => {
    const words = [...new Set(TITLES.flatMap(titleWordsOf))];
    const typed = ['chiken', 'chike', 'pastarmi', 'broilerikastke', 'koipreidet', 'grilimakkara'];
    for (const word of typed) {
      const bar = typoSimilarity(word);
      const result = (await t.app.db.execute(sql`
        select w from unnest(${`{${words.join(',')}}`}::text[]) as w
        where word_similarity(${word}, w) >= ${bar}
      `)) as unknown as { rows: { w: string }[] };
      const accepted = result.rows.map((r) => r.w);
      const candidates = await typoCandidates(t.app.db, 'jyvabroiler', 'fi', word, bar);
      expect(candidates, word).toBeDefined();
      for (const w of accepted) expect(candidates, `${word} → ${w}`).toContain(w);
    }
    expect(await typoCandidates(t.app.db, 'jyvabroiler', 'fi', 'xyzzyq', 0.4)).toEqual([]);
  });

  it('tells when no title can hold every word, by the parts a title word would hold', async () => {
    const holds = (terms: string[][]) => titlesMayHoldEvery(t.app.db, 'jyvabroiler', 'fi', terms);
    // `kastik` inside `jauhelihakastike`, `rintafil` a prefix of `rintafilee`.
    expect(await holds([['kastik'], ['broilerin', 'rintafil']])).toBe(true);
    // A typo that no title word holds, beside a word that is there: no title holds both.
    expect(await holds([['broileri'], ['makara', 'makar']])).toBe(false);
    expect(await holds([['lammas']])).toBe(false);
    // The suggestions answer as before: words the titles hold (the tiers run), and a typo (they
    // are skipped and the full search and its correction answer).
    expect((await suggestions('broileri kastike'))[0]).toBe('Broilerikastike');
    // The corrected word first; `chicken` is also a synonym of broileri and kana (decision 164).
    expect((await suggestions('chiken'))[0]).toBe('Chicken wings BBQ');
  });

  it('finds a typo of a title written after the vocabulary was built', async () => {
    // The titles written here are on a site of their own, so the other tests' site never holds
    // them, whichever runs first.
    const siteId = 'ammattilaiset';
    await createProduct(t.app.db, {
      siteId,
      path: '/tuotteet/v-siivet',
      name: 'Chicken wings BBQ',
    });
    expect(await suggestions('chiken', siteId)).toEqual(['Chicken wings BBQ']);
    expect(await suggestions('lammaspata', siteId)).toEqual([]);
    await createProduct(t.app.db, { siteId, path: '/tuotteet/lammaspata', name: 'Lammaspata' });
    await new Promise((resolve) => setTimeout(resolve, CHANGE_CHECK_MS + 100));
    expect(await suggestions('lamaspata', siteId)).toEqual(['Lammaspata']);
  });
});
