import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFacetCategory,
  createImage,
  createNews,
  createPage,
  createProduct,
  createRecipe,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { type SearchResult, searchResultSchema } from './schemas.ts';

let t: TestApp;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const image = await createImage(db);
  const facet = (siteId: string, scope: string, name: string, tags: string[]) =>
    createFacetCategory(db, { siteId, scope, name, tags });
  const group = await facet('jyvabroiler', 'products', 'Tuoteryhmä', ['Broileri', 'Jauhelihat']);
  const diet = await facet('jyvabroiler', 'products', 'Erityisruokavalio', [
    'Gluteeniton',
    'Laktoositon',
  ]);
  const course = await facet('jyvabroiler', 'recipes', 'Ruokalaji', ['Kastikkeet', 'Keitot']);
  const topic = await facet('konsernifi', 'news', 'Aihe', ['Talous', 'Vastuullisuus']);
  Object.assign(ids, {
    broileri: group.tags.Broileri,
    jauhelihat: group.tags.Jauhelihat,
    gluteeniton: diet.tags.Gluteeniton,
    laktoositon: diet.tags.Laktoositon,
    kastikkeet: course.tags.Kastikkeet,
    keitot: course.tags.Keitot,
    talous: topic.tags.Talous,
    vastuullisuus: topic.tags.Vastuullisuus,
    courseCategory: course.id,
  });

  const fillet = await createProduct(db, {
    siteId: 'jyvabroiler',
    kind: 'broiler-product',
    path: '/tuotteet/broileri/broilerin-fileesuikaleet-600-g',
    name: 'Broilerin fileesuikaleet 600 g',
    teaser: 'Mehevät suikaleet arkeen.',
    productGroup: 'Broileri',
    categoryIds: [ids.broileri as number],
    facetTagIds: [ids.broileri as number, ids.gluteeniton as number],
    imageIds: [image.id],
    isNovelty: true,
    likeCount: 12,
  });
  ids.fillet = fillet.id;
  await createProduct(db, {
    siteId: 'jyvabroiler',
    kind: 'broiler-product',
    path: '/tuotteet/broileri/kanan-koipireidet',
    name: 'Kanan koipireidet 1 kg',
    productGroup: 'Broileri',
    categoryIds: [ids.broileri as number],
    facetTagIds: [ids.broileri as number, ids.laktoositon as number],
  });
  await createProduct(db, {
    siteId: 'jyvabroiler',
    kind: 'broiler-product',
    path: '/tuotteet/jauhelihat/broilerin-jauheliha',
    name: 'Broilerin jauheliha 400 g',
    productGroup: 'Jauhelihat',
    categoryIds: [ids.jauhelihat as number],
    facetTagIds: [ids.jauhelihat as number, ids.gluteeniton as number, ids.laktoositon as number],
  });
  const sauce = await createRecipe(db, {
    siteId: 'jyvabroiler',
    path: '/reseptit/kastikkeet/jauhelihakastike',
    title: 'Jauhelihakastike',
    teaser: 'Arjen klassikko perunamuusin kanssa.',
    imageId: image.id,
    categoryIds: [ids.kastikkeet as number],
    facetTagIds: [ids.kastikkeet as number],
    equipment: ['paistinpannu'],
    totalTimeMinutes: 30,
  });
  ids.sauce = sauce.id;
  await createRecipe(db, {
    siteId: 'jyvabroiler',
    path: '/reseptit/keitot/kanakeitto',
    title: 'Kanakeitto',
    categoryIds: [ids.keitot as number],
    facetTagIds: [ids.keitot as number],
    equipment: ['kattila'],
    totalTimeMinutes: 45,
  });
  await createPage(db, {
    siteId: 'jyvabroiler',
    path: '/reseptit',
    type: 'recipe-list',
    title: 'Reseptit',
  });
  ids.recipeList = (
    await createPage(db, {
      siteId: 'jyvabroiler',
      path: '/reseptit/kastikkeet',
      type: 'recipe-list',
      title: 'Kastikkeet',
      teaser: 'Kastikkeet arkeen ja juhlaan.',
    })
  ).id;
  await createPage(db, { siteId: 'jyvabroiler', path: '/haku', type: 'search', title: 'Haku' });

  await createProduct(db, {
    siteId: 'sibylla',
    lang: 'sv',
    kind: 'retail-product',
    path: '/produkter/korv/falukorv',
    name: 'Falukorv 800 g',
  });
  await createProduct(db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/makkarat/grillimakkara',
    name: 'Grillimakkara 400 g',
  });
  for (const [i, [title, day, tag, author]] of (
    [
      ['Kattaus investoi Forssan tehtaaseen', '2026-03-01', 'talous', 'Ville Lehtonen'],
      ['Broilerin kysyntä kasvoi', '2026-05-01', 'talous', 'Riikka Järvinen'],
      ['Vastuullisuusraportti julkaistu', '2026-04-01', 'vastuullisuus', 'Riikka Järvinen'],
    ] as const
  ).entries()) {
    await createNews(db, {
      siteId: 'konsernifi',
      path: `/uutiset/2026/tiedote-${i}`,
      title,
      publishDate: new Date(`${day}T09:00:00Z`),
      categoryIds: [ids[tag] as number],
      facetTagIds: [ids[tag] as number],
      authors: [author],
    });
  }
});

