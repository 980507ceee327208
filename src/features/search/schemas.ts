import { z } from 'zod';
import type { Lang } from '../../sites/types.ts';

/**
 * The search contract: request parameters of every `/api/search/*` call, the result they answer
 * and the search page's URL state. Browser-safe: the widgets build their requests with these.
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

const INVALID = 'validation.invalid';

/** The spec's language enumeration (en, fi, se, de); `sv` is taken as Swedish too. */
export const searchLanguageSchema = z.enum(['en', 'fi', 'se', 'sv', 'de'], { error: INVALID });
export type SearchLanguage = z.infer<typeof searchLanguageSchema>;

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

/**
 * A whole number from a JSON body or a query string. Query text must be plain digits: `1e1`,
 * `0x10`, ` 10` and `10.0` are invalid rather than read as ten.
 */
const int = (min: number, max: number) =>
  z
    .union(
      [
        z.number(),
        z
          .string()
          .regex(/^\d{1,10}$/)
          .transform(Number),
      ],
      { error: INVALID },
    )
    .pipe(z.number().int(INVALID).min(min, INVALID).max(max, INVALID));

const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])], { error: INVALID })
  .transform((v) => v === true || v === 'true' || v === '1');

/** One value or many: `a=1&a=2`, `a[]=1&a[]=2` (merged before parsing) or a comma list `1,2`. */
const idList = z
  .union([z.string(), z.array(z.string())], { error: INVALID })
  .transform((v) =>
    (Array.isArray(v) ? v : [v])
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => (/^\d{1,10}$/.test(s) ? Number(s) : Number.NaN)),
  )
  .pipe(
    z.array(z.number().int(INVALID).min(1, INVALID).max(2_147_483_647, INVALID)).max(100, INVALID),
  )
  .transform((ids) => [...new Set(ids)])
  .meta({
    description: 'Ids: repeated (`a=1&a=2`), in bracket notation (`a[]=1`) or a comma list.',
  });

/** Text values (equipment, author names may hold commas): one or many, never split. */
const textList = z
  .union([z.string(), z.array(z.string())], { error: INVALID })
  .transform((v) => (Array.isArray(v) ? v : [v]).map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.string().max(200, INVALID)).max(50, INVALID))
  .meta({
    description: 'Texts: repeated or in bracket notation (`a[]=…`), never split at commas.',
  });

/**
 * Every parameter of the search request. Each endpoint accepts all of them (the widgets send one
 * request shape) and applies each as a filter; defaults that differ per endpoint are filled in by
 * the route. Unknown parameters are ignored, so cache-busters and tracking parameters do no harm.
 */
export const searchQuerySchema = z.object({
  language: searchLanguageSchema.optional(),
  page: int(1, 10_000).default(1),
  pageSize: int(1, MAX_PAGE_SIZE).optional(),
  sortOrder: int(0, sortOrders.length - 1)
    .transform((n) => n as SortOrder)
    .optional(),
  q: z.string({ error: INVALID }).max(MAX_QUERY_LENGTH, INVALID).default(''),
  contentGroup: int(0, contentGroups.length - 1)
    .transform((n) => n as ContentGroup)
    .optional(),
  productGroup: z.string({ error: INVALID }).trim().max(100, INVALID).optional(),
  facetTags: idList.optional(),
  searchEquipments: textList.optional(),
  hideResults: bool.optional(),
  matchAnyCategoryIds: idList.optional(),
  matchAllCategoryIds: idList.optional(),
  authors: textList.optional(),
  skipPagination: bool.optional(),
});
export type SearchQueryInput = z.input<typeof searchQuerySchema>;
export type SearchQuery = z.output<typeof searchQuerySchema>;

/**
 * Query-string values as Fastify hands them over, with bracket notation folded in:
 * `matchAnyCategoryIds[]=1&matchAnyCategoryIds[]=2` and `authors[0]=…` become one array under the
 * plain name.
 */
export function foldBracketParams(query: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query)) {
    const match = /^([^[\]]+)\[\d*\]$/.exec(key);
    if (!match?.[1]) {
      out[key] = merge(out[key], value);
      continue;
    }
    out[match[1]] = merge(out[match[1]], Array.isArray(value) ? value : [value]);
  }
  return out;
}

function merge(existing: unknown, value: unknown): unknown {
  if (existing === undefined) return value;
  return [
    ...(Array.isArray(existing) ? existing : [existing]),
    ...(Array.isArray(value) ? value : [value]),
  ];
}

/** `/api/facets/recipetags`: the recipe search whose facets are asked for. */
export const recipeTagsQuerySchema = z.object({
  recipeSearchBlockId: int(1, 2_147_483_647),
  language: searchLanguageSchema.optional(),
});

/** `/api/facets/groups`, `/api/facets/custom` and `/api/search/all-products`. */
export const languageQuerySchema = z.object({ language: searchLanguageSchema.optional() });

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

export const facetTagSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** Documents of the filtered set with this tag (selections of its own category left out). */
    count: z.number().int(),
    selected: z.boolean(),
    display: z.boolean(),
  })
  .meta({ id: 'FacetTag' });
export type FacetTag = z.infer<typeof facetTagSchema>;

export const facetCategorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    facetTags: z.array(facetTagSchema),
  })
  .meta({ id: 'FacetCategory' });
export type FacetCategory = z.infer<typeof facetCategorySchema>;

export const searchHitSchema = z
  .object({
    /** Id of the page, product, recipe or release (unique together with `type`). */
    contentId: z.number().int(),
    title: z.string(),
    category: z.string(),
    teaserText: z.string(),
    /** Image URL in the hit's thumbnail preset, or null. */
    image: z.string().nullable(),
    /** Path with the language prefix. */
    url: z.string(),
    /** The page type: retail-product, broiler-product, …, recipe, news, content, product-list, … */
    type: z.string(),
    likeCount: z.number().int(),
    novelty: z.boolean(),
    /** Recipes: total time in minutes. */
    totalTime: z.number().int().nullable(),
    /** ISO 8601; the release date of news. */
    publishDate: z.string(),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResultSchema = z
  .object({
    query: z.string(),
    facetCategories: z.array(facetCategorySchema),
    hits: z.array(searchHitSchema),
    totalCount: z.number().int(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof searchResultSchema>;
/** A search result whose hits carry more (the shop's hits carry product cards). */
export type SearchResultOf<H extends SearchHit> = Omit<SearchResult, 'hits'> & { hits: H[] };

export const contentGroupOptionSchema = z
  .object({ key: z.string(), value: z.number().int() })
  .meta({ id: 'ContentGroupOption' });
export type ContentGroupOption = z.infer<typeof contentGroupOptionSchema>;

export const productListItemSchema = z
  .object({ productId: z.number().int(), title: z.string() })
  .meta({ id: 'ProductListItem' });
export type ProductListItem = z.infer<typeof productListItemSchema>;

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
  return {
    q: (query.get('q') ?? '').slice(0, MAX_QUERY_LENGTH),
    page: number('page', 1, MAX_SEARCH_PAGES, 1),
    pageSize: number('pageSize', 1, MAX_PAGE_SIZE, defaults.pageSize),
    contentGroup: number('contentGroup', 0, 2, defaults.contentGroup) as ContentGroup,
    ...(facetTags.length ? { facetTags } : {}),
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
