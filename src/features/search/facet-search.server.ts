import type { FastifyRequest } from 'fastify';
import { langPrefix } from '../../sites/resolve.ts';
import { searchEndpointResult, shopSearchResult } from './endpoints.server.ts';
import type { FacetSearchProps } from './facet-search.tsx';
import { productGroups } from './products.server.ts';
import {
  DEFAULT_PAGE_SIZE,
  FACET_SEARCH_ENDPOINTS,
  type FacetSearchKind,
  MAX_PAGE_SIZE,
  type SearchPageDefaults,
  type SearchQuery,
  searchLanguageOf,
  searchPageStateOf,
  settingOf,
  tidySearchParams,
} from './schemas.ts';
import type { ShopProductSearchProps } from './shop-product-search.tsx';

/**
 * The props of a product, recipe, newsroom or shop product search on a page, read from its URL
 * (q, page, pageSize, contentGroup, facetTags, productGroup): the first answer is the endpoint's
 * own, with every page up to `page` at once, so a reload or a shared link shows what the visitor
 * saw. Product searches take their page size from the page's `numberOfProducts` setting, the
 * others from `pageSize`. Two page settings use the endpoints' options: `hideResults` shows no
 * results until a term, a facet or a product group is chosen, and `productGroups` (product
 * searches) offers the site's product groups as toggles (`productGroup`).
 */
export async function loadFacetSearch(
  request: FastifyRequest,
  page: { path: string; settings: Record<string, unknown> },
  kind: Exclude<FacetSearchKind, 'shop'>,
): Promise<FacetSearchProps> {
  const { props, query } = facetSearchOf(request, page, kind);
  const groups =
    kind === 'products' && page.settings.productGroups === true
      ? productGroups(request.server.db, request.site.id, request.locale.lang)
      : undefined;
  const [result, groupNames] = await Promise.all([
    searchEndpointResult(request.server.db, FACET_SEARCH_ENDPOINTS[kind], request.site, query),
    groups,
  ]);
  return { ...props, result, ...(groupNames?.length ? { productGroups: groupNames } : {}) };
}

/** The shop's product search on a page: as `loadFacetSearch`, its hits with the products' cards. */
export async function loadShopProductSearch(
  request: FastifyRequest,
  page: { path: string; settings: Record<string, unknown> },
): Promise<ShopProductSearchProps> {
  const { props, query } = facetSearchOf(request, page, 'shop');
  const result = await shopSearchResult(request.server.db, request.site, query);
  return { ...props, kind: 'shop', result };
}

/** A facet search's props but its result, and the endpoint query that finds the result. */
function facetSearchOf(
  request: FastifyRequest,
  page: { path: string; settings: Record<string, unknown> },
  kind: FacetSearchKind,
): { props: Omit<FacetSearchProps, 'result'>; query: SearchQuery } {
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
  const params = new URLSearchParams(request.url.split('?')[1] ?? '');
  const state = searchPageStateOf(params, defaults);
  const hideResults = page.settings.hideResults === true;
  return {
    props: {
      kind,
      action: `${langPrefix(site, locale.lang)}${page.path}`,
      language,
      state,
      defaults,
      search: tidySearchParams(params, defaults).toString(),
      ...(hideResults ? { hideResults } : {}),
    },
    query: {
      language,
      q: state.q,
      page: 1,
      pageSize: state.pageSize * state.page,
      contentGroup: state.contentGroup,
      facetTags: state.facetTags,
      productGroup: state.productGroup,
      hideResults,
    },
  };
}
