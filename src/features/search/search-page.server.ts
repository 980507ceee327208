import type { FastifyRequest } from 'fastify';
import { langPrefix } from '../../sites/resolve.ts';
import { contentGroupOptions } from './facets.server.ts';
import {
  type ContentGroup,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type SearchPageDefaults,
  searchLanguageOf,
  searchPageStateOf,
  settingOf,
  tidySearchParams,
} from './schemas.ts';
import { search } from './search.server.ts';
import type { SearchPageProps } from './search-page.tsx';

/**
 * The props of the site search page (a page of type `search`), read from its URL: the results of
 * `q` in the chosen content group, every page up to `page` at once (so a reload or a shared link
 * shows what the visitor saw). Without `q` nothing is searched.
 */
export async function loadSearchPage(
  request: FastifyRequest,
  page: { path: string; settings: Record<string, unknown> },
): Promise<SearchPageProps> {
  const { site, locale } = request;
  const defaults: SearchPageDefaults = {
    pageSize: settingOf(page.settings.pageSize, 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    contentGroup: settingOf(page.settings.contentGroup, 0, 2, 0) as ContentGroup,
    language: searchLanguageOf(locale.lang),
    sortOrder: 0,
  };
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const state = searchPageStateOf(query, defaults);
  const action = `${langPrefix(site, locale.lang)}${page.path}`;
  const groups = await contentGroupOptions(request.server.db, site.id, locale.lang);
  const q = state.q.trim();
  const result = q
    ? await search(
        request.server.db,
        {
          siteId: site.id,
          lang: locale.lang,
          urlPrefix: locale.prefix,
          sources:
            state.contentGroup === 1 ? ['product'] : state.contentGroup === 2 ? ['recipe'] : null,
          facetScopes: [],
        },
        { q, page: 1, pageSize: state.pageSize * state.page, sortOrder: 0 },
      )
    : null;
  return {
    action,
    language: searchLanguageOf(locale.lang),
    state,
    defaults,
    groups,
    result,
    search: tidySearchParams(query, defaults).toString(),
  };
}
