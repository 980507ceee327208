import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notOnHold } from './inbox.server.ts';
import { inboxRoutes } from './routes.server.ts';

export { heldSubmissions, submissionTimelines } from './personal-data.server.ts';

/**
 * The customer-service inbox (decision 137): the form submissions' handling in the back office.
 * Its routes come after the staff guard; the forms' retention job keeps what is on legal hold.
 */
export const inboxPlugin = fp(
  async (app: FastifyInstance) => {
    app.submissionRetention.push(notOnHold);
    await app.register(inboxRoutes);
  },
  { name: 'inbox', dependencies: ['forms', 'staff'] },
);