afterAll(async () => {
  await t?.close();
});

async function get(url: string, host = 'jyvabroiler.localhost') {
  return t.app.inject({ method: 'GET', url, headers: { host } });
}

async function result(url: string, host?: string): Promise<SearchResult> {
  const response = await get(url, host);
  expect(response.statusCode, response.body).toBe(200);
  return searchResultSchema.parse(response.json());
}

const titles = (r: SearchResult) => r.hits.map((h) => h.title);

describe('GET /api/search/suggestions/', () => {
  it('answers nothing below three characters, without asking the database', async () => {
    const r = await result('/api/search/suggestions/?q=ja');
    expect(r).toEqual({
      query: 'ja',
      facetCategories: [],
      hits: [],
      totalCount: 0,
      hasMore: false,
    });
  });

  it('finds inflected and compound words, five at a time, with the spec fields', async () => {
    const r = await result('/api/search/suggestions/?q=kastikkeessa&language=fi');
    expect(titles(r)).toContain('Jauhelihakastike');
    const sauce = r.hits.find((h) => h.title === 'Jauhelihakastike');
    expect(sauce).toMatchObject({
      contentId: `recipe-${ids.sauce}`,
      category: 'Kastikkeet',
      teaserText: 'Arjen klassikko perunamuusin kanssa.',
      url: '/reseptit/kastikkeet/jauhelihakastike',
      type: 'recipe',
      totalTime: 30,
    });
    expect(sauce?.image).toMatch(/^\/images\/\d+\/jauhelihakastike\.jpg\?preset=thumbnail-medium$/);

    const products = await result('/api/search/suggestions/?q=broilerin');
    expect(products.hits.length).toBeLessThanOrEqual(5);
    const fillet = products.hits.find((h) => h.contentId === `product-${ids.fillet}`);
    expect(fillet?.image).toMatch(/preset=product-thumbnail-medium$/);
    expect(fillet).toMatchObject({ type: 'broiler-product', category: 'Broileri', novelty: true });
    expect(products.hits.every((h) => h.type !== 'search')).toBe(true);
  });

  it('answers the same page as the site search, without counting every match', async () => {
    const quick = await result('/api/search/suggestions/?q=broilerin&pageSize=1');
    const full = await result('/api/search/content/?q=broilerin&pageSize=1');
    expect(full.totalCount).toBeGreaterThan(1);
    expect(titles(quick)).toEqual(titles(full));
    expect(quick.hits).toHaveLength(1);
    // The total of a suggestion is the hits shown; one more match is told by hasMore.
    expect(quick).toMatchObject({ totalCount: 1, hasMore: true });

    const few = await result('/api/search/content/?q=jauhelihakastike');
    expect(few.totalCount).toBeGreaterThan(0);
    expect(few.totalCount).toBeLessThan(5);
    const quickFew = await result('/api/search/suggestions/?q=jauhelihakastike');
    expect(titles(quickFew)).toEqual(titles(few));
    expect(quickFew).toMatchObject({ totalCount: few.totalCount, hasMore: false });
  });

  it('answers the pages of the site search, in the same order, for prefixes and whole words', async () => {
    for (const q of ['broilerin', 'bro', 'jauhe', 'kanan', 'kastike', 'koipi', 'kan']) {
      for (const pageSize of [1, 2, 5]) {
        const params = `q=${q}&pageSize=${pageSize}`;
        const quick = await result(`/api/search/suggestions/?${params}`);
        const full = await result(`/api/search/content/?${params}`);
        expect(titles(quick), params).toEqual(titles(full));
        expect(quick.hasMore, params).toBe(full.hasMore);
      }
    }
  });

  it('finds a compound by its tail, a prefix and a word with one typo', async () => {
    expect(titles(await result('/api/search/suggestions/?q=kastike'))).toContain(
      'Jauhelihakastike',
    );
    expect(titles(await result('/api/search/suggestions/?q=koipi'))).toContain(
      'Kanan koipireidet 1 kg',
    );
    expect(titles(await result('/api/search/suggestions/?q=jauhelhakastike'))[0]).toBe(
      'Jauhelihakastike',
    );
  });

  it('keeps the own site and language apart, and maps se to Swedish', async () => {
    const fi = await result('/api/search/suggestions/?q=falukorv', 'sibylla.localhost');
    expect(fi.totalCount).toBe(0);
    const sv = await result(
      '/api/search/suggestions/?q=falukorvar&language=se',
      'sibylla.localhost',
    );
    expect(sv.hits[0]).toMatchObject({
      title: 'Falukorv 800 g',
      url: '/sv/produkter/korv/falukorv',
    });
    const de = await result('/api/search/suggestions/?q=falukorv&language=de', 'sibylla.localhost');
    expect(de.totalCount).toBe(0);
    const other = await result('/api/search/suggestions/?q=falukorv&language=se');
    expect(other.totalCount).toBe(0);
  });
});

