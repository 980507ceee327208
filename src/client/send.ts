/**
 * State-changing calls from the browser (decision 003): the anti-forgery token the server put in
 * the `XSRF-TOKEN` cookie goes back in the `x-xsrf-token` header, which the server compares.
 */

const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/** The anti-forgery token of this browser's session, or '' before the server has set one. */
export function xsrfToken(): string {
  const match = new RegExp(`(?:^|;\\s*)${XSRF_COOKIE}=([^;]*)`).exec(document.cookie);
  return match?.[1] ? decodeURIComponent(match[1]) : '';
}

/**
 * A same-origin request with the anti-forgery header: `payload` as a JSON body when given
 * (`POST` unless `method` says otherwise). The caller reads the answer as its API defines it.
 */
export function sendWithToken(
  path: string,
  payload?: unknown,
  { method = 'POST', headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      ...headers,
      [XSRF_HEADER]: xsrfToken(),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
}
