import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { subscriptionRoutes } from './routes.server.ts';

export { subscriptionPageRoutes } from './pages.server.tsx';

/**
 * Marketing lists on the server (decision 038): the newsletter, campaign and news-release
 * endpoints. The pages the mails link to are registered with the other pages (they need the
 * site layout): `subscriptionPageRoutes`.
 */
export const subscriptionsPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(subscriptionRoutes);
  },
  { name: 'subscriptions', dependencies: ['sessions', 'xsrf'] },
);

export { CampaignBlock, NewsReleasesBlock } from './blocks.tsx';
export { SubscriptionExtras } from './extras.tsx';
