import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sites } from '../../sites/registry.ts';
import { rateLimitStore } from '../rate-limit.ts';

/**
 * Security headers with a Content-Security-Policy that allows the islands' module scripts from
 * this origin and no inline script; and the rate limiter, off by default, which routes switch on
 * with `config: { rateLimit: { max, timeWindow } }`. The limits count in Redis when `REDIS_URL` is
 * set, so every process spends one budget; in memory otherwise (decision 032).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    const dev = app.assets.dev;
    // The shop opens as a hidden frame inside the other sites for cart sync (shop spec: cart
    // sync): the shop may be framed by any of the sites, and the sites may frame the shop.
    // Any port, so development hosts (`<site>.localhost:3000`) are covered too.
    const hostSources = (siteIds: readonly string[]) =>
      siteIds.flatMap((id) => app.sites.hostsOf(id).map((host) => `${host}:*`));
    const idsWhere = (shop: boolean) =>
      sites.filter((site) => (site.header.variant === 'shop') === shop).map((site) => site.id);
    const framingSites = ["'self'", ...hostSources(idsWhere(false))].join(' ');
    const shopHosts = ["'self'", ...hostSources(idsWhere(true))].join(' ');
    const isShop = (host: string | undefined) => app.sites.byHost(host).header.variant === 'shop';
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Theme tokens arrive in a <style> element; components may set style attributes.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
          workerSrc: ["'self'", 'blob:'],
          frameSrc: [(req) => (isShop(req.headers.host) ? "'self'" : shopHosts)],
          frameAncestors: [(req) => (isShop(req.headers.host) ? framingSites : "'self'")],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
        },
      },
      // frame-ancestors above says who may frame what; X-Frame-Options cannot name other sites.
      frameguard: false,
      strictTransportSecurity: app.config.env === 'production' ? undefined : false,
    });
    await app.register(rateLimit, {
      global: false,
      // Behind proxies the client address comes from the hops of X-Forwarded-For they appended
      // (TRUST_PROXY: their number or addresses), never from hops a client wrote itself.
      keyGenerator: (request) => request.ip,
      store: rateLimitStore(app.sharedCounters),
    });
  },
  { name: 'security' },
);
