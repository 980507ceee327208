import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer, problemAnswers } from '../../server/openapi.ts';
import { desktopNavigation, mobileNavigation } from './nav.server.ts';
import { desktopNavSchema, mobileNavSchema, navQuerySchema } from './schemas.ts';

/** The header's two navigations: each its own path, answer and reading of the page tree. */
const NAV_ROUTES = [
  {
    path: '/api/nav/desktop',
    summary: 'The desktop header’s navigation',
    answer: jsonAnswer(desktopNavSchema, 'Top and bottom tabs and the language menu'),
    load: desktopNavigation,
  },
  {
    path: '/api/nav/mobile',
    summary: 'The mobile menu',
    answer: jsonAnswer(mobileNavSchema, 'Bar links, accordions, links and the language menu'),
    load: mobileNavigation,
  },
];

/** `/api/nav/desktop` and `/api/nav/mobile`: the header's navigation from the page tree. */
export async function navigationRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Public answers a shared cache may keep: no session, so no cookies on them.
  const config = { session: false };

  for (const route of NAV_ROUTES) {
    app.get(
      route.path,
      {
        config,
        schema: {
          tags: ['navigation'],
          summary: route.summary,
          querystring: navQuerySchema,
          response: { 200: route.answer, ...problemAnswers(400, 404) },
        },
      },
      async (request, reply) => {
        const nav = await route.load(app.db, request.site, request.query);
        reply.header('cache-control', 'public, max-age=60');
        return nav;
      },
    );
  }
}
