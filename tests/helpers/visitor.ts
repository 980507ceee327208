import http from 'node:http';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'light-my-request';
import type { Database } from '../../src/db/client.ts';
import type { Config } from '../../src/server/config.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '../../src/server/plugins/xsrf.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The server a visitor talks to: an app (its `inject`), or a server process (`serverProcess`).
 * Its database and configuration are what the test helpers read back (the outbox, the orders).
 */
export interface VisitTarget {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  db: Database;
  config: Config;
}

/**
 * A server listening on loopback `port`, another process: each request goes to it over HTTP and
 * its answer comes back as an `inject` answer. `db` and `config` are the ones it runs with. The
 * visitor's address (`fromAddress`) goes in `X-Forwarded-For`, believed when the server trusts
 * loopback (`TRUST_PROXY=loopback`).
 */
export function serverProcess(
  port: number,
  runsWith: { db: Database; config: Config },
): VisitTarget {
  const relay: http.RequestListener = (request, response) => {
    const forwarded = http.request(
      {
        host: '127.0.0.1',
        port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': request.socket.remoteAddress },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 0, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', (error) => response.destroy(error));
    request.pipe(forwarded);
  };
  return { ...runsWith, inject: (options) => inject(relay, options) };
}

export interface VisitOptions extends Omit<InjectOptions, 'method' | 'url' | 'headers'> {
  headers?: Record<string, string>;
  /** false: leave out the anti-forgery header, as a forged request would. */
  xsrf?: boolean;
}

/**
 * A browser for `app.inject` (or a server process, `serverProcess`): keeps the cookies the server
 * sets (a new value replaces the old, an expired cookie is dropped) and sends them back, and on
 * every request that changes state (not GET, HEAD or OPTIONS) echoes the `XSRF-TOKEN` cookie in
 * `X-XSRF-TOKEN`, as the widgets' fetch client does (decision 003).
 */
export class Visitor {
  readonly jar = new Map<string, string>();

  /** `headers` go with every request (a request's own headers win), e.g. `{ host }`. */
  constructor(
    readonly app: VisitTarget,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** The jar as a `Cookie` header value. */
  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** The anti-forgery token the server gave this visitor, if any yet. */
  get xsrfToken(): string | undefined {
    return this.jar.get(XSRF_COOKIE);
  }

  async request(
    method: NonNullable<InjectOptions['method']>,
    url: string,
    { headers = {}, xsrf = true, ...options }: VisitOptions = {},
  ): Promise<LightMyRequestResponse> {
    const sent: Record<string, string> = { ...this.headers };
    if (this.jar.size > 0) sent.cookie = this.cookie;
    const token = this.xsrfToken;
    if (xsrf && token !== undefined && !SAFE_METHODS.has(method.toUpperCase())) {
      sent[XSRF_HEADER] = token;
    }
    const response = await this.app.inject({
      ...options,
      method,
      url,
      headers: { ...sent, ...headers },
    });
    for (const cookie of response.cookies) {
      const expired =
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired) this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, options?: VisitOptions) {
    return this.request('GET', url, options);
  }

  post(url: string, options?: VisitOptions) {
    return this.request('POST', url, options);
  }

  delete(url: string, options?: VisitOptions) {
    return this.request('DELETE', url, options);
  }
}

/**
 * A new visitor who has opened a page (the front page unless `url` says otherwise), and so holds
 * the session and anti-forgery cookies a form or widget needs.
 */
export async function arrive(
  app: VisitTarget,
  url = '/',
  headers: Record<string, string> = {},
): Promise<Visitor> {
  const visitor = new Visitor(app, headers);
  const page = await visitor.get(url);
  if (visitor.xsrfToken === undefined) {
    throw new Error(`GET ${url} answered ${page.statusCode} without an anti-forgery cookie`);
  }
  return visitor;
}

/** Sends every later request of `v` from client address `ip` (per-address limits count apart). */
export function fromAddress(v: Visitor, ip: string): Visitor {
  const request = v.request.bind(v);
  v.request = (method, url, options = {}) =>
    request(method, url, { remoteAddress: ip, ...options });
  return v;
}

/** A page's visitor data (`#k-visitor`, decision 157), parsed; null when the page has none. */
export function pageVisitorData(html: string): unknown {
  const json =
    /<script data-hole="visitor" type="application\/json" id="k-visitor">(.*?)<\/script>/s.exec(
      html,
    )?.[1];
  return JSON.parse(json ?? 'null');
}
