import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Forbidden } from '../../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD, formPostAllowed } from '../../../server/form-posts.ts';
import { cookieSiteOptions } from '../../../server/plugins/sessions.ts';
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
 * (`formPostAllowed`, decision 073): a post from another site is 403 and sets nothing. The return
 * path stays on this site (`localReturnPath`).
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
      // Before the body is validated: a forged post learns nothing about its fields.
      preValidation: async (request) => {
        if (!formPostAllowed(request, { sharedPage: true })) {
          throw new Forbidden('Missing or invalid anti-forgery token.', 'xsrf');
        }
      },
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
