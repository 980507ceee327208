import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { COUNTS_STALE_MS } from '../../../db/content-changes.ts';
import { apiRoute } from '../../../server/api-route.ts';
import { NotFound } from '../../../server/errors.ts';
import { jsonAnswer } from '../../../server/openapi.ts';
import { cookieSiteOptions } from '../../../server/plugins/sessions.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { likeClientKey, likeContent } from './likes.server.ts';
import {
  LIKE_API,
  likeAnswerSchema,
  likeContentId,
  likeParamsSchema,
  likeTargetOf,
} from './schemas.ts';

/**
 * Set for the visitor whose like was counted: shared pages may show a count up to
 * `COUNTS_STALE_MS` old (decision 053), so for that long this visitor's pages are made for them,
 * with the count their like raised (any cookie beside the session's keeps a page out of the
 * shared cache).
 */
export const LIKED_COOKIE = 'kattaus_liked';

/** Like requests per client address and minute, over all content. */
export const LIKE_RATE_LIMIT = perMinute(30);

/** `POST /api/contentlikecount/{contentId}` (spec §7): counts the visitor's like once. */
export async function likeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  apiRoute(app, 'POST', `${LIKE_API}/:contentId`, 'content', {
    bodyLimit: 1024,
    rateLimit: LIKE_RATE_LIMIT,
    summary: 'Likes a recipe or product, once per visitor',
    description:
      'No body. `contentId` is a content id as search hits and product cards give it (`recipe-{id}`, `product-{id}`, `page-{id}`, `news-{id}`); recipes and products of the site are liked, pages and news releases take no likes (404). The visitor is the session (its anti-forgery header is required); a second like by the same visitor, or more than 20 from one address for one content in a day, counts nothing and answers the stored count. 30 requests per client and minute.',
    params: likeParamsSchema,
    answer: jsonAnswer(likeAnswerSchema, 'The stored count'),
    problems: [400, 403, 404, 429],
    handler: async (request, reply) => {
      const target = likeTargetOf(request.params.contentId);
      reply.header('cache-control', 'no-store');
      if (!target) throw new NotFound('Pages and news releases take no likes.');
      const result = await likeContent(app.db, {
        siteId: request.site.id,
        target,
        visitor: request.session.derive('like-visitor'),
        client: likeClientKey(app.config.sessionSecret, request.ip),
      });
      if (!result) throw new NotFound('The site has no content with that id.');
      if (result.counted) {
        reply.setCookie(LIKED_COOKIE, '1', {
          path: '/',
          httpOnly: true,
          maxAge: COUNTS_STALE_MS / 1000,
          ...cookieSiteOptions(request),
        });
      }
      return { contentId: likeContentId(target), ...result };
    },
  });
}
