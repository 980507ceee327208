/**
 * `paluu`: where the login and register pages send the shopper after a success (the checkout sends
 * a visitor to `/kirjaudu?paluu=/kassa?postinumero=…`). Only a path of this site is taken: an
 * absolute URL, a protocol-relative `//host`, a backslash form browsers read as one (`/\host`) or
 * anything with control characters is refused (null), so the parameter cannot send anyone away.
 */
export const RETURN_PARAM = 'paluu';

const BASE = 'http://local.invalid';

export function localReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A page's path with `paluu` added when there is one. */
export function withReturn(path: string, back: string | null): string {
  return back ? `${path}?${new URLSearchParams({ [RETURN_PARAM]: back })}` : path;
}
