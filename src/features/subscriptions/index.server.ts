import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PageLayout } from '../../render/render-page.tsx';
import { startJob } from '../../server/jobs.ts';
import { subscriptionPageRoutes } from './pages.server.tsx';
import { subscriptionRoutes } from './routes.server.ts';
import { deleteUnconfirmedSubscriptions } from './store.server.ts';

export interface SubscriptionsOptions {
  /** The site's layout, which the pages the mails link to are shown in (the app's). */
  layout: PageLayout;
}

/**
 * Marketing lists on the server (decision 038): the newsletter, campaign and news-release
 * endpoints, the pages the mails link to (in the site's layout), and the hourly job that forgets
 * addresses never confirmed.
 */
export const subscriptionsPlugin = fp(
  async (app: FastifyInstance, { layout }: SubscriptionsOptions) => {
    await app.register(subscriptionRoutes);
    await app.register(subscriptionPageRoutes(layout));
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
export {
  eraseCampaignEntries,
  eraseSubscriptions,
  findCampaignEntries,
  findSubscriptions,
} from './personal-data.server.ts';
