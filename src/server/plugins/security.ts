import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers with a Content-Security-Policy that allows the islands' module scripts from
 * this origin and no inline script; and the rate limiter, off by default, which routes switch on
 * with `config: { rateLimit: { max, timeWindow } }`.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    const dev = app.assets.dev;
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
          frameSrc: ["'self'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
        },
      },
      // The shop opens as a frame inside the brand sites for cart sync.
      frameguard: false,
      strictTransportSecurity: app.config.env === 'production' ? undefined : false,
    });
    await app.register(rateLimit, {
      global: false,
      // Behind a proxy the client address comes from X-Forwarded-For (TRUST_PROXY=true).
      keyGenerator: (request) => request.ip,
    });
  },
  { name: 'security' },
);
