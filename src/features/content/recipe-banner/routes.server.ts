import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptFormPosts } from '../../../server/form-posts.ts';
import { cookieSiteOptions } from '../../../server/plugins/sessions.ts';
import { localReturnPath, RETURN_PATH_MAX } from '../../../server/return-path.ts';
import { RECIPE_BANNER_CLOSE_PATH, RECIPE_BANNER_COOKIE, RECIPE_BANNER_DAYS } from './config.ts';

const closeBodySchema = z.object({ return: z.string().max(RETURN_PATH_MAX).optional() });

/**
 * Closing the recipe banner without script: a plain form post that sets the 30-day cookie and goes
 * back to the page (303), which is then rendered without the banner. It changes only what this
 * browser shows, so it needs no anti-forgery token; the return path stays on this site.
 */
export async function recipeBannerRoutes(fastify: FastifyInstance) {
  acceptFormPosts(fastify, 4096);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    RECIPE_BANNER_CLOSE_PATH,
    {
      bodyLimit: 4096,
      config: { rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { hide: true, body: closeBodySchema },
    },
    async (request, reply) => {
      reply.setCookie(RECIPE_BANNER_COOKIE, 'closed', {
        path: '/',
        httpOnly: false,
        maxAge: RECIPE_BANNER_DAYS * 24 * 60 * 60,
        ...cookieSiteOptions(request),
      });
      reply.header('cache-control', 'no-store');
      return reply.redirect(localReturnPath(request.body.return) ?? '/', 303);
    },
  );
}
