import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFacetCategory,
  createImage,
  createNews,
  createPage,
  createProduct,
  createRecipe,
} from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import type { Database } from '../../../db/client.ts';
import { FILTERED_CARDS_MAX, filteredCardsSchema } from './schemas.ts';

let t: TestApp;
const tags: Record<string, number> = {};
let imageId = 0;

async function facet(db: Database, siteId: string, lang: string, scope: string, names: string[]) {
  const category = await createFacetCategory(db, { siteId, lang, scope, name: scope, tags: names });
  for (const [name, id] of Object.entries(category.tags)) tags[`${siteId}:${lang}:${name}`] = id;
}

const tag = (key: string) => {
  const id = tags[key];
  if (id === undefined) throw new Error(`no tag ${key}`);
  return id;
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  imageId = (await createImage(db, { width: 1600, height: 1200 })).id;
  await facet(db, 'sibylla', 'fi', 'recipes', ['Keitot', 'Kastikkeet', 'Tyhjä']);
  await facet(db, 'sibylla', 'en', 'recipes', ['Soups']);
  await facet(db, 'sibylla', 'fi', 'products', ['Makkarat']);
  await facet(db, 'konsernifi', 'fi', 'news', ['Talous']);
  await facet(db, 'jyvabroiler', 'fi', 'recipes', ['Broileri']);

  const soup = tag('sibylla:fi:Keitot');
  const sauce = tag('sibylla:fi:Kastikkeet');
  await createRecipe(db, {
    siteId: 'sibylla',
    path: '/reseptit/keitot/lohikeitto',
    title: 'Lohikeitto',
    totalTimeMinutes: 45,
    likeCount: 3,
    facetTagIds: [soup],
    imageId,
  });
  await createRecipe(db, {
    siteId: 'sibylla',
    path: '/reseptit/keitot/makkarakeitto',
    title: 'Makkarakeitto',
    totalTimeMinutes: 75,
    likeCount: 40,
    facetTagIds: [soup, sauce],
  });
  await createRecipe(db, {
    siteId: 'sibylla',
    path: '/reseptit/kastikkeet/jauhelihakastike',
    title: 'Jauhelihakastike',
    likeCount: 12,
    facetTagIds: [sauce],
  });
  // Same tag id in another site's rows must not leak into sibylla's cards.
  await createRecipe(db, {
    siteId: 'jyvabroiler',
    path: '/reseptit/keitot/kanakeitto',
    title: 'Kanakeitto',
    facetTagIds: [soup],
  });
  await createRecipe(db, {
    siteId: 'sibylla',
    lang: 'en',
    path: '/recipes/soups/sausage-soup',
    title: 'Sausage soup',
    totalTimeMinutes: 120,
    facetTagIds: [tag('sibylla:en:Soups')],
  });
  for (let i = 0; i < FILTERED_CARDS_MAX + 5; i++) {
    await createProduct(db, {
      siteId: 'sibylla',
      path: `/tuotteet/makkarat/makkara-${String(i).padStart(2, '0')}`,
      name: `Makkara ${String(i).padStart(2, '0')}`,
      code: `40${String(i).padStart(4, '0')}`,
      gtin: '6410405082657',
      valoCode: `V${i}`,
      facetTagIds: [tag('sibylla:fi:Makkarat')],
      imageIds: [imageId],
      isNovelty: i === 7,
    });
  }
  await createNews(db, {
    siteId: 'konsernifi',
    path: '/uutiset/2026/tulos',
    title: 'Tulos parani',
    publishDate: new Date('2026-04-01T06:00:00Z'),
    facetTagIds: [tag('konsernifi:fi:Talous')],
  });
  await createNews(db, {
    siteId: 'konsernifi',
    path: '/uutiset/2026/osavuosikatsaus',
    title: 'Osavuosikatsaus',
    kind: 'mynewsdesk',
    textType: null,
    publishDate: new Date('2026-05-01T06:00:00Z'),
    facetTagIds: [tag('konsernifi:fi:Talous')],
  });
});

afterAll(() => t?.close());

const get = (url: string, host = 'sibylla.localhost') =>
  t.app.inject({ method: 'GET', url, headers: { host } });

async function cards(url: string, host?: string) {
  const response = await get(url, host);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return filteredCardsSchema.parse(response.json());
}

