import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFound } from '../../../server/errors.ts';
import { robotsTxt } from './robots.ts';
import { sitemapEntries } from './sitemap.server.ts';
import {
  latest,
  SITEMAP_PART_SIZE,
  sitemapIndexXml,
  sitemapPart,
  sitemapPartCount,
  urlsetXml,
} from './sitemap.ts';
import { requestOrigin } from './urls.ts';

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
      .send(robotsTxt(base(requestOrigin(request)))),
  );

  app.get('/sitemap.xml', { config }, async (request, reply) => {
    const origin = requestOrigin(request);
    const entries = await sitemapEntries(app.db, request.site, origin);
    const parts = sitemapPartCount(entries.length, partSize);
    if (parts === 1) return sendXml(reply, urlsetXml(entries));
    return sendXml(
      reply,
      sitemapIndexXml(
        Array.from({ length: parts }, (_, i) => ({
          loc: `${base(origin)}/sitemap-${i + 1}.xml`,
          lastmod: latest(sitemapPart(entries, partSize, i + 1)),
        })),
      ),
    );
  });

  app.get<{ Params: { part: string } }>(
    '/sitemap-:part.xml',
    { config },
    async (request, reply) => {
      const { part } = request.params;
      if (!PART.test(part)) throw new NotFound();
      const entries = await sitemapEntries(app.db, request.site, requestOrigin(request));
      const n = Number(part);
      // Parts exist only while the site needs an index; a small site has just /sitemap.xml.
      if (sitemapPartCount(entries.length, partSize) < Math.max(2, n)) throw new NotFound();
      return sendXml(reply, urlsetXml(sitemapPart(entries, partSize, n)));
    },
  );
}

function sendXml(reply: FastifyReply, xml: string) {
  return reply.type('application/xml; charset=utf-8').header('cache-control', CACHE).send(xml);
}
