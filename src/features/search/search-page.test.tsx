import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRecipe } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { loadSearchPage } from './index.server.ts';
import { islandProps, renderFinnish } from './island.test-support.tsx';
import { searchPageHref, searchPageStateOf } from './schemas.ts';
import { type SearchPageProps, SiteSearch } from './search-page.tsx';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.get('/test/search-page', async (request) =>
        loadSearchPage(request, { path: '/haku', settings: { contentGroup: 0, pageSize: 10 } }),
      );
      app.get('/en/test/search-page', async (request) =>
        loadSearchPage(request, { path: '/search', settings: {} }),
      );
    },
  });
  for (const name of ['Kanakeitto', 'Kanacurry', 'Kanasalaatti']) {
    await createRecipe(t.app.db, { siteId: 'sibylla', path: `/reseptit/${name}`, title: name });
  }
  await createProduct(t.app.db, { siteId: 'sibylla', path: '/tuotteet/kana', name: 'Kanafilee' });
});

afterAll(async () => {
  await t?.close();
});

const props = (url: string) => islandProps<SearchPageProps>(t, 'sibylla.localhost', url);
const render = (p: SearchPageProps) => renderFinnish(<SiteSearch {...p} />);

describe('site search page', () => {
  it('searches nothing without a query', async () => {
    const p = await props('/test/search-page');
    expect(p.result).toBeNull();
    expect(p.groups.map((g) => g.value)).toEqual([0, 1, 2]);
    const html = render(p);
    expect(html).toMatch(/<form[^>]*action="\/haku"[^>]*method="get"/);
    expect(html).not.toContain('Hakutuloksia ei löytynyt');
    // A search landmark of its own name: the header's search box is named 'Hae sivustolta'.
    const fi = serverT('fi');
    expect(html).toMatch(
      new RegExp(`<form[^>]*role="search"[^>]*aria-label="${fi('search.pageLabel')}"`),
    );
    expect(fi('search.pageLabel')).not.toBe(fi('search.label'));
  });

  it('shows every page up to the one in the URL, with a link to the next', async () => {
    const p = await props('/test/search-page?q=kana&contentGroup=2&pageSize=1&page=2&utm=x');
    expect(p.state).toEqual({ q: 'kana', page: 2, pageSize: 1, contentGroup: 2 });
    expect(p.result?.hits).toHaveLength(2);
    expect(p.result?.totalCount).toBe(3);
    expect(p.result?.hasMore).toBe(true);
    const html = render(p);
    expect(html).toContain('3 tulosta');
    expect(html).toContain('href="/reseptit/Kanakeitto"');
    expect(html).toContain(
      'href="/haku?q=kana&amp;contentGroup=2&amp;pageSize=1&amp;page=3&amp;utm=x"',
    );
    expect(html).toContain('Näytä lisää');
    expect(html).toMatch(
      /<input[^>]*type="radio"[^>]*checked=""[^>]*value="2"|<input[^>]*type="radio"[^>]*value="2"[^>]*checked=""/,
    );
  });

  it('says so when nothing is found', async () => {
    const html = render(await props('/test/search-page?q=xyzzyx'));
    expect(html).toContain('Hakutuloksia ei löytynyt');
    expect(html).not.toContain('Näytä lisää');
  });

  it('keeps the URL short: defaults out, unknown parameters kept', () => {
    const defaults = { pageSize: 10, contentGroup: 0 as const };
    const state = searchPageStateOf(new URLSearchParams('q=kana&page=x&pageSize=10'), defaults);
    expect(state).toEqual({ q: 'kana', page: 1, pageSize: 10, contentGroup: 0 });
    expect(searchPageHref('/haku', state, defaults, new URLSearchParams('foo=1&bar='))).toBe(
      '/haku?foo=1&q=kana',
    );
    expect(searchPageHref('/haku', { ...state, q: ' ', contentGroup: 1, page: 2 }, defaults)).toBe(
      '/haku?contentGroup=1&page=2',
    );
  });
});
