import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { searchRoutes } from './routes.server.ts';
import { compactSearchDocuments, startSearchStatistics } from './statistics.server.ts';

/** Server-only parts of the search feature, for the app, other features' server code and the seed. */
export { loadFacetSearch, loadShopProductSearch } from './facet-search.server.ts';
export { loadSearchWidget, type SearchWidget } from './page-widget.server.tsx';
export { loadSearchPage } from './search-page.server.ts';
export { compactSearchDocuments };

/** `/api/search/*`, `/api/facets/*`, and the job that keeps the search statistics fresh. */
export const searchPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(searchRoutes);
    startSearchStatistics(app);
  },
  { name: 'search', dependencies: ['request-context'] },
);
