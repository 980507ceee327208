export {
  facetSearchKindOf,
  MIN_QUERY_LENGTH,
  QUICK_SEARCH_DEBOUNCE_MS,
  searchPageHref,
  searchParamsOf,
} from './params.ts';
export { QuickSearch } from './quick-search.tsx';
export type { SearchHit, SearchResult } from './schemas.ts';
export type { SearchPageProps } from './search-page.tsx';
