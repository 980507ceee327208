import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { searchRoutes } from './routes.server.ts';
import { compactSearchDocuments, startSearchStatistics } from './statistics.server.ts';
import { synonymRoutes } from './synonym-routes.server.ts';

/** Server-only parts of the search feature, for the app, other features' server code and the seed. */
export { loadFacetSearch, loadShopProductSearch } from './facet-search.server.ts';
export { loadSearchWidget, type SearchWidget } from './page-widget.server.tsx';
export { loadSearchPage } from './search-page.server.ts';
export { compactSearchDocuments };

/**
 * `/api/search/*`, `/api/facets/*`, the synonym sets under `/api/admin/search/synonyms` (after the
 * staff guard), and the job that keeps the search statistics fresh.
 */
export const searchPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(searchRoutes);
    await app.register(synonymRoutes);
    startSearchStatistics(app);
  },
  { name: 'search', dependencies: ['request-context', 'staff'] },
);
