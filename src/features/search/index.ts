export { QuickSearch } from './quick-search.tsx';
export {
  MIN_QUERY_LENGTH,
  QUICK_SEARCH_DEBOUNCE_MS,
  type SearchHit,
  type SearchResult,
  searchParamsOf,
} from './schemas.ts';
