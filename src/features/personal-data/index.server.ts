import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startFileDeletionJob } from './file-deletions.server.ts';
import { personalDataRoutes } from './routes.server.ts';

/**
 * Personal-data requests (decision 159): the data-protection officer's find, export and erase
 * routes, after the staff guard, and the job that deletes what an erasure left in the file store.
 */
export const personalDataPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(personalDataRoutes);
    app.addHook('onReady', async () => {
      startFileDeletionJob(app);
    });
  },
  { name: 'personal-data', dependencies: ['forms', 'inbox', 'shop', 'subscriptions', 'staff'] },
);
