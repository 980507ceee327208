import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tokenMatches } from './plugins/xsrf.ts';

/** The hidden field in which a plain form carries the session's anti-forgery token. */
export const FORM_TOKEN_FIELD = '_xsrf';

/**
 * Lets the routes of one encapsulated plugin take classic HTML form posts
 * (`application/x-www-form-urlencoded`); everything else stays JSON. The body becomes a record of
 * strings, and a name sent twice keeps its first value. Routes still parse it with zod.
 */
export function acceptFormPosts(fastify: FastifyInstance, bodyLimit: number): void {
  if (fastify.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => done(null, formFields(String(body))),
  );
}

function formFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (!Object.hasOwn(fields, name)) fields[name] = value;
  }
  return fields;
}

/**
 * False for a post a browser says came from another site (`Sec-Fetch-Site`, or an `Origin` of
 * another host). For plain forms on pages anonymous visitors share, which cannot carry a
 * per-session anti-forgery token; the session cookie is SameSite=Lax besides.
 */
export function sameSitePost(request: {
  headers: Record<string, string | string[] | undefined>;
}): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string' || origin === 'null') return origin === undefined;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

/**
 * The anti-forgery check of a plain HTML form post (the `/api` calls have the header, checked by
 * the XSRF plugin). A post that the browser marks as coming from another site is refused. A form
 * that carries the `_xsrf` field goes on when it holds the session's token. A form on a page that
 * anonymous visitors share from the page cache can carry no per-session token (decision 033):
 * with `sharedPage`, a post without the field goes on when the browser says it comes from this
 * site (`sameSitePost`, decisions 055 and 073). Nothing else goes without the token.
 */
export function formPostAllowed(
  request: FastifyRequest,
  options: { sharedPage?: boolean } = {},
): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin') return false;
  const token = (request.body as Record<string, unknown> | null | undefined)?.[FORM_TOKEN_FIELD];
  if (token !== undefined) return tokenMatches(token, request.session.derive('xsrf'));
  return options.sharedPage === true && sameSitePost(request);
}
