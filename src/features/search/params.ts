import type { Lang } from '../../sites/types.ts';
import type { SearchQuery } from './schemas.ts';

/**
 * The search contract's plain values: limits, the search page's URL state and the request
 * parameters the widgets send. Without zod, so the browser code that only builds requests (the
 * header's quick search on every page) does not load the schemas; `schemas.ts` re-exports all.
 */
/** Quick search asks only from this many characters on. */
export const MIN_QUERY_LENGTH = 3;
/** Quick search waits this long after the last keystroke. */
export const QUICK_SEARCH_DEBOUNCE_MS = 500;
export const SUGGESTIONS_PAGE_SIZE = 5;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
/** `skipPagination` answers at most this many hits. */
export const MAX_UNPAGED_HITS = 1000;
export const MAX_QUERY_LENGTH = 200;

/** 0 everything, 1 products, 2 recipes. */
export const contentGroups = [0, 1, 2] as const;
export type ContentGroup = (typeof contentGroups)[number];

/**
 * 0 relevance (without a query: newest news, else novelties and the most liked first),
 * 1 title A–Z, 2 newest first (the newsroom's default), 3 most liked first.
 */
export const sortOrders = [0, 1, 2, 3] as const;
export type SortOrder = (typeof sortOrders)[number];

/** The spec's language enumeration (en, fi, se, de); `sv` is taken as Swedish too. */
export const searchLanguages = ['en', 'fi', 'se', 'sv', 'de'] as const;
export type SearchLanguage = (typeof searchLanguages)[number];

/** The content language of a language parameter; German has no content. */
export function langOfSearchLanguage(language: SearchLanguage): Lang | undefined {
  if (language === 'se' || language === 'sv') return 'sv';
  if (language === 'de') return undefined;
  return language;
}

/** The parameter value for a content language (`sv` travels as `se`, as the contract has it). */
export function searchLanguageOf(lang: Lang): SearchLanguage {
  return lang === 'sv' ? 'se' : lang;
}

// ---------------------------------------------------------------------------------------------
// Requests from the browser
// ---------------------------------------------------------------------------------------------

/** Array parameters that travel in bracket notation. */
const BRACKET_ARRAYS = [
  'matchAnyCategoryIds',
  'matchAllCategoryIds',
  'searchEquipments',
  'authors',
] as const;

/**
 * The query string of a search call: arrays in bracket notation, `facetTags` as a comma list,
 * absent and empty values left out.
 */
export function searchParamsOf(input: Partial<SearchQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null || value === '') continue;
    if ((BRACKET_ARRAYS as readonly string[]).includes(key)) {
      for (const v of Array.isArray(value) ? value : [value]) params.append(`${key}[]`, String(v));
    } else if (Array.isArray(value)) {
      if (value.length) params.set(key, value.join(','));
    } else {
      params.set(key, String(value));
    }
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// The site search page: its state lives in the URL (spec §2)
// ---------------------------------------------------------------------------------------------

/** What a search page shows; everything else in its URL is kept as it is. */
export interface SearchPageState {
  q: string;
  page: number;
  pageSize: number;
  contentGroup: ContentGroup;
  /** Selected facet tags (product, recipe and newsroom searches). */
  facetTags?: number[];
  /**
   * The chosen product group (a product search with the product-group toggle); '' takes it off
   * the URL, absent leaves the URL's as it is.
   */
  productGroup?: string;
}

/** Values a search page omits from its URL when a parameter holds them. */
export interface SearchPageDefaults {
  pageSize: number;
  contentGroup: ContentGroup;
  /** The page's own language (`fi`, `se`, `en`): a `language` parameter saying so is left out. */
  language?: SearchLanguage;
  /** The search's default sort order (0, or 2 in the newsroom). */
  sortOrder?: SortOrder;
}

/** A page's numeric setting (`pageSize`, `contentGroup`, …): a whole number in range, else `fallback`. */
export function settingOf(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? value
    : fallback;
}

/** How many pages a search page fetches at most when loaded with a high `page`. */
export const MAX_SEARCH_PAGES = 10;

/** How many selected facet tags a search page takes from its URL at most. */
export const MAX_FACET_TAGS = 50;

/** The longest product group a search takes (the endpoints' limit). */
export const MAX_PRODUCT_GROUP_LENGTH = 100;

/** The parameters the search pages know (spec §2); others in their URLs are kept as they are. */
export const SEARCH_PAGE_PARAMS = [
  'q',
  'page',
  'pageSize',
  'language',
  'contentGroup',
  'matchAnyCategoryIds',
  'matchAllCategoryIds',
  'containerPage',
  'productGroup',
  'sortOrder',
  'facetTags',
  'authors',
  'hideResults',
  'skipPagination',
  'searchEquipments',
] as const;

/** `facetTags` from a URL: a comma list (`1,2`), or repeated as a plain form sends it. */
export function facetTagsOf(query: URLSearchParams): number[] {
  const ids = query
    .getAll('facetTags')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => /^\d{1,10}$/.test(v))
    .map(Number)
    .filter((n) => n >= 1 && n <= 2_147_483_647);
  return [...new Set(ids)].slice(0, MAX_FACET_TAGS);
}

