import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFacetCategory, createProduct } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { canNarrow, FacetSearch, type FacetSearchProps } from './facet-search.tsx';
import { loadFacetSearch } from './index.server.ts';
import { islandProps, renderFinnish } from './island.test-support.tsx';
import {
  facetSearchKindOf,
  facetTagsOf,
  type SearchPageDefaults,
  searchPageHref,
  searchPageStateOf,
  tidySearchParams,
} from './schemas.ts';

let t: TestApp;
const tag: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.get('/test/products', async (request) =>
        loadFacetSearch(
          request,
          { path: '/tuotteet', settings: { numberOfProducts: 3, widget: 'product-search' } },
          'products',
        ),
      );
      app.get('/test/food-products', async (request) =>
        loadFacetSearch(
          request,
          {
            path: '/tuotteet',
            settings: {
              numberOfProducts: 3,
              widget: 'product-search',
              hideResults: true,
              productGroups: true,
            },
          },
          'products',
        ),
      );
    },
  });
  for (const [name, group] of [
    ['Broilerin koipi', 'Broileri'],
    ['Broilerin rinta', 'Broileri'],
    ['Nakki', 'Makkarat'],
    ['Lihapullat', 'Ateriat'],
  ] as const) {
    await createProduct(t.app.db, {
      siteId: 'ammattilaiset',
      path: `/tuotteet/${name.toLowerCase().replace(/ /g, '-')}`,
      name,
      productGroup: group,
    });
  }
  const category = await createFacetCategory(t.app.db, {
    siteId: 'jyvabroiler',
    scope: 'products',
    name: 'Tuoteryhmä',
    tags: ['Broileri', 'Makkarat'],
  });
  Object.assign(tag, category.tags);
  for (let i = 0; i < 7; i++) {
    await createProduct(t.app.db, {
      siteId: 'jyvabroiler',
      path: `/tuotteet/broileri/broileri-${i}`,
      name: `Broilerin fileesuikale ${i}`,
      kind: 'broiler-product',
      facetTagIds: [tag.Broileri as number],
    });
  }
  await createProduct(t.app.db, {
    siteId: 'jyvabroiler',
    path: '/tuotteet/makkarat/grillimakkara',
    name: 'Grillimakkara',
    kind: 'broiler-product',
    facetTagIds: [tag.Makkarat as number],
  });
});

afterAll(async () => {
  await t?.close();
});

const props = (url: string) => islandProps<FacetSearchProps>(t, 'jyvabroiler.localhost', url);
const render = (p: FacetSearchProps) => renderFinnish(<FacetSearch {...p} />);

describe('product search on a page', () => {
  it('takes its page size from numberOfProducts and joins every page up to `page`', async () => {
    const first = await props('/test/products');
    expect(first.defaults).toMatchObject({ pageSize: 3, contentGroup: 1, language: 'fi' });
    expect(first.result.totalCount).toBe(8);
    expect(first.result.hits).toHaveLength(3);
    const joined = await props('/test/products?page=2&utm=x');
    expect(joined.state.page).toBe(2);
    expect(joined.result.hits).toHaveLength(6);
    expect(joined.result.hasMore).toBe(true);
    const html = render(joined);
    expect(html).toContain('8 tulosta');
    expect(html).toContain('href="/tuotteet?page=3&amp;utm=x"');
    expect((html.match(/<article/g) ?? []).length).toBe(6);
  });

  it('filters by the facets of its URL and shows them as chosen, with chips', async () => {
    const p = await props(`/test/products?q=broileri&facetTags=${tag.Broileri}`);
    expect(p.state.facetTags).toEqual([tag.Broileri]);
    expect(p.result.totalCount).toBe(7);
    const html = render(p);
    expect(html).toContain('7 tulosta');
    expect(html).toMatch(/<summary[^>]*>Tuoteryhmä<span[^>]*>1 valittu<\/span><\/summary>/);
    expect(html).toMatch(new RegExp(`<input[^>]*checked=""[^>]*value="${tag.Broileri}"`));
    expect(html).toContain('aria-label="Poista rajaus: Broileri"');
    expect(html).toContain('aria-label="Poista hakusana: broileri"');
    // Makkarat has no hit with the term: it cannot be chosen.
    expect(html).toMatch(new RegExp(`<input[^>]*disabled=""[^>]*value="${tag.Makkarat}"`));
  });

  it("says 'Ei tuloksia' and offers no more when nothing is found", async () => {
    const html = render(await props('/test/products?q=xyzzyqwv'));
    expect(html).toContain('Ei tuloksia');
    expect(html).not.toContain('Näytä lisää');
  });
});

describe('which facet categories show (decision 107)', () => {
  const category = (counts: number[]) => ({
    id: 1,
    name: 'Raaka-aine',
    facetTags: counts.map((count, i) => ({
      id: i + 1,
      name: `Tagi ${i + 1}`,
      count,
      selected: false,
      display: true,
    })),
  });
  const none = new Set<number>();

  it('shows a category one of whose tags is in some results but not all', () => {
    expect(canNarrow(category([0, 100, 50]), none, 150)).toBe(true);
  });

  it('leaves out one whose tags are each in all the results or in none', () => {
    expect(canNarrow(category([0, 150, 0]), none, 150)).toBe(false);
    expect(canNarrow(category([0, 0]), none, 40)).toBe(false);
    // With no results, nothing narrows.
    expect(canNarrow(category([0, 0]), none, 0)).toBe(false);
  });

  it('keeps one with a chosen tag, so it can be taken off', () => {
    expect(canNarrow(category([0, 150]), new Set([2]), 150)).toBe(true);
  });

  it('shows every counted category while the results are hidden until a search (total 0)', () => {
    expect(canNarrow(category([0, 150]), none, 0)).toBe(true);
  });
});

