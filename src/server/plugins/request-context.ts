import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { resolveLocale } from '../../sites/resolve.ts';
import { requestPath } from '../request-path.ts';

/** Picks the site from the Host header and the language from the first path segment. */
export const requestContext = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('site', null as never);
    app.decorateRequest('locale', null as never);
    app.addHook('onRequest', async (request) => {
      request.site = app.sites.byHost(request.headers.host);
      request.locale = resolveLocale(request.site, requestPath(request));
    });
  },
  { name: 'request-context' },
);
