import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PageLayout } from '../../render/render-page.tsx';
import { startJob } from '../../server/jobs.ts';
import { subscribersAdminRoutes } from './admin/routes.server.ts';
import { sendDueNewsMailings } from './news-mailing.server.ts';
import { subscriptionPageRoutes } from './pages.server.tsx';
import { subscriptionRoutes } from './routes.server.ts';
import { deleteUnconfirmedSubscriptions } from './store.server.ts';

/** How often the news-release mailing job looks for a release whose time has come. */
export const NEWS_MAILING_POLL_MS = 15_000;

export interface SubscriptionsOptions {
  /** The site's layout, which the pages the mails link to are shown in (the app's). */
  layout: PageLayout;
}

/**
 * Marketing lists on the server (decision 038): the newsletter, campaign and news-release
 * endpoints, the pages the mails link to (in the site's layout), the hourly job that forgets
 * addresses never confirmed, the back office's subscribers and campaigns, and the job that mails
 * published news releases to their subscribers (decision 158).
 */
export const subscriptionsPlugin = fp(
  async (app: FastifyInstance, { layout }: SubscriptionsOptions) => {
    await app.register(subscriptionRoutes);
    await app.register(subscriptionPageRoutes(layout));
    await app.register(subscribersAdminRoutes);
    app.addHook('onReady', async () => {
      startJob(app, {
        name: 'subscriptions-retention',
        everyMs: 60 * 60 * 1000,
        run: (db) => deleteUnconfirmedSubscriptions(db),
        doneMessage: 'subscriptions: unconfirmed addresses deleted',
      });
      startJob(app, {
        name: 'news-release-mailing',
        everyMs: NEWS_MAILING_POLL_MS,
        run: (db) =>
          sendDueNewsMailings(db, {
            mailKey: app.config.forms.encryptionKey,
            secret: app.config.sessionSecret,
          }),
        doneMessage: 'subscriptions: news-release mails queued',
      });
    });
  },
  { name: 'subscriptions', dependencies: ['sessions', 'xsrf', 'staff'] },
);

export { CampaignBlock, NewsReleasesBlock } from './blocks.tsx';
export { SubscriptionExtras } from './extras.tsx';
export {
  type MailingState,
  mailingsOf,
  type ReleaseToMail,
  scheduleNewsReleaseMailing,
  withdrawNewsReleaseMailing,
} from './news-mailing.server.ts';
export {
  eraseCampaignEntries,
  eraseSubscriptions,
  findCampaignEntries,
  findSubscriptions,
} from './personal-data.server.ts';
export { newsCategories } from './store.server.ts';
