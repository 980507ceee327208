import type { FastifyInstance } from 'fastify';

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
