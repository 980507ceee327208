import { timingSafeEqual } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preValidationAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { Forbidden } from '../errors.ts';
import { FORM_TOKEN_FIELD } from '../form-posts.ts';
import { isApiRequest } from '../request-path.ts';
import { cookieSiteOptions, keepPersonalAnswersPrivate, wantsSession } from './sessions.ts';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How a route that takes plain HTML form posts wants them checked (`config.formPost`). */
export interface FormPostRule {
  /**
   * The form stands on a page that anonymous visitors share from the page cache, so it cannot
   * carry the session's token (decision 033): without the token field, a post the browser says
   * comes from this site goes on. A function decides from the posted fields (the cart form: only
   * its add from a product page).
   */
  sharedPage?: boolean | ((fields: Record<string, unknown>) => boolean);
  /**
   * The answer to a refused post, sent by the function (a page with the refusal, a redirect back).
   * Without it the answer is 403 problem+json (`/problems/xsrf`).
   */
  refused?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | Promise<FastifyReply>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A plain HTML form post: checked by the form-post guard before its body is validated. */
    formPost?: true | FormPostRule;
  }
}

/**
 * Anti-forgery, the one implementation of it (decisions 003, 125):
 * - `/api`: a readable cookie holds a token bound to the session (an HMAC of it), the widgets'
 *   fetch client echoes it in `X-XSRF-TOKEN`, and every state-changing `/api` request without the
 *   right token is refused with 403.
 * - Plain HTML form posts: a route that declares `config: { formPost: … }` gets the form-post
 *   guard (`formPostAllowed`) as its first `preValidation` hook: the body is parsed, but nothing
 *   of the route has read or validated it yet, so a forged post learns nothing about its fields.
 *   Checks of whether the route applies at all (the site) belong in `onRequest`, before it.
 */
export const xsrfPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRoute', (route) => {
      const rule = route.config?.formPost;
      if (!rule) return;
      const own = route.preValidation ?? [];
      route.preValidation = [
        formPostGuard(rule),
        ...(Array.isArray(own) ? own : [own]),
      ] as RouteOptions['preValidation'];
    });
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

function formPostGuard(declared: true | FormPostRule): preValidationAsyncHookHandler {
  const rule = declared === true ? {} : declared;
  return async (request, reply) => {
    if (formPostAllowed(request, rule)) return;
    if (!rule.refused) throw new Forbidden('Missing or invalid anti-forgery token.', 'xsrf');
    await rule.refused(request, reply);
    return reply;
  };
}

/**
 * The check of a plain HTML form post (the `/api` calls have the header instead):
 * 1. a post the browser marks as coming from another site (`crossSitePost`) is refused;
 * 2. a form that carries the `_xsrf` field goes on only when it holds the session's token;
 * 3. a form without the field goes on only when its route says it stands on a shared page and
 *    the browser says the post comes from this site (`sameSitePost`, decisions 055 and 073).
 */
function formPostAllowed(request: FastifyRequest, rule: FormPostRule = {}): boolean {
  if (crossSitePost(request)) return false;
  const fields = formFields(request.body);
  const token = fields[FORM_TOKEN_FIELD];
  if (token !== undefined) return tokenMatches(token, request.session.derive('xsrf'));
  const shared = typeof rule.sharedPage === 'function' ? rule.sharedPage(fields) : rule.sharedPage;
  return shared === true && sameSitePost(request);
}

function formFields(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

type Headers = { headers: Record<string, string | string[] | undefined> };

/**
 * The browser says the post comes from another site: `Sec-Fetch-Site` other than `same-origin`,
 * or, from a browser that sends no `Sec-Fetch-Site`, an `Origin` of another host.
 */
function crossSitePost(request: Headers): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite !== 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return false;
  return !sameHost(origin, request.headers.host);
}

/**
 * The browser says the post comes from this site: `Sec-Fetch-Site: same-origin`, or, without
 * that header, an `Origin` of this host or none at all (`Origin: null` is no word for it). The
 * session cookie is SameSite=Lax besides.
 */
function sameSitePost(request: Headers): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === undefined;
  return sameHost(origin, request.headers.host);
}

function sameHost(origin: string, host: string | string[] | undefined): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
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
