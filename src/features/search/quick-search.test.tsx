import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../i18n/catalogues.ts';
import { IslandRoot } from '../../render/island-root.tsx';
import { QuickSearch } from './quick-search.tsx';
import {
  foldBracketParams,
  searchPageStateOf,
  searchParamsOf,
  searchQuerySchema,
  siteSearchLink,
} from './schemas.ts';

describe('QuickSearch', () => {
  it('is a GET form to the search page with a combobox that works before any script', () => {
    const html = renderToString(
      <IslandRoot lang="fi" t={serverT('fi')}>
        <QuickSearch action="/haku" label="Hae sivustolta" />
      </IslandRoot>,
    );
    expect(html).toContain('role="search"');
    expect(html).toMatch(/<form[^>]*action="\/haku"[^>]*method="get"/);
    expect(html).toMatch(/<input[^>]*role="combobox"[^>]*name="q"/);
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('aria-autocomplete="list"');
    expect(html).toContain('placeholder="Etsi tuote, resepti tai muuta tietoa"');
    expect(html).toContain('role="status"');
    // The panel stays hidden until there is something to show.
    expect(html).toMatch(/<div[^>]*hidden=""/);
    expect(html).not.toContain('Etsitään...');
  });
});

describe('search request parameters', () => {
  it('write arrays in bracket notation and facet tags as a comma list, and read them back', () => {
    const params = searchParamsOf({
      q: 'kana',
      language: 'fi',
      facetTags: [3, 4],
      matchAnyCategoryIds: [1, 2],
      authors: ['Riikka Järvinen'],
      hideResults: false,
      productGroup: '',
    });
    expect(params.toString()).toBe(
      'q=kana&language=fi&facetTags=3%2C4&matchAnyCategoryIds%5B%5D=1&matchAnyCategoryIds%5B%5D=2&authors%5B%5D=Riikka+J%C3%A4rvinen&hideResults=false',
    );
    const back = searchQuerySchema.parse(
      foldBracketParams({
        q: 'kana',
        facetTags: '3,4',
        'matchAnyCategoryIds[]': ['1', '2'],
        'authors[]': 'Riikka Järvinen',
        hideResults: 'false',
      }),
    );
    expect(back).toMatchObject({
      q: 'kana',
      page: 1,
      facetTags: [3, 4],
      matchAnyCategoryIds: [1, 2],
      authors: ['Riikka Järvinen'],
      hideResults: false,
    });
  });
});

describe('links to the search page from site search', () => {
  it('carry q, contentGroup, currentPage=1 and pageSize=10 (spec navigation §2)', () => {
    expect(siteSearchLink('/haku', ' kana ')).toBe(
      '/haku?q=kana&contentGroup=0&currentPage=1&pageSize=10',
    );
    expect(siteSearchLink('/en/search', 'chicken & rice', 2)).toBe(
      '/en/search?q=chicken+%26+rice&contentGroup=2&currentPage=1&pageSize=10',
    );
    // The search page reads them back as its first page of ten.
    const link = new URL(siteSearchLink('/haku', 'kana', 1), 'http://x');
    expect(searchPageStateOf(link.searchParams, { pageSize: 10, contentGroup: 0 })).toEqual({
      q: 'kana',
      page: 1,
      pageSize: 10,
      contentGroup: 1,
    });
  });
});
