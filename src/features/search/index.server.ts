/** Server-only parts of the search feature, for other features' server code and the seed. */
export { loadFacetSearch } from './facet-search.server.ts';
export { loadSearchPage } from './search-page.server.ts';
export { compactSearchDocuments } from './statistics.server.ts';