describe('search page URLs (spec §2)', () => {
  const defaults: SearchPageDefaults = {
    pageSize: 10,
    contentGroup: 0,
    language: 'fi',
    sortOrder: 0,
  };

  it('drops empty values and known parameters at their default, keeps the rest in order', () => {
    const params = new URLSearchParams(
      'a=&language=fi&pageSize=10&contentGroup=0&skipPagination=false&matchAnyCategoryIds=&matchAnyCategoryIds[]=&sortOrder=0&page=1&utm=x&currentPage=1',
    );
    expect(tidySearchParams(params, defaults).toString()).toBe('utm=x&currentPage=1');
    const kept = new URLSearchParams('language=en&pageSize=20&sortOrder=2&skipPagination=true');
    expect(tidySearchParams(kept, defaults).toString()).toBe(kept.toString());
    expect(
      tidySearchParams(new URLSearchParams('language=se'), { ...defaults, language: 'se' }).size,
    ).toBe(0);
  });

  it('writes facetTags as a comma list and reads it back, also as a plain form sends it', () => {
    const href = searchPageHref(
      '/tuotteet',
      { q: 'kana', page: 1, pageSize: 12, contentGroup: 1, facetTags: [3, 7] },
      { pageSize: 12, contentGroup: 1 },
    );
    expect(href).toBe('/tuotteet?q=kana&facetTags=3,7');
    expect(facetTagsOf(new URLSearchParams('facetTags=3,7'))).toEqual([3, 7]);
    expect(facetTagsOf(new URLSearchParams('facetTags=3&facetTags=7&facetTags=x,0,3'))).toEqual([
      3, 7,
    ]);
  });

  it('knows the searches a page setting names', () => {
    expect(facetSearchKindOf('product-search')).toBe('products');
    expect(facetSearchKindOf('recipe-search')).toBe('recipes');
    expect(facetSearchKindOf('newsroom-search')).toBe('newsroom');
    expect(facetSearchKindOf('shop-product-search')).toBe('shop');
    expect(facetSearchKindOf('timeline')).toBeUndefined();
  });
});

/** The attributes of the button whose text is `text`, one `name="value"` each. */
function buttonAttributes(html: string, text: string): string[] {
  const found = new RegExp(`<button([^>]*)>${text}<`).exec(html);
  return found?.[1]?.match(/[\w-]+="[^"]*"/g) ?? [];
}

describe('results hidden until asked, and the product-group toggle (spec §4)', () => {
  const food = async (query = '') => {
    const response = await t.app.inject({
      url: `/test/food-products${query}`,
      headers: { host: 'ammattilaiset.localhost' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Promise<FacetSearchProps>;
  };

  it('shows no results before a term or a choice, and says how to get them', async () => {
    const p = await food();
    expect(p.hideResults).toBe(true);
    expect(p.result.hits).toEqual([]);
    const html = render(p);
    expect(html).toContain('Tulokset näkyvät, kun haet hakusanalla tai valitset rajauksen.');
    expect(html).not.toContain('Ei tuloksia');
    expect((await food('?q=nakki')).result.totalCount).toBe(1);
  });

  it("offers the site's product groups as toggles, in alphabetical order, each pressed alone", async () => {
    const p = await food();
    expect(p.productGroups).toEqual(['Ateriat', 'Broileri', 'Makkarat']);
    const html = render(p);
    expect(html.match(/aria-pressed="false"/g)).toHaveLength(3);
    // Without script each toggle submits the page's form with its group.
    expect(buttonAttributes(html, 'Broileri')).toEqual(
      expect.arrayContaining([
        'type="submit"',
        'name="productGroup"',
        'value="Broileri"',
        'aria-pressed="false"',
      ]),
    );

    const chosen = await food('?productGroup=Broileri');
    expect(chosen.state.productGroup).toBe('Broileri');
    expect(chosen.result.totalCount).toBe(2);
    const pressed = render(chosen);
    // Pressed again, it takes the group off.
    expect(buttonAttributes(pressed, 'Broileri')).toEqual(
      expect.arrayContaining(['value=""', 'aria-pressed="true"']),
    );
    expect(pressed).toContain('aria-label="Poista rajaus: Broileri"');
    expect(pressed).toContain('2 tulosta');
    // A new term keeps the group: the search button carries it.
    expect(buttonAttributes(pressed, 'Hae')).toEqual(
      expect.arrayContaining(['name="productGroup"', 'value="Broileri"']),
    );
  });

  it('keeps the group in the URL, and takes it off when asked', () => {
    const defaults: SearchPageDefaults = { pageSize: 12, contentGroup: 1 };
    const state = searchPageStateOf(new URLSearchParams('productGroup=%20Broileri%20'), defaults);
    expect(state.productGroup).toBe('Broileri');
    expect(searchPageHref('/tuotteet', { ...state, q: 'koipi' }, defaults)).toBe(
      '/tuotteet?q=koipi&productGroup=Broileri',
    );
    const current = new URLSearchParams('productGroup=Broileri&utm=x');
    expect(searchPageHref('/tuotteet', { ...state, productGroup: '' }, defaults, current)).toBe(
      '/tuotteet?utm=x',
    );
    // A search that knows no group leaves the URL's as it is.
    const { productGroup: _, ...other } = state;
    expect(searchPageHref('/tuotteet', other, defaults, current)).toBe(
      '/tuotteet?productGroup=Broileri&utm=x',
    );
  });
});
