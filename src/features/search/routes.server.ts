import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../../db/client.ts';
import { NotFound } from '../../server/errors.ts';
import { parse } from '../../server/validate.ts';
import { getSite } from '../../sites/registry.ts';
import { langPrefix } from '../../sites/resolve.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang, Site } from '../../sites/types.ts';
import { contentGroupOptions, facetDefinitions, recipeSearchPage } from './facets.server.ts';
import { allProducts } from './products.server.ts';
import {
  type ContentGroup,
  DEFAULT_PAGE_SIZE,
  foldBracketParams,
  langOfSearchLanguage,
  languageQuerySchema,
  recipeTagsQuerySchema,
  type SearchLanguage,
  type SearchQuery,
  type SearchResult,
  type SortOrder,
  SUGGESTIONS_PAGE_SIZE,
  searchQuerySchema,
} from './schemas.ts';
import { type FacetScope, type SearchScope, type Source, search } from './search.server.ts';

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

/**
 * The language a search runs in: the parameter, else Finnish (the contract's default), else, on a
 * site without Finnish, the site's own language. A language the site lacks finds nothing.
 */
export function searchLang(site: Site, language: SearchLanguage | undefined): Lang | undefined {
  if (language === undefined) return site.languages.includes('fi') ? 'fi' : site.languages[0];
  const lang = langOfSearchLanguage(language);
  return lang && site.languages.includes(lang) ? lang : undefined;
}

/** `/api/search/*` and `/api/facets/*`: site search over the search documents. */
export async function searchRoutes(app: FastifyInstance) {
  for (const endpoint of endpoints) {
    app.get(endpoint.path, { config: { session: false } }, async (request, reply) => {
      const query = parse(searchQuerySchema, foldBracketParams(request.query));
      cacheBriefly(reply);
      return searchEndpoint(app.db, endpoint, request.site, query);
    });
  }

  // The product select of the forms. Its language defaults to the site's own, as it always has.
  app.get('/api/search/all-products', { config: { session: false } }, async (request, reply) => {
    const { language } = parse(languageQuerySchema, request.query);
    const lang = language ? langOfSearchLanguage(language) : request.locale.lang;
    reply.header('cache-control', 'public, max-age=300');
    if (!lang) return [];
    return allProducts(app.db, request.site.id, lang);
  });

  app.get('/api/facets/groups', { config: { session: false } }, async (request, reply) => {
    const { language } = parse(languageQuerySchema, request.query);
    cacheBriefly(reply);
    return contentGroupOptions(app.db, request.site.id, searchLang(request.site, language));
  });

  app.get('/api/facets/custom', { config: { session: false } }, async (request, reply) => {
    const { language } = parse(languageQuerySchema, request.query);
    cacheBriefly(reply);
    return facetDefinitions(app.db, request.site.id, searchLang(request.site, language), [
      'products',
      'recipes',
      'news',
    ]);
  });

  app.get('/api/facets/recipetags', { config: { session: false } }, async (request, reply) => {
    const { recipeSearchBlockId } = parse(recipeTagsQuerySchema, request.query);
    const page = await recipeSearchPage(app.db, request.site.id, recipeSearchBlockId);
    if (!page) throw new NotFound('The site has no recipe search with that id.');
    cacheBriefly(reply);
    return facetDefinitions(app.db, request.site.id, page.lang, ['recipes']);
  });
}

export type SearchEndpointPath = (typeof endpoints)[number]['path'];

/**
 * What a search endpoint answers for parsed parameters. The search pages call it on the server
 * for their first render, so the page and its later requests see the same results.
 */
export function searchEndpointResult(
  db: Database,
  path: SearchEndpointPath,
  site: Site,
  query: SearchQuery,
): Promise<SearchResult> {
  const endpoint = endpoints.find((e) => e.path === path);
  if (!endpoint) throw new Error(`no search endpoint ${path}`);
  return searchEndpoint(db, endpoint, site, query);
}

async function searchEndpoint(
  db: Database,
  endpoint: Endpoint,
  requestSite: Site,
  query: SearchQuery,
): Promise<SearchResult> {
  const site = endpoint.siteId ? (getSite(endpoint.siteId) ?? requestSite) : requestSite;
  const scope = scopeOf(endpoint, site, query);
  if (endpoint.minQueryLength && query.q.trim().length < endpoint.minQueryLength) {
    return { query: query.q.trim(), facetCategories: [], hits: [], totalCount: 0, hasMore: false };
  }
  return search(db, scope, {
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

/** Answers are public and change only when content does. */
function cacheBriefly(reply: FastifyReply) {
  reply.header('cache-control', 'public, max-age=60');
}
