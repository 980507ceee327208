import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Invalid } from '../errors.ts';
import { queryOfTarget, requestPath } from '../request-path.ts';

/**
 * PostgreSQL text cannot hold the character U+0000: a query that binds one fails, which answered
 * 500 wherever a visitor's string reached the database (search parameters, form fields, an
 * upload's file name). Every request string passes this one check before any route sees it, so no
 * endpoint has to remember it: a NUL anywhere in the path, the query or a JSON body is refused with
 * 400 naming the field (`/api`: problem+json; pages: the 400 page).
 *
 * A NUL byte cannot stand in a request target (Node's parser refuses it), so in the URL it is
 * always `%00`. The target is checked as sent rather than as one parser decoded it: the query
 * parser keeps `a%zz%00` as it is, while `URLSearchParams` (which the search pages use) makes a
 * NUL of it.
 */
export const requestStringsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const field = nulFieldOfTarget(request) ?? nulFieldOf(request.body);
      if (field !== undefined) {
        throw new Invalid({ [field]: 'validation.invalid' }, 'A field holds a NUL character.');
      }
    });
  },
  { name: 'request-strings' },
);

const NUL = '\u0000';

/** The field of the URL that holds an encoded NUL: a query parameter's name, or `path`. */
function nulFieldOfTarget(request: FastifyRequest): string | undefined {
  if (!request.url.includes('%00')) return undefined;
  const query = queryOfTarget(request.url);
  if (query.includes('%00')) {
    for (const [key, value] of new URLSearchParams(query.slice(1))) {
      if (key.includes(NUL) || value.includes(NUL)) {
        // `authors[]` and `authors[0]` are the field `authors`.
        const name = key.replace(/\[\d*\]$/, '');
        return name.includes(NUL) || name === '' ? '_query' : name;
      }
    }
  }
  return requestPath(request).includes('%00') ? 'path' : undefined;
}

/**
 * The dotted path (`Files.0.Name`, as the field errors name fields) of the first string or key
 * holding a NUL in a parsed body. Walked with a stack, so a deeply nested body cannot overflow it.
 */
export function nulFieldOf(body: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value: body, path: '' }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      if (value.includes(NUL)) return path || '_';
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes(NUL)) return path || '_';
        stack.push({ value: child, path: childPath });
      }
    }
  }
  return undefined;
}
