import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startJob } from '../../server/jobs.ts';
import { subscriptionRoutes } from './routes.server.ts';
import { deleteUnconfirmedSubscriptions } from './store.server.ts';

export { subscriptionPageRoutes } from './pages.server.tsx';

/**
 * Marketing lists on the server (decision 038): the newsletter, campaign and news-release
 * endpoints, and the hourly job that forgets addresses never confirmed. The pages the mails link to are registered with the other pages (they need the
 * site layout): `subscriptionPageRoutes`.
 */
export const subscriptionsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(subscriptionRoutes);
    app.addHook('onReady', async () => {
      startJob(app, {
        name: 'subscriptions-retention',
        everyMs: 60 * 60 * 1000,
        run: (db) => deleteUnconfirmedSubscriptions(db),
        doneMessage: 'subscriptions: unconfirmed addresses deleted',
      });
    });
  },
  { name: 'subscriptions', dependencies: ['sessions', 'xsrf'] },
);

export { CampaignBlock, NewsReleasesBlock } from './blocks.tsx';
export { SubscriptionExtras } from './extras.tsx';