describe('GET /api/filtered-cards/{dropdownItemId}/{cardType}', () => {
  it('answers the recipes with the tag as cards of the type, most liked first', async () => {
    const list = await cards(`/api/filtered-cards/${tag('sibylla:fi:Keitot')}/recipeCard`);
    expect(list).toEqual([
      {
        type: 'recipeCard',
        link: '/reseptit/keitot/makkarakeitto',
        header: 'Makkarakeitto',
        ctaButton: 'Katso resepti',
        likeCount: 40,
        totalTime: 75,
      },
      {
        type: 'recipeCard',
        link: '/reseptit/keitot/lohikeitto',
        image: { id: imageId, width: 1600, height: 1200, alt: expect.any(String) },
        header: 'Lohikeitto',
        ctaButton: 'Katso resepti',
        likeCount: 3,
        totalTime: 45,
      },
    ]);
    const sauces = await cards(`/api/filtered-cards/${tag('sibylla:fi:Kastikkeet')}/sibyllaCard`);
    expect(sauces.map((c) => [c.type, c.header])).toEqual([
      ['sibyllaCard', 'Makkarakeitto'],
      ['sibyllaCard', 'Jauhelihakastike'],
    ]);
  });

  it('links a tag of another language version under its prefix, with its texts', async () => {
    const list = await cards(`/api/filtered-cards/${tag('sibylla:en:Soups')}/recipeCard`);
    expect(list).toEqual([
      {
        type: 'recipeCard',
        link: '/en/recipes/soups/sausage-soup',
        header: 'Sausage soup',
        ctaButton: 'View recipe',
        likeCount: 0,
        totalTime: 120,
      },
    ]);
  });

  it('answers products with their codes, novelties first, at most FILTERED_CARDS_MAX', async () => {
    const list = await cards(`/api/filtered-cards/${tag('sibylla:fi:Makkarat')}/MFProductCard`);
    expect(list).toHaveLength(FILTERED_CARDS_MAX);
    expect(list[0]).toMatchObject({
      type: 'MFProductCard',
      link: '/tuotteet/makkarat/makkara-07',
      header: 'Makkara 07',
      productCode: '400007',
      gtinCode: '6410405082657',
      valoCode: 'V7',
      ctaButton: 'Katso tuote',
      image: { id: imageId },
    });
    expect(list[1]?.header).toBe('Makkara 00');
  });

  it('answers news releases, the latest first, with type and date', async () => {
    const list = await cards(
      `/api/filtered-cards/${tag('konsernifi:fi:Talous')}/cisionCard`,
      'konsernifi.localhost',
    );
    expect(list).toEqual([
      {
        type: 'cisionCard',
        link: '/uutiset/2026/osavuosikatsaus',
        header: 'Osavuosikatsaus',
        ctaButton: 'Lue lisää',
        publishDate: '2026-05-01T06:00:00.000Z',
      },
      {
        type: 'cisionCard',
        link: '/uutiset/2026/tulos',
        header: 'Tulos parani',
        ctaButton: 'Lue lisää',
        publishDate: '2026-04-01T06:00:00.000Z',
        cisionTextType: 'Lehdistötiedote',
      },
    ]);
  });

  it('answers an empty list for a tag nothing has', async () => {
    expect(await cards(`/api/filtered-cards/${tag('sibylla:fi:Tyhjä')}/recipeCard`)).toEqual([]);
  });

  it('answers 404 problem+json for an unknown id and for another site’s tag', async () => {
    for (const [url, host] of [
      ['/api/filtered-cards/999999/recipeCard', 'sibylla.localhost'],
      [`/api/filtered-cards/${tag('jyvabroiler:fi:Broileri')}/recipeCard`, 'sibylla.localhost'],
      [`/api/filtered-cards/${tag('sibylla:fi:Keitot')}/recipeCard`, 'jyvabroiler.localhost'],
    ] as const) {
      const response = await get(url, host);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 404, type: '/problems/not-found' });
    }
  });

  it('answers 400 problem+json naming the field for bad parameters', async () => {
    const cases: [string, string][] = [
      ['/api/filtered-cards/abc/recipeCard', 'dropdownItemId'],
      ['/api/filtered-cards/0/recipeCard', 'dropdownItemId'],
      ['/api/filtered-cards/-4/recipeCard', 'dropdownItemId'],
      ['/api/filtered-cards/1.5/recipeCard', 'dropdownItemId'],
      ['/api/filtered-cards/0x10/recipeCard', 'dropdownItemId'],
      ['/api/filtered-cards/99999999999/recipeCard', 'dropdownItemId'],
      [`/api/filtered-cards/${tag('sibylla:fi:Keitot')}/bogusCard`, 'cardType'],
      [`/api/filtered-cards/${tag('sibylla:fi:Keitot')}/recipecard`, 'cardType'],
    ];
    for (const [url, field] of cases) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = response.json();
      expect(problem).toMatchObject({ status: 400, type: '/problems/validation' });
      expect(Object.keys(problem.errors), url).toEqual([field]);
    }
  });
});

describe('a card grid block with a dropdown', () => {
  it('renders its cards under the page’s language prefix and offers its choices', async () => {
    await createPage(t.app.db, {
      siteId: 'sibylla',
      lang: 'en',
      path: '/',
      type: 'home',
      title: 'Sibylla',
      translationKey: 'home',
      blocks: [
        {
          type: 'card-grid',
          header: 'Popular recipes',
          columns: 4,
          cardType: 'recipeCard',
          cards: [
            { type: 'recipeCard', link: '/recipes/soups/sausage-soup', header: 'Sausage soup' },
            { type: 'recipeCard', link: 'https://example.com/x', header: 'Elsewhere' },
            { type: 'recipeCard', link: '/recipes/other', header: 'Other' },
          ],
          dropdownLabel: 'Course',
          dropdownItems: [{ Id: tag('sibylla:en:Soups'), Label: 'Soups' }],
        },
      ],
    });
    const response = await get('/en/');
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain('href="/en/recipes/soups/sausage-soup"');
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toMatch(/<label for="[^"]+">Course<\/label>/);
    expect(html).toContain(`<option value="${tag('sibylla:en:Soups')}">Soups</option>`);
    expect(html).toContain('>All</option>');
    expect(html).toMatch(/<k-island data-name="card-grid" data-hydrate="visible"/);
  });
});
