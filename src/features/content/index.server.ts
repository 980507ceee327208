import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { startJob } from '../../server/jobs.ts';
import { contentAdminRoutes } from './admin/routes.server.ts';
import { filteredCardsRoutes } from './card-grid/routes.server.ts';
import { staticCard } from './components/card-view.tsx';
import { likeRoutes } from './likes/routes.server.ts';
import { runDueSchedules, SCHEDULE_TICK_MS } from './publishing/schedule.server.ts';
import { recipeBannerRoutes } from './recipe-banner/routes.server.ts';
import { seoRoutes } from './seo/routes.server.ts';
import { mediaRoutes } from './widgets/media-routes.server.ts';
import { schoolVoteFormRoutes, schoolVoteRoutes } from './widgets/vote.server.ts';

export { PageHero } from './components/page-hero.tsx';
/** Server-only parts of the content feature, for the app's page route. */
export { resolvePath } from './content.server.ts';
export { HomePage } from './home-page.tsx';
export { type LoadedPage, loadPage, type PageWidgets } from './page-loader.server.tsx';
export { movedPath, type PathChange, recordPathChange } from './path-redirects.server.ts';
export { resolvePreview } from './publishing/preview.server.ts';
export { PREVIEW_PATH } from './publishing/schemas.ts';
/** The content tables other features may read (join, select); they write through content's use cases. */
export { jobs, mapRegions, pages, products, recipes, timelineYears } from './tables.ts';

/** `/api/filtered-cards/*`, `/api/contentlikecount/*`, robots.txt and the sitemaps. */
export const contentPlugin = fp(
  async (app: FastifyInstance) => {
    // Pages render cards as deferred parts, whose code the server has before any page.
    await staticCard.load();
    await app.register(filteredCardsRoutes);
    await app.register(seoRoutes);
    await app.register(likeRoutes);
    await app.register(recipeBannerRoutes);
    await app.register(schoolVoteRoutes);
    await app.register(schoolVoteFormRoutes);
    await app.register(mediaRoutes);
    await app.register(contentAdminRoutes);
    // Scheduled publishing and unpublishing (decision 167), once across processes.
    app.addHook('onReady', async () => {
      startJob(app, {
        name: 'content-schedule',
        everyMs: SCHEDULE_TICK_MS,
        run: (db) => runDueSchedules(db),
        doneMessage: 'content: scheduled actions run',
      });
    });
  },
  { name: 'content', dependencies: ['request-context'] },
);
