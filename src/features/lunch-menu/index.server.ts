import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { menuRoutes } from './routes.server.ts';

/** Server-only parts of the lunch menu, for the app. */
export { loadLunchMenuWidget } from './widget.server.tsx';

/** `/api/fs/menu`, `/api/fs/menu/recipes`. */
export const lunchMenuPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(menuRoutes);
  },
  { name: 'lunch-menu', dependencies: ['request-context'] },
);
