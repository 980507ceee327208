import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer, problemAnswers } from '../../server/openapi.ts';
import { desktopNavigation, mobileNavigation } from './nav.server.ts';
import { desktopNavSchema, mobileNavSchema, navQuerySchema } from './schemas.ts';

/** `/api/nav/desktop` and `/api/nav/mobile`: the header's navigation from the page tree. */
export async function navigationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Public answers a shared cache may keep: no session, so no cookies on them.
  const config = { session: false };

  app.get(
    '/api/nav/desktop',
    {
      config,
      schema: {
        tags: ['navigation'],
        summary: 'The desktop header’s navigation',
        querystring: navQuerySchema,
        response: {
          200: jsonAnswer(desktopNavSchema, 'Top and bottom tabs and the language menu'),
          ...problemAnswers(400, 404),
        },
      },
    },
    async (request, reply) => {
      const nav = await desktopNavigation(app.db, request.site, request.query);
      reply.header('cache-control', 'public, max-age=60');
      return nav;
    },
  );

  app.get(
    '/api/nav/mobile',
    {
      config,
      schema: {
        tags: ['navigation'],
        summary: 'The mobile menu',
        querystring: navQuerySchema,
        response: {
          200: jsonAnswer(mobileNavSchema, 'Bar links, accordions, links and the language menu'),
          ...problemAnswers(400, 404),
        },
      },
    },
    async (request, reply) => {
      const nav = await mobileNavigation(app.db, request.site, request.query);
      reply.header('cache-control', 'public, max-age=60');
      return nav;
    },
  );
}
