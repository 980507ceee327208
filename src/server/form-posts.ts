import type { FastifyInstance } from 'fastify';

/**
 * The hidden field in which a plain form carries the session's anti-forgery token; the form-post
 * guard (`plugins/xsrf.ts`) reads it. Browser-safe: the forms' components render it.
 */
export const FORM_TOKEN_FIELD = '_xsrf';

/**
 * Lets the routes of one encapsulated plugin take classic HTML form posts
 * (`application/x-www-form-urlencoded`); everything else stays JSON. The body becomes a record of
 * strings, and a name sent twice keeps its first value. Routes still parse it with zod, and each
 * declares `config: { formPost: … }` for the anti-forgery check.
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
