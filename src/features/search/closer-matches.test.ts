import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { compoundsEndingIn, openCompound } from './base-forms.server.ts';
import { type SearchResult, searchResultSchema } from './schemas.ts';
import { editDistance, type Vocabulary } from './typo-vocabulary.server.ts';

/**
 * The mechanisms behind the held-out set's former misses (bench/README.md, "Held-out set"): open
 * compounds in English, two-edit typos of long words, the any-word step filling a short all-words
 * answer, compound heads too short for a substring, and a correction preferred over a split.
 */
let t: TestApp;

const PRODUCTS: [site: string, lang: 'en' | 'sv', name: string, description?: string][] = [
  ['sibylla', 'en', 'Hot dog sausages'],
  ['sibylla', 'en', 'Cheese burger patties'],
  ['sibylla', 'en', 'Burgers'],
  ['sibylla', 'en', 'Chicken burgers'],
  ['sibylla', 'en', 'Burger buns'],
  ['sibylla', 'en', 'Beef burgers'],
  ['sibylla', 'en', 'Bacon burgers'],
  ['sibylla', 'en', 'Spaghetti bolognese'],
  ['sibylla', 'en', 'Spicy sausage rolls'],
  ['sibylla', 'en', 'Chili sausages'],
  ['sibylla', 'en', 'Grill sausages'],
  ['lonnebergase', 'sv', 'Honungsskinka 120 g'],
  ['lonnebergase', 'sv', 'Skinka'],
  ['lonnebergase', 'sv', 'Kokt skinka'],
  ['lonnebergase', 'sv', 'Rökt skinka'],
  ['lonnebergase', 'sv', 'Skinka örter'],
  ['lonnebergase', 'sv', 'Skinka honung'],
  ['lithellsse', 'sv', 'Köttfärssås 400 g'],
  ['lithellsse', 'sv', 'Pasta', '<p>Servera med såsen.</p>'],
  ['lithellsse', 'sv', 'Makaroner', '<p>Häll såsen över.</p>'],
  ['lithellsse', 'sv', 'Spaghetti', '<p>Värm såsen.</p>'],
  ['lithellsse', 'sv', 'Lasagne', '<p>Lägg såsen i lager.</p>'],
  ['lithellsse', 'sv', 'Gratäng', '<p>Såsen gör det.</p>'],
];

beforeAll(async () => {
  t = await createTestApp();
  let n = 0;
  for (const [siteId, lang, name, descriptionHtml] of PRODUCTS) {
    n += 1;
    await createProduct(t.app.db, {
      siteId,
      lang,
      path: `/p/c-${n}`,
      name,
      ...(descriptionHtml ? { descriptionHtml } : {}),
    });
  }
});

afterAll(async () => {
  await t?.close();
});

async function search(site: string, lang: 'en' | 'sv', q: string): Promise<SearchResult> {
  const params = new URLSearchParams({ q, language: lang === 'en' ? 'en' : 'sv', pageSize: '5' });
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/search/content/?${params}`,
    headers: { host: `${site}.localhost` },
  });
  expect(response.statusCode).toBe(200);
  return searchResultSchema.parse(response.json());
}
const titles = (r: SearchResult) => r.hits.map((h) => h.title);

function vocabulary(words: string[]): Vocabulary {
  return { builtAt: 0, words, titles: [], postings: new Map() };
}

describe('closer matches (pure parts)', () => {
  it('splits an English closed compound into two title words', () => {
    const v = vocabulary(['hot', 'dogs', 'cheese', 'burger', 'patties', 'hotdogsauce']);
    expect(openCompound(v, 'cheeseburger')).toEqual([['cheese'], ['burger']]);
    expect(openCompound(v, 'cheeseburgers')).toEqual([['cheese'], ['burger']]);
    // A word some title word holds is no open compound; nor one whose parts no title has.
    expect(openCompound(v, 'hotdog')).toBeUndefined();
    expect(openCompound(v, 'hamburger')).toBeUndefined();
  });

  it('counts edits, swaps of neighbours as one, and stops beyond the limit', () => {
    expect(editDistance('bolognaise', 'bolognese', 2)).toBe(2);
    expect(editDistance('brolieri', 'broileri', 2)).toBe(1);
    expect(editDistance('makkara', 'makkara', 2)).toBe(0);
    expect(editDistance('bolognaise', 'carbonara', 2)).toBe(3);
  });

  it('finds the compounds ending in a base form too short for a substring', () => {
    const v = vocabulary(['köttfärssås', 'löksås', 'såser', 'sås', 'pasta']);
    expect(compoundsEndingIn(v, 'sås')).toEqual(['köttfärssås', 'löksås']);
    expect(compoundsEndingIn(v, 'pasta')).toEqual([]);
  });
});

describe('closer matches (search)', () => {
  it('finds an English compound written closed where the titles write it open', async () => {
    expect(titles(await search('sibylla', 'en', 'hotdogs'))).toContain('Hot dog sausages');
    // Both parts in the title rank above titles with one of them.
    expect(titles(await search('sibylla', 'en', 'cheeseburger'))[0]).toBe('Cheese burger patties');
  });

  it('corrects a long word two edits away when one slip finds nothing', async () => {
    const result = await search('sibylla', 'en', 'bolognaise');
    expect(titles(result)).toEqual(['Spaghetti bolognese']);
    expect(result.matchedBy).toBe('typo');
  });

  it('fills a short all-words answer with the any-word hits after it', async () => {
    const result = await search('sibylla', 'en', 'spicy sausages');
    expect(titles(result)[0]).toBe('Spicy sausage rolls');
    expect(titles(result)).toEqual(expect.arrayContaining(['Chili sausages', 'Grill sausages']));
    expect(result.matchedBy).toBe('anyWord');
    expect(result.totalCount).toBe(4);
  });

  it('ranks compounds with a short definite head above body mentions', async () => {
    const r = await search('lithellsse', 'sv', 'såsen');
    expect(titles(r)[0]).toBe('Köttfärssås 400 g');
  });

  it('prefers a title word one slip away over splitting the compound', async () => {
    expect(titles(await search('lonnebergase', 'sv', 'honungskinka'))).toEqual([
      'Honungsskinka 120 g',
    ]);
  });
});
