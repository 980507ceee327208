import type { Database } from '../../db/client.ts';
import { NotFound } from '../../server/errors.ts';
import { getSite } from '../../sites/registry.ts';
import { langPrefix } from '../../sites/resolve.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { parseContentId } from '../content/index.ts';
import { shopProductCards } from '../shop/index.server.ts';
import { contentGroupOptions, facetDefinitions, recipeSearchPage } from './facets.server.ts';
import { allProducts } from './products.server.ts';
import {
  type ContentGroup,
  type ContentGroupOption,
  DEFAULT_PAGE_SIZE,
  type FacetCategory,
  langOfSearchLanguage,
  type ProductListItem,
  type SearchLanguage,
  type SearchQuery,
  type SearchResult,
  type SortOrder,
  SUGGESTIONS_PAGE_SIZE,
} from './schemas.ts';
import { type FacetScope, type SearchScope, type Source, search } from './search.server.ts';
import type { ShopSearchResult } from './shop-search.ts';

/**
 * The use cases of `/api/search/*` and `/api/facets/*`: what each endpoint answers for parsed
 * parameters. The routes only parse and call these; the search pages call `searchEndpointResult`
 * on the server for their first render, so the page and its later requests see the same results.
 */

/** How one endpoint searches: which documents, and its own defaults. */
interface Endpoint {
  path: string;
  /** The site whose documents it searches; the request's site by default. */
  siteId?: string;
  /** The sources searched for each content group (0, 1, 2). */
  sources: (group: ContentGroup) => readonly Source[] | null;
  defaultContentGroup: ContentGroup;
  defaultSortOrder: SortOrder;
  defaultPageSize: number;
  facetScopes: (group: ContentGroup) => readonly FacetScope[];
  /** Quick suggestions: nothing below three characters. */
  minQueryLength?: number;
  /** Quick suggestions answer hits only; their total is not counted (see `withoutTotal`). */
  withoutTotal?: boolean;
}

const productsOrRecipes = (group: ContentGroup): readonly Source[] =>
  group === 1 ? ['product'] : group === 2 ? ['recipe'] : ['product', 'recipe'];
const allOrGroup = (group: ContentGroup): readonly Source[] | null =>
  group === 1 ? ['product'] : group === 2 ? ['recipe'] : null;
const scopesOfGroup = (group: ContentGroup): readonly FacetScope[] =>
  group === 1 ? ['products'] : group === 2 ? ['recipes'] : ['products', 'recipes'];

const endpoints = [
  {
    path: '/api/search/suggestions/',
    sources: allOrGroup,
    defaultContentGroup: 0,
    defaultSortOrder: 0,
    defaultPageSize: SUGGESTIONS_PAGE_SIZE,
    facetScopes: () => [],
    minQueryLength: 3,
    withoutTotal: true,
  },
  {
    path: '/api/search/content/',
    sources: allOrGroup,
    defaultContentGroup: 0,
    defaultSortOrder: 0,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    facetScopes: (group) => (group === 0 ? [] : scopesOfGroup(group)),
  },
  {
    path: '/api/search/newsroom',
    sources: () => ['news'],
    defaultContentGroup: 0,
    defaultSortOrder: 2,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    facetScopes: () => ['news'],
  },
  {
    path: '/api/search/products',
    sources: productsOrRecipes,
    defaultContentGroup: 1,
    defaultSortOrder: 0,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    facetScopes: scopesOfGroup,
  },
  {
    path: `/api/search/${SHOP_SITE_ID}-products`,
    siteId: SHOP_SITE_ID,
    sources: productsOrRecipes,
    defaultContentGroup: 1,
    defaultSortOrder: 0,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    facetScopes: scopesOfGroup,
  },
  {
    path: '/api/search/recipes',
    sources: productsOrRecipes,
    defaultContentGroup: 2,
    defaultSortOrder: 0,
    defaultPageSize: DEFAULT_PAGE_SIZE,
    facetScopes: scopesOfGroup,
  },
] as const satisfies readonly Endpoint[];

export type SearchEndpointPath = (typeof endpoints)[number]['path'];

/** The paths of the search endpoints, each answering a `SearchResult`. */
export const searchEndpointPaths: readonly SearchEndpointPath[] = endpoints.map((e) => e.path);

const endpointsByPath = new Map<string, Endpoint>(endpoints.map((e) => [e.path, e]));

/**
 * The language a search runs in: the parameter, else Finnish (the contract's default), else, on a
 * site without Finnish, the site's own language. A language the site lacks finds nothing.
 */
export function searchLang(site: Site, language: SearchLanguage | undefined): Lang | undefined {
  if (language === undefined) return site.languages.includes('fi') ? 'fi' : site.languages[0];
  const lang = langOfSearchLanguage(language);
  return lang && site.languages.includes(lang) ? lang : undefined;
}

