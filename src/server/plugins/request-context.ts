import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { resolveLocale } from '../../sites/resolve.ts';

/** Picks the site from the Host header and the language from the first path segment. */
export const requestContext = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('site', null as never);
    app.decorateRequest('locale', null as never);
    app.addHook('onRequest', async (request) => {
      request.site = app.sites.byHost(request.headers.host);
      const path = request.url.split('?', 1)[0] ?? '/';
      request.locale = resolveLocale(request.site, path);
    });
  },
  { name: 'request-context' },
);