describe('GET /api/search/content/', () => {
  it('pages through everything of the site, ten by default', async () => {
    const r = await result('/api/search/content/?q=kana');
    expect(r.query).toBe('kana');
    expect(titles(r)).toEqual(expect.arrayContaining(['Kanakeitto', 'Kanan koipireidet 1 kg']));
    const one = await result('/api/search/content/?q=broilerin&pageSize=1&page=1');
    expect(one.hits).toHaveLength(1);
    expect(one.hasMore).toBe(true);
    const last = await result(`/api/search/content/?q=broilerin&pageSize=1&page=${one.totalCount}`);
    expect(last.hasMore).toBe(false);
    expect(last.hits).toHaveLength(1);
  });

  it('filters by content group and has no facets for everything', async () => {
    const products = await result('/api/search/content/?q=kana&contentGroup=1');
    // The word's own title first, then the broiler products its synonym finds (decision 164).
    expect(titles(products)[0]).toBe('Kanan koipireidet 1 kg');
    expect(
      titles(products)
        .slice(1)
        .every((title) => title.startsWith('Broiler')),
    ).toBe(true);
    const recipes = await result('/api/search/content/?q=kana&contentGroup=2');
    expect(titles(recipes)).toEqual(['Kanakeitto']);
    const all = await result('/api/search/content/?q=kana');
    expect(all.totalCount).toBe(products.totalCount + recipes.totalCount);
    expect(all.facetCategories).toEqual([]);
  });

  it('ranks an exact title first', async () => {
    const r = await result('/api/search/content/?q=kastikkeet');
    expect(r.hits[0]).toMatchObject({
      title: 'Kastikkeet',
      type: 'recipe-list',
      category: 'Reseptit',
    });
  });
});

describe('GET /api/search/newsroom', () => {
  const host = 'konsernifi.localhost';

  it('lists releases newest first with topic facets', async () => {
    const r = await result('/api/search/newsroom', host);
    expect(titles(r)).toEqual([
      'Broilerin kysyntä kasvoi',
      'Vastuullisuusraportti julkaistu',
      'Kattaus investoi Forssan tehtaaseen',
    ]);
    expect(r.hits[0]?.publishDate).toBe('2026-05-01T09:00:00.000Z');
    const topics = r.facetCategories.find((c) => c.name === 'Aihe');
    expect(topics?.facetTags.map((tag) => [tag.name, tag.count, tag.selected])).toEqual([
      ['Talous', 2, false],
      ['Vastuullisuus', 1, false],
    ]);
  });

  it('filters by categories in bracket notation and by authors', async () => {
    const r = await result(
      `/api/search/newsroom?matchAnyCategoryIds[]=${ids.talous}&matchAnyCategoryIds[]=999`,
      host,
    );
    expect(r.totalCount).toBe(2);
    expect(r.facetCategories[0]?.facetTags.find((tag) => tag.id === ids.talous)?.selected).toBe(
      true,
    );
    const byAuthor = await result(
      `/api/search/newsroom?authors[]=${encodeURIComponent('Riikka Järvinen')}`,
      host,
    );
    expect(titles(byAuthor)).toEqual([
      'Broilerin kysyntä kasvoi',
      'Vastuullisuusraportti julkaistu',
    ]);
    const oldest = await result('/api/search/newsroom?sortOrder=1', host);
    expect(oldest.hits[0]?.title).toBe('Broilerin kysyntä kasvoi');
  });
});

