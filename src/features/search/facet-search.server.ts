import type { FastifyRequest } from 'fastify';
import { langPrefix } from '../../sites/resolve.ts';
import { searchEndpointResult } from './endpoints.server.ts';
import type { FacetSearchProps } from './facet-search.tsx';
import {
  DEFAULT_PAGE_SIZE,
  FACET_SEARCH_ENDPOINTS,
  type FacetSearchKind,
  MAX_PAGE_SIZE,
  type SearchPageDefaults,
  searchLanguageOf,
  searchPageStateOf,
  settingOf,
  tidySearchParams,
} from './schemas.ts';

/**
 * The props of a product, recipe, newsroom or shop product search on a page, read from its URL
 * (q, page, pageSize, contentGroup, facetTags): the first answer is the endpoint's own, with
 * every page up to `page` at once, so a reload or a shared link shows what the visitor saw.
 * Product searches take their page size from the page's `numberOfProducts` setting, the others
 * from `pageSize`.
 */
export async function loadFacetSearch(
  request: FastifyRequest,
  page: { path: string; settings: Record<string, unknown> },
  kind: FacetSearchKind,
): Promise<FacetSearchProps> {
  const { site, locale } = request;
  const language = searchLanguageOf(locale.lang);
  const pageSizeSetting =
    kind === 'products' || kind === 'shop'
      ? page.settings.numberOfProducts
      : page.settings.pageSize;
  const defaults: SearchPageDefaults = {
    pageSize: settingOf(pageSizeSetting, 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    contentGroup: kind === 'recipes' ? 2 : kind === 'newsroom' ? 0 : 1,
    language,
    sortOrder: kind === 'newsroom' ? 2 : 0,
  };
  const query = new URLSearchParams(request.url.split('?')[1] ?? '');
  const state = searchPageStateOf(query, defaults);
  const result = await searchEndpointResult(request.server.db, FACET_SEARCH_ENDPOINTS[kind], site, {
    language,
    q: state.q,
    page: 1,
    pageSize: state.pageSize * state.page,
    contentGroup: state.contentGroup,
    facetTags: state.facetTags,
  });
  return {
    kind,
    action: `${langPrefix(site, locale.lang)}${page.path}`,
    language,
    state,
    defaults,
    search: tidySearchParams(query, defaults).toString(),
    result,
  };
}
