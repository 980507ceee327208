/**
 * The shop's three kinds of visitor for the page benchmarks (issue 33, decision 157): a guest (no
 * cookie), a shopper with a line in the cart, and a logged-in customer with a line in the cart.
 * Made over HTTP against a running server as a browser makes them: a page gives the session and
 * anti-forgery cookies, the cart API adds a line, the account API registers and confirms a
 * customer from the mailed link (the server runs with `DEV_OUTBOX_PAGE=true`).
 */
import http from 'node:http';
import { ACCOUNT_API } from '../src/features/shop/customer/schemas.ts';
import { CART_API } from '../src/features/shop/schemas.ts';

export type VisitorKind = 'guest' | 'shopper' | 'customer';

/** A cookie jar on one host. */
class Jar {
  private readonly cookies = new Map<string, string>();

  take(setCookie: string[] | string | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = ''] = line.split(';', 1);
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }

  get(name: string): string {
    return this.cookies.get(name) ?? '';
  }

  get header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

interface Answer {
  status: number;
  body: string;
}

function request(
  origin: string,
  host: string,
  jar: Jar,
  method: string,
  urlPath: string,
  body?: unknown,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${origin}${urlPath}`,
      {
        method,
        timeout: 30_000,
        headers: {
          host,
          cookie: jar.header,
          ...(method === 'GET'
            ? {}
            : {
                'x-xsrf-token': decodeURIComponent(jar.get('XSRF-TOKEN')),
                origin: `http://${host}`,
              }),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        jar.take(res.headers['set-cookie']);
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

function expectOk(step: string, answer: Answer): void {
  if (answer.status >= 400) {
    throw new Error(`${step}: ${answer.status} ${answer.body.slice(0, 300)}`);
  }
}

/**
 * The cookie header of a visitor of `host`: none for a guest; a session holding a cart line of
 * `productCode` for a shopper; a registered, logged-in customer with that line for a customer.
 */
export async function visitorCookie(
  origin: string,
  host: string,
  kind: VisitorKind,
  productCode: string,
): Promise<string> {
  if (kind === 'guest') return '';
  const jar = new Jar();
  expectOk('first page', await request(origin, host, jar, 'GET', '/'));
  if (kind === 'customer') {
    const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.fi`;
    expectOk(
      'register',
      await request(origin, host, jar, 'POST', `${ACCOUNT_API}/register`, {
        email,
        password: 'benchmark-password-123',
      }),
    );
    const outbox = await request(origin, host, jar, 'GET', '/dev/outbox');
    const mail = outbox.body.split('<article').find((article) => article.includes(email));
    const token = /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail ?? '')?.[1];
    if (!token) throw new Error('no confirmation link in /dev/outbox (DEV_OUTBOX_PAGE=true?)');
    expectOk(
      'confirm',
      await request(origin, host, jar, 'POST', `${ACCOUNT_API}/register/confirm`, { token }),
    );
  }
  expectOk(
    'add to cart',
    await request(
      origin,
      host,
      jar,
      'POST',
      `${CART_API}/add?language=fi&code=${productCode}&quantity=1`,
    ),
  );
  return jar.header;
}

/** The product code of a shop product page's buy control. */
export async function productCodeOn(
  origin: string,
  host: string,
  urlPath: string,
): Promise<string> {
  const page = await request(origin, host, new Jar(), 'GET', urlPath);
  const code = /&quot;code&quot;:&quot;([^&]+)&quot;/.exec(page.body)?.[1];
  if (!code) throw new Error(`no product code on ${host}${urlPath}`);
  return code;
}
