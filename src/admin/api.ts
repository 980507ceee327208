/**
 * The back office's fetch client: JSON in and out, the anti-forgery header on every write (the
 * `XSRF-TOKEN` cookie echoed in `X-XSRF-TOKEN`), problem+json turned into `ApiError`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly errors: Record<string, string>,
    readonly retryAfter: number | null,
    /** The whole problem, for the members some answers carry besides `errors`. */
    readonly problem: Record<string, unknown> = {},
  ) {
    super(`${status} ${type}`);
  }

  get reauth(): boolean {
    return this.status === 403 && this.type === '/problems/reauth';
  }
}

/**
 * The person closed the re-authentication dialog: the action is not done, and that is no error
 * (an `ErrorSummary` shows nothing for it).
 */
export class ReauthCancelled extends Error {}

function xsrfToken(): string | undefined {
  const match = /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/** A request's headers: JSON, and the anti-forgery token on every method but GET. */
async function headersFor(method: string, body: unknown): Promise<Record<string, string>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') {
    let token = xsrfToken();
    if (!token) {
      // The first write of a fresh browser: any answer sets the cookie.
      await fetch('/api/admin/auth/session', { credentials: 'same-origin' });
      token = xsrfToken();
    }
    if (token) headers['x-xsrf-token'] = token;
  }
  return headers;
}

export async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers = await headersFor(method, body);
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : undefined;
  if (!res.ok) {
    const retry = res.headers.get('retry-after');
    throw new ApiError(
      res.status,
      typeof data?.type === 'string' ? data.type : '',
      data?.errors && typeof data.errors === 'object' ? data.errors : {},
      retry ? Number(retry) : null,
      data && typeof data === 'object' ? data : {},
    );
  }
  return data as T;
}

export const get = <T>(url: string) => api<T>('GET', url);
export const post = <T>(url: string, body?: unknown) => api<T>('POST', url, body);
export const put = <T>(url: string, body?: unknown) => api<T>('PUT', url, body);
export const del = <T>(url: string) => api<T>('DELETE', url);

/**
 * Downloads a file the API makes (an export) as `name`, posting `body` when given: a problem
 * answer is an `ApiError` as elsewhere (so a re-authentication can be asked for and the download
 * tried again).
 */
export async function download(url: string, name: string, body?: unknown): Promise<void> {
  // With a body the request is a POST: what it names (an address) stays out of the URL.
  const method = body === undefined ? 'GET' : 'POST';
  const res = await fetch(url, {
    method,
    headers: await headersFor(method, body),
    credentials: 'same-origin',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) {
    const data = res.headers.get('content-type')?.includes('json') ? await res.json() : undefined;
    throw new ApiError(
      res.status,
      typeof data?.type === 'string' ? data.type : '',
      data?.errors ?? {},
      null,
    );
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
