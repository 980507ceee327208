import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { formSettingsRoutes } from './routes.server.ts';

/**
 * Site settings staff change in the back office (decision 170), so far the forms' recipients and
 * success pages per site: the forms feature keeps them and uses them; this feature checks the
 * staff member's grants and the pages (content's), and writes them with their audit row. Register
 * it after the staff plugin (whose guard sees the routes registered after it).
 */
export const formSettingsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(formSettingsRoutes);
  },
  { name: 'form-settings', dependencies: ['staff', 'forms'] },
);
