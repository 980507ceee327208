export { QuickSearch } from './quick-search.tsx';
export {
  facetSearchKindOf,
  MIN_QUERY_LENGTH,
  QUICK_SEARCH_DEBOUNCE_MS,
  type SearchHit,
  type SearchResult,
  searchPageHref,
  searchParamsOf,
} from './schemas.ts';
export type { SearchPageProps } from './search-page.tsx';