/** What a search endpoint answers for parsed parameters on a site. */
export async function searchEndpointResult(
  db: Database,
  path: SearchEndpointPath,
  requestSite: Site,
  query: SearchQuery,
): Promise<SearchResult> {
  const endpoint = endpointsByPath.get(path);
  if (!endpoint) throw new Error(`no search endpoint ${path}`);
  const site = endpoint.siteId ? (getSite(endpoint.siteId) ?? requestSite) : requestSite;
  if (endpoint.minQueryLength && query.q.trim().length < endpoint.minQueryLength) {
    return { query: query.q.trim(), facetCategories: [], hits: [], totalCount: 0, hasMore: false };
  }
  return search(db, scopeOf(endpoint, site, query), {
    q: query.q,
    page: query.page,
    pageSize: query.pageSize ?? endpoint.defaultPageSize,
    sortOrder: query.sortOrder ?? endpoint.defaultSortOrder,
    skipPagination: query.skipPagination,
    hideResults: query.hideResults,
    productGroup: query.productGroup,
    facetTags: query.facetTags,
    matchAnyCategoryIds: query.matchAnyCategoryIds,
    matchAllCategoryIds: query.matchAllCategoryIds,
    searchEquipments: query.searchEquipments,
    authors: query.authors,
    withoutTotal: endpoint.withoutTotal,
  });
}

/** The shop's product search: its hits carry the products' card data. */
export const SHOP_SEARCH_PATH = `/api/search/${SHOP_SITE_ID}-products` as const;

/**
 * What the shop's product search answers: the search's result, each product hit with the shop
 * product's card data (price, price per kilo, discount, stock, code), read in one query for the
 * page. The endpoint searches products and recipes; a recipe hit (type `recipe`) has no card.
 */
export async function shopSearchResult(
  db: Database,
  requestSite: Site,
  query: SearchQuery,
): Promise<ShopSearchResult> {
  const result = await searchEndpointResult(db, SHOP_SEARCH_PATH, requestSite, query);
  const shop = getSite(SHOP_SITE_ID);
  const lang = shop ? searchLang(shop, query.language) : undefined;
  const productIds = result.hits.flatMap((hit) => {
    const ref = parseContentId(hit.contentId);
    return ref?.kind === 'product' ? [ref.id] : [];
  });
  const cards = lang ? await shopProductCards(db, lang, productIds) : [];
  const byId = new Map(cards.map((card) => [card.contentId, card]));
  return {
    ...result,
    hits: result.hits.map((hit) => ({ ...hit, product: byId.get(hit.contentId) ?? null })),
  };
}

function scopeOf(endpoint: Endpoint, site: Site, query: SearchQuery): SearchScope {
  const lang = searchLang(site, query.language);
  const group = query.contentGroup ?? endpoint.defaultContentGroup;
  return {
    siteId: site.id,
    lang,
    urlPrefix: lang ? langPrefix(site, lang) : '',
    sources: endpoint.sources(group),
    facetScopes: endpoint.facetScopes(group),
  };
}

/**
 * `/api/search/all-products`, the product select of the forms: every product of the site. Its
 * language defaults to the page's own (`fallback`), as it always has.
 */
export async function productSelectList(
  db: Database,
  site: Site,
  language: SearchLanguage | undefined,
  fallback: Lang,
): Promise<ProductListItem[]> {
  const lang = language ? langOfSearchLanguage(language) : fallback;
  return lang ? allProducts(db, site.id, lang) : [];
}

/** `/api/facets/groups`: the content-group options of the site search. */
export function contentGroupsOf(
  db: Database,
  site: Site,
  language: SearchLanguage | undefined,
): Promise<ContentGroupOption[]> {
  return contentGroupOptions(db, site.id, searchLang(site, language));
}

/** `/api/facets/custom`: the facet definitions of every scope of the site. */
export function customFacets(
  db: Database,
  site: Site,
  language: SearchLanguage | undefined,
): Promise<FacetCategory[]> {
  return facetDefinitions(db, site.id, searchLang(site, language), ['products', 'recipes', 'news']);
}

/** `/api/facets/recipetags`: the recipe facets of a recipe search; 404 when the site has none. */
export async function recipeSearchFacets(
  db: Database,
  site: Site,
  recipeSearchBlockId: number,
): Promise<FacetCategory[]> {
  const page = await recipeSearchPage(db, site.id, recipeSearchBlockId);
  if (!page) throw new NotFound('The site has no recipe search with that id.');
  return facetDefinitions(db, site.id, page.lang, ['recipes']);
}
