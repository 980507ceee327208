import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import { cookieSiteOptions } from '../../../server/plugins/sessions.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { localReturnPath, RETURN_PATH_MAX } from '../../../server/return-path.ts';
import { RECIPE_BANNER_CLOSE_PATH, RECIPE_BANNER_COOKIE, RECIPE_BANNER_DAYS } from './config.ts';

const closeBodySchema = z.object({
  return: z.string().max(RETURN_PATH_MAX).optional(),
  [FORM_TOKEN_FIELD]: z.string().max(200).optional(),
});

/**
 * Closing the recipe banner without script: a plain form post that sets the 30-day cookie and goes
 * back to the page (303), which is then rendered without the banner. The banner is on recipe pages
 * that visitors share from the page cache, so its form has the anti-forgery check of such forms
 * (the form-post guard with `sharedPage`, decisions 073 and 125): a post from another site is 403
 * and sets nothing. The return path stays on this site (`localReturnPath`).
 */
export async function recipeBannerRoutes(fastify: FastifyInstance) {
  acceptFormPosts(fastify, 4096);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    RECIPE_BANNER_CLOSE_PATH,
    {
      bodyLimit: 4096,
      config: { rateLimit: perMinute(60), formPost: { sharedPage: true } },
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