describe('GET /api/search/products and /api/search/recipes', () => {
  it('counts facets over the filtered set, leaving a category its own selection', async () => {
    const r = await result(`/api/search/products?facetTags=${ids.gluteeniton}`);
    expect(titles(r).sort()).toEqual([
      'Broilerin fileesuikaleet 600 g',
      'Broilerin jauheliha 400 g',
    ]);
    const counts = Object.fromEntries(
      r.facetCategories.flatMap((c) =>
        c.facetTags.map((tag) => [tag.name, [tag.count, tag.selected]]),
      ),
    );
    expect(counts).toEqual({
      Broileri: [1, false],
      Jauhelihat: [1, false],
      // Its own category ignores the selection: picking Laktoositon too would widen the set.
      Gluteeniton: [2, true],
      Laktoositon: [2, false],
    });
    const either = await result(
      `/api/search/products?facetTags=${ids.gluteeniton},${ids.laktoositon}`,
    );
    expect(either.totalCount).toBe(3);
    const both = await result(
      `/api/search/products?facetTags=${ids.jauhelihat},${ids.laktoositon}`,
    );
    expect(titles(both)).toEqual(['Broilerin jauheliha 400 g']);
  });

  it('filters by product group, hides results until asked and finds recipes by equipment', async () => {
    const group = await result('/api/search/products?productGroup=jauhelihat');
    expect(titles(group)).toEqual(['Broilerin jauheliha 400 g']);
    const hidden = await result('/api/search/products?hideResults=true');
    expect(hidden.hits).toEqual([]);
    expect(hidden.totalCount).toBe(0);
    expect(hidden.facetCategories.length).toBe(2);
    const shown = await result('/api/search/products?hideResults=true&q=kana');
    expect(titles(shown)[0]).toBe('Kanan koipireidet 1 kg');

    const recipes = await result('/api/search/recipes?searchEquipments[]=kattila');
    expect(titles(recipes)).toEqual(['Kanakeitto']);
    expect(recipes.facetCategories.map((c) => c.name)).toEqual(['Ruokalaji']);
    const course = await result(`/api/search/recipes?matchAllCategoryIds[]=${ids.kastikkeet}`);
    expect(titles(course)).toEqual(['Jauhelihakastike']);
    const viaProducts = await result('/api/search/products?contentGroup=2&q=keitto');
    expect(titles(viaProducts)).toEqual(['Kanakeitto']);
  });

  it('searches the shop from any site, all at once when asked', async () => {
    const r = await result(
      '/api/search/lihakauppa-products?q=grilli&skipPagination=true',
      'sibylla.localhost',
    );
    expect(r.hits).toEqual([
      expect.objectContaining({ title: 'Grillimakkara 400 g', type: 'shop-product' }),
    ]);
    expect(r.hasMore).toBe(false);
  });
});

describe('bad parameters', () => {
  it.each([
    ['/api/search/content/?pageSize=0', 'pageSize'],
    ['/api/search/content/?pageSize=101', 'pageSize'],
    ['/api/search/content/?page=abc', 'page'],
    ['/api/search/content/?page=1e1', 'page'],
    ['/api/search/content/?pageSize=0x10', 'pageSize'],
    ['/api/search/content/?page=%2010', 'page'],
    ['/api/search/content/?page=2.0', 'page'],
    ['/api/search/content/?contentGroup=5', 'contentGroup'],
    ['/api/search/newsroom?sortOrder=9', 'sortOrder'],
    ['/api/search/products?facetTags=1,x', 'facetTags'],
    ['/api/search/newsroom?matchAnyCategoryIds[]=-1', 'matchAnyCategoryIds'],
    ['/api/search/suggestions/?language=xx', 'language'],
    ['/api/search/products?hideResults=maybe', 'hideResults'],
    [`/api/search/content/?q=${'a'.repeat(201)}`, 'q'],
    ['/api/facets/recipetags', 'recipeSearchBlockId'],
    ['/api/search/all-products?language=xx', 'language'],
  ])('%s answers 400 naming %s', async (url, field) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Object.keys(response.json().errors)).toEqual([
      expect.stringMatching(new RegExp(`^${field}`)),
    ]);
  });

  it('ignores parameters it does not know and odd characters in the query', async () => {
    expect((await get('/api/search/content/?_=123&utm_source=x')).statusCode).toBe(200);
    const r = await result(`/api/search/content/?q=${encodeURIComponent("kana' & | ! :* (")}`);
    expect(titles(r)).toContain('Kanakeitto');
    expect(
      (await result(`/api/search/content/?q=${encodeURIComponent('&&& ::')}`)).totalCount,
    ).toBe(0);
  });
});

