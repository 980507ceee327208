/** Server-only parts of the search feature, for other features' server code. */
export { loadSearchPage } from './search-page.server.ts';
