import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { navigationRoutes } from './routes.server.ts';

/** Server-only parts of the navigation: the header's data for pages and `/api/nav/*`. */
export { loadPageVisitor } from './header-holes.server.tsx';
export { loadLayoutData } from './layout-data.server.ts';
export { SiteLayout } from './site-layout.tsx';

export const navigationPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(navigationRoutes);
  },
  { name: 'navigation', dependencies: ['request-context'] },
);
