import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from '../errors.ts';
import { isApiRequest } from '../request-path.ts';
import { cookieSiteOptions, keepPersonalAnswersPrivate, wantsSession } from './sessions.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Anti-forgery: a readable cookie holds a token bound to the session (an HMAC of it), the
 * widgets' fetch client echoes it in `X-XSRF-TOKEN`, and every state-changing `/api` request
 * without the right token is refused with 403.
 */
export const xsrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (!wantsSession(request)) return;
      if (
        needsToken(request) &&
        !tokenMatches(request.headers[XSRF_HEADER], request.session.derive('xsrf'))
      ) {
        throw new Forbidden('Missing or invalid anti-forgery token.', 'xsrf');
      }
    });
    // Set on the way out, so a session that got a new token during the request sends the
    // matching anti-forgery token with it.
    app.addHook('onSend', async (request, reply) => {
      if (!request.session) return;
      const expected = request.session.derive('xsrf');
      if (request.cookies[XSRF_COOKIE] !== expected) {
        reply.setCookie(XSRF_COOKIE, expected, {
          path: '/',
          httpOnly: false,
          ...cookieSiteOptions(request),
        });
      }
      // The last cookie of the answer is set: now it can be told whether it is personal.
      keepPersonalAnswersPrivate(request, reply);
    });
  },
  { name: 'xsrf', dependencies: ['sessions'] },
);

function needsToken(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method) && isApiRequest(request);
}

/**
 * Whether a sent anti-forgery value (a header, or a form's hidden field) equals the expected one,
 * compared in constant time. Anything but a string is no match.
 */
export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
