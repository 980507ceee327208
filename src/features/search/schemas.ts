import { z } from 'zod';
import {
  type ContentGroup,
  contentGroups,
  MAX_PAGE_SIZE,
  MAX_QUERY_LENGTH,
  type SortOrder,
  searchLanguages,
  sortOrders,
} from './params.ts';

/**
 * The search contract: request parameters of every `/api/search/*` call, the result they answer
 * and the search page's URL state. Browser-safe: the widgets build their requests with these.
 */

export * from './params.ts';

const INVALID = 'validation.invalid';

/** The spec's language enumeration (en, fi, se, de); `sv` is taken as Swedish too. */
export const searchLanguageSchema = z.enum(searchLanguages, { error: INVALID });

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
    /**
     * The content id (decision 105): `page-{id}`, `product-{id}`, `recipe-{id}` or `news-{id}`,
     * as the like endpoint takes it.
     */
    contentId: z.string(),
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

/** The steps of a search, strictest first: each runs only when the ones before found nothing. */
export const MATCH_STEPS = ['words', 'compoundParts', 'typo', 'anyWord'] as const;
export type MatchStep = (typeof MATCH_STEPS)[number];

export const searchResultSchema = z
  .object({
    query: z.string(),
    facetCategories: z.array(facetCategorySchema),
    hits: z.array(searchHitSchema),
    totalCount: z.number().int(),
    hasMore: z.boolean(),
    /**
     * Which step of the search answered (decision 046), beyond the contract's fields: `words`
     * (every word, as written, stemmed or in a base form), `compoundParts` (a compound's parts
     * instead of the compound), `typo` (a word one typo away), `anyWord` (any of the words instead
     * of all). Absent when there was no query or nothing was found. When every word matched
     * fewer than five documents, the any-word step's hits follow them and the answer says
     * `anyWord`: the loosest step whose hits it holds.
     */
    matchedBy: z.enum(MATCH_STEPS).optional(),
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