describe('GET /api/facets/*', () => {
  it('offers the content groups the site has', async () => {
    const response = await get('/api/facets/groups?language=fi');
    expect(response.json()).toEqual([
      { key: 'Kaikki', value: 0 },
      { key: 'Tuotteet', value: 1 },
      { key: 'Reseptit', value: 2 },
    ]);
    const shop = await get('/api/facets/groups', 'lihakauppa.localhost');
    expect(shop.json()).toEqual([
      { key: 'Kaikki', value: 0 },
      { key: 'Tuotteet', value: 1 },
    ]);
  });

  it('defines the facets of a site and of a recipe search', async () => {
    const custom = (await get('/api/facets/custom')).json();
    expect(custom.map((c: { name: string }) => c.name)).toEqual([
      'Tuoteryhmä',
      'Erityisruokavalio',
      'Ruokalaji',
    ]);
    const recipeTags = await get(`/api/facets/recipetags?recipeSearchBlockId=${ids.recipeList}`);
    expect(recipeTags.json()).toEqual([
      {
        id: ids.courseCategory,
        name: 'Ruokalaji',
        facetTags: [
          { id: ids.kastikkeet, name: 'Kastikkeet', count: 1, selected: false, display: true },
          { id: ids.keitot, name: 'Keitot', count: 1, selected: false, display: true },
        ],
      },
    ]);
    expect(
      (
        await get(
          `/api/facets/recipetags?recipeSearchBlockId=${ids.recipeList}`,
          'sibylla.localhost',
        )
      ).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/search/all-products', () => {
  it('lists the products of the site in the language', async () => {
    const a = await createProduct(t.app.db, {
      siteId: 'sibylla',
      path: '/tuotteet/a',
      name: 'Atria',
    });
    await createProduct(t.app.db, { siteId: 'sibylla', lang: 'sv', path: '/produkter/a' });
    const response = await get('/api/search/all-products?language=fi', 'sibylla.localhost');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.json()).toEqual([{ productId: a.id, title: 'Atria' }]);
  });
});

describe('the site search page for crawlers (decision 050)', () => {
  const head = async (url: string) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    const html = response.body;
    return {
      canonical: /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1],
      robots: /<meta name="robots" content="([^"]*)"/.exec(html)?.[1],
    };
  };

  it('makes the plain query its canonical URL, indexable', async () => {
    expect(await head('/haku?q=broilerin%20filee')).toEqual({
      canonical: 'http://jyvabroiler.localhost/haku?q=broilerin+filee',
      robots: undefined,
    });
    // Default values are no other page: same canonical, still indexable.
    expect(await head('/haku?q=broilerin%20filee&contentGroup=0&page=1')).toEqual({
      canonical: 'http://jyvabroiler.localhost/haku?q=broilerin+filee',
      robots: undefined,
    });
    expect(await head('/haku')).toEqual({
      canonical: 'http://jyvabroiler.localhost/haku',
      robots: undefined,
    });
  });

  it.each([
    '/haku?q=broilerin&page=2',
    '/haku?q=broilerin&contentGroup=1',
    '/haku?q=broilerin&facetTags=1',
    '/haku?q=broilerin&contentGroup=0&currentPage=1&pageSize=10',
  ])('keeps %s out of the index, pointing at the plain query', async (url) => {
    expect(await head(url)).toEqual({
      canonical: 'http://jyvabroiler.localhost/haku?q=broilerin',
      robots: 'noindex',
    });
  });
});