/** The search page's state from its query string; values that do not parse take the default. */
export function searchPageStateOf(
  query: URLSearchParams,
  defaults: SearchPageDefaults,
): SearchPageState {
  const number = (name: string, min: number, max: number, fallback: number) => {
    const value = Number(query.get(name));
    return query.get(name) !== null && Number.isInteger(value) && value >= min && value <= max
      ? value
      : fallback;
  };
  const facetTags = facetTagsOf(query);
  const productGroup = (query.get('productGroup') ?? '').trim().slice(0, MAX_PRODUCT_GROUP_LENGTH);
  return {
    q: (query.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    page: number('page', 1, MAX_SEARCH_PAGES, 1),
    pageSize: number('pageSize', 1, MAX_PAGE_SIZE, defaults.pageSize),
    contentGroup: number('contentGroup', 0, 2, defaults.contentGroup) as ContentGroup,
    ...(facetTags.length ? { facetTags } : {}),
    ...(productGroup ? { productGroup } : {}),
  };
}

/**
 * The search page's URL for a state (spec §2): empty values dropped; page 1 and `language`,
 * `pageSize`, `contentGroup`, `skipPagination`, `matchAnyCategoryIds` and `sortOrder` left out when
 * they hold the default; parameters the page does not know kept from `current`, in their order.
 */
export function searchPageHref(
  action: string,
  state: SearchPageState,
  defaults: SearchPageDefaults,
  current: URLSearchParams = new URLSearchParams(),
): string {
  const params = new URLSearchParams(current);
  const set = (name: string, value: string | number) => {
    if (value === '') params.delete(name);
    else params.set(name, String(value));
  };
  set('q', state.q.trim());
  set('contentGroup', state.contentGroup);
  set('pageSize', state.pageSize);
  set('page', state.page);
  set('facetTags', (state.facetTags ?? []).join(','));
  if (state.productGroup !== undefined) set('productGroup', state.productGroup.trim());
  // Commas may stand as they are in a query (RFC 3986 sub-delimiters): `facetTags=3,7`.
  const search = tidySearchParams(params, defaults).toString().replace(/%2C/gi, ',');
  return search ? `${action}?${search}` : action;
}

/**
 * A link to the site search page for a query, as the links of site search are written (spec §2):
 * `q`, `contentGroup` (0 everything, 1 products, 2 recipes), `currentPage=1` and `pageSize=10`.
 * The search page keeps `currentPage` (a parameter it does not know) and drops the defaults from
 * its URL once it searches again.
 */
export function siteSearchLink(action: string, q: string, contentGroup: ContentGroup = 0): string {
  const params = new URLSearchParams({
    q: q.trim(),
    contentGroup: String(contentGroup),
    currentPage: '1',
    pageSize: String(DEFAULT_PAGE_SIZE),
  });
  return `${action}?${params}`;
}

/** Drops empty values and the known parameters that hold their default. */
export function tidySearchParams(
  params: URLSearchParams,
  defaults: SearchPageDefaults,
): URLSearchParams {
  const isDefault: Record<string, (value: string) => boolean> = {
    page: (v) => v === '1',
    pageSize: (v) => v === String(defaults.pageSize),
    contentGroup: (v) => v === String(defaults.contentGroup),
    language: (v) =>
      defaults.language !== undefined &&
      (langOfSearchLanguage(v as SearchLanguage) ?? v) === langOfSearchLanguage(defaults.language),
    sortOrder: (v) => v === String(defaults.sortOrder ?? 0),
    skipPagination: (v) => v === 'false' || v === '0',
  };
  const out = new URLSearchParams();
  for (const [name, value] of params) {
    const plain = name.replace(/\[\d*\]$/, '');
    if (value.trim() === '' || isDefault[plain]?.(value)) continue;
    out.append(name, value);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Product, recipe, newsroom and shop product searches (spec §2 "Product search and recipe search")
// ---------------------------------------------------------------------------------------------

/** The searches with facets a page can hold (its `settings.widget`, without `-search`). */
export const facetSearchKinds = ['products', 'recipes', 'newsroom', 'shop'] as const;
export type FacetSearchKind = (typeof facetSearchKinds)[number];

/** The endpoint each search asks. */
export const FACET_SEARCH_ENDPOINTS = {
  products: '/api/search/products',
  recipes: '/api/search/recipes',
  newsroom: '/api/search/newsroom',
  shop: '/api/search/lihakauppa-products',
} as const satisfies Record<FacetSearchKind, string>;

/** The kind of search a page's `settings.widget` names, if any. */
export function facetSearchKindOf(widget: unknown): FacetSearchKind | undefined {
  switch (widget) {
    case 'product-search':
      return 'products';
    case 'recipe-search':
      return 'recipes';
    case 'newsroom-search':
      return 'newsroom';
    case 'shop-product-search':
      return 'shop';
    default:
      return undefined;
  }
}
