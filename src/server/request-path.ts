import type { FastifyRequest } from 'fastify';
import { localReturnPath } from './return-path.ts';

/**
 * The path of a request, read the way the router reads it. Node hands the request target over as
 * the client sent it: `/a/b?c`, or in absolute form `http://host/a/b?c` (RFC 9112 §3.2.2), which
 * the router routes by its path all the same. So every decision about a request's path (an API
 * request or a page, a session or not, the language, a redirect) is made from these functions,
 * never from `request.url` itself.
 */

const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/** The path of a request target, not decoded: absolute form's scheme and host and the query left out. */
export function pathOfTarget(target: string): string {
  let path = target;
  if (!path.startsWith('/')) {
    const authority = ABSOLUTE_FORM.exec(path);
    if (authority) path = path.slice(authority[0].length);
    if (path === '' || path.startsWith('?')) path = `/${path}`;
  }
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/** The query string of a request target, with its `?`, or ''. */
export function queryOfTarget(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? '' : target.slice(query);
}

/** A path percent-decoded as the router matches it (`/%61pi/x` is routed as `/api/x`). */
export function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    // The router refuses a path it cannot decode; as a path it stays what it was.
    return path;
  }
}

export function isApiPath(path: string): boolean {
  const decoded = decodedPath(path);
  return decoded === '/api' || decoded.startsWith('/api/');
}

const paths = new WeakMap<FastifyRequest, string>();

/** The request's path as sent (not decoded), without scheme, host or query. */
export function requestPath(request: FastifyRequest): string {
  let path = paths.get(request);
  if (path === undefined) {
    path = pathOfTarget(request.url);
    paths.set(request, path);
  }
  return path;
}

/** The request's path as the router matched it: decoded. */
export function routedPath(request: FastifyRequest): string {
  return decodedPath(requestPath(request));
}

/** An `/api` request: answered with JSON and problem+json, and checked for the anti-forgery token. */
export function isApiRequest(request: FastifyRequest): boolean {
  return isApiPath(requestPath(request));
}

/**
 * A request's own path made safe to redirect to (the trailing-slash redirect of pages): a run of
 * slashes, backslashes, spaces or control characters at its start becomes one `/`, so
 * `//evil.example/x` goes to `/evil.example/x`. The result must pass `localReturnPath`, the one
 * judge of local paths; what does not goes to `/`.
 */
export function sameSitePath(path: string): string {
  return localReturnPath(`/${path.replace(/^[/\\\p{Cc} ]+/u, '')}`) ?? '/';
}
