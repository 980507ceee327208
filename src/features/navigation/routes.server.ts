import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pages } from '../../db/schema.ts';
import { NotFound } from '../../server/errors.ts';
import { parse } from '../../server/validate.ts';
import type { Site } from '../../sites/types.ts';
import { desktopNav, loadNavTree, mobileNav } from './nav.server.ts';
import { langOfLanguageId, navQuerySchema } from './schemas.ts';

/** `/api/nav/desktop` and `/api/nav/mobile`: the header's navigation from the page tree. */
export async function navigationRoutes(app: FastifyInstance) {
  const context = async (query: unknown, site: Site) => {
    const q = parse(navQuerySchema, query);
    const lang = langOfLanguageId(q.languageId);
    if (!lang || !site.languages.includes(lang))
      throw new NotFound('The site has no such language.');
    let currentPath = '/';
    if (q.pageId) {
      const [page] = await app.db
        .select({ path: pages.path })
        .from(pages)
        .where(and(eq(pages.id, q.pageId), eq(pages.siteId, site.id), eq(pages.lang, lang)));
      if (!page) throw new NotFound('No such page on this site.');
      currentPath = page.path;
    }
    return { ctx: { site, lang }, currentPath };
  };

  // The same for every visitor and publicly cacheable, so no session and no cookies.
  app.get('/api/nav/desktop', { config: { session: false } }, async (request, reply) => {
    const { ctx } = await context(request.query, request.site);
    reply.header('cache-control', 'public, max-age=60');
    return desktopNav(ctx, await loadNavTree(app.db, ctx.site.id, ctx.lang));
  });

  app.get('/api/nav/mobile', { config: { session: false } }, async (request, reply) => {
    const { ctx, currentPath } = await context(request.query, request.site);
    reply.header('cache-control', 'public, max-age=60');
    return mobileNav(ctx, await loadNavTree(app.db, ctx.site.id, ctx.lang), currentPath);
  });
}
