/**
 * The one place that decides whether a value from a visitor (a form's hidden `return`, the login
 * page's `paluu`, a configured success page) may be used as a local return path: where a redirect
 * or a link sends a browser back to on this site.
 *
 * A browser drops tabs and line breaks from a URL (`/\t/evil.example` is `//evil.example`), reads a
 * backslash as a slash (`/\evil.example`), and resolves dot segments (`/.//evil.example`,
 * `/%2e%2e//evil.example`) before it looks at the host. So any control character or backslash is
 * refused, the value is resolved as a browser would, and the verdict is on what comes out of that:
 * it must be a path-absolute reference (`/…`, never `//…`) on the same origin. The normalised
 * value is what is answered, so nothing is read differently later.
 */

/** Longer than any page address the product makes; the forms' hidden fields are bounded alike. */
export const RETURN_PATH_MAX = 2000;

const BASE = 'http://return-path.invalid';
const REFUSED = /[\p{Cc}\\]/u;

/** The value as a local path of this site (with its query and hash), or null when it is not one. */
export function localReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_PATH_MAX) {
    return null;
  }
  if (!value.startsWith('/') || REFUSED.test(value)) return null;
  let resolved: URL;
  try {
    resolved = new URL(value, BASE);
  } catch {
    return null;
  }
  if (resolved.origin !== BASE) return null;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // `/.//x` resolves to the path `//x`, which as a Location is the host `x`.
  if (path.startsWith('//') || path.length > RETURN_PATH_MAX) return null;
  return new URL(path, BASE).origin === BASE ? path : null;
}
