import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../../../db/client.ts';
import { NotFound } from '../../../server/errors.ts';
import type { Site } from '../../../sites/types.ts';
import { pages } from '../tables.ts';
import { robotsTxt } from './robots.ts';
import { sitemapPartXml, sitemapXml } from './sitemap.server.ts';
import { SITEMAP_PART_SIZE } from './sitemap.ts';
import { localizedPath, requestOrigin } from './urls.ts';

export interface SeoRoutesOptions {
  /** URLs per sitemap file before `/sitemap.xml` becomes an index (tests set a small one). */
  sitemapPartSize?: number;
}

const CACHE = 'public, max-age=3600';
const PART = /^[1-9]\d{0,5}$/;

/**
 * `robots.txt`, `sitemap.xml` and `sitemap-<n>.xml` per site. The site comes from the Host header
 * like every page's; URLs in them use `requestOrigin`, so a forged Host never reaches a crawler.
 * No session: these are fetched by bots and cached by proxies.
 */
export async function seoRoutes(app: FastifyInstance, options: SeoRoutesOptions = {}) {
  const partSize = options.sitemapPartSize ?? SITEMAP_PART_SIZE;
  const config = { session: false };
  // Under a prefix (tests) the files link to each other there.
  const base = (origin: string) => `${origin}${app.prefix}`;

  app.get('/robots.txt', { config }, async (request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', CACHE)
      .send(
        robotsTxt(
          base(requestOrigin(request)),
          (await searchPagePaths(app.db, request.site)).map((path) => `${app.prefix}${path}`),
        ),
      ),
  );

  app.get('/sitemap.xml', { config }, async (request, reply) => {
    const origin = requestOrigin(request);
    return sendXml(reply, await sitemapXml(app.db, request.site, origin, base(origin), partSize));
  });

  app.get<{ Params: { part: string } }>(
    '/sitemap-:part.xml',
    { config },
    async (request, reply) => {
      const { part } = request.params;
      if (!PART.test(part)) throw new NotFound();
      const origin = requestOrigin(request);
      const xml = await sitemapPartXml(app.db, request.site, origin, partSize, Number(part));
      if (xml === undefined) throw new NotFound();
      return sendXml(reply, xml);
    },
  );
}

function sendXml(reply: FastifyReply, xml: string) {
  return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE).send(xml);
}

/** The site's search pages (type `search`) as served, language prefix included (`/sv/sok`). */
async function searchPagePaths(db: Database, site: Site): Promise<string[]> {
  const rows = await db
    .select({ lang: pages.lang, path: pages.path })
    .from(pages)
    .where(
      and(
        eq(pages.siteId, site.id),
        inArray(pages.lang, [...site.languages]),
        eq(pages.type, 'search'),
        eq(pages.isExternal, false),
      ),
    );
  return rows.map((r) => localizedPath(site, r.lang as Site['languages'][number], r.path));
}
