import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../tests/factories/content.ts';
import { cookieValue, createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { listenOnLoopback, rawRequest } from '../../../tests/helpers/raw-http.ts';
import { CART_API } from '../../features/shop/schemas.ts';
import { SESSION_COOKIE } from './sessions.ts';
import { XSRF_COOKIE, XSRF_HEADER } from './xsrf.ts';

const CODE = '5200001';
let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/pihvi',
    code: CODE,
    priceCents: 1290,
  });
  port = await listenOnLoopback(t.app);
});
afterAll(() => t.close());

async function stored() {
  const result = (await t.app.db.execute(
    sql`select (select count(*)::int from sessions) as sessions,
               (select count(*)::int from cart_line_items) as lines`,
  )) as unknown as { rows: { sessions: number; lines: number }[] };
  return result.rows[0];
}

/** A request written by hand, with the request target exactly as given. */
function send(method: string, target: string, headers: Record<string, string> = {}) {
  const lines = Object.entries({
    host: 'lihakauppa.localhost',
    'content-length': '0',
    connection: 'close',
    ...headers,
  }).map(([name, value]) => `${name}: ${value}`);
  return rawRequest(port, `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
}

const add = `${CART_API}/add?code=${CODE}&quantity=1&language=fi`;

describe('the anti-forgery check decides from the routed path', () => {
  it.each([
    ['absolute form', `http://127.0.0.1/${add.slice(1)}`],
    ['absolute form with another host', `http://lihakauppa.localhost:80${add}`],
    ['absolute form, upper-case scheme', `HTTP://127.0.0.1${add}`],
    ['percent-encoded path', add.replace('/api/', '/%61pi/')],
  ])('refuses a cart change without the header: %s', async (_name, target) => {
    const before = await stored();
    const res = await send('POST', target);
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ type: '/problems/xsrf', status: 403 });
    expect(await stored()).toEqual(before);
  });

  it('still lets the same change through with the token, in absolute form too', async () => {
    const page = await t.app.inject({
      url: `${CART_API}/load`,
      headers: { host: 'lihakauppa.localhost' },
    });
    const xsrf = cookieValue(page, XSRF_COOKIE) ?? '';
    const session = cookieValue(page, SESSION_COOKIE) ?? '';
    const before = await stored();
    const res = await send('POST', `http://lihakauppa.localhost${add}`, {
      cookie: `${SESSION_COOKIE}=${session}; ${XSRF_COOKIE}=${xsrf}`,
      [XSRF_HEADER]: xsrf,
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ lineItemCount: 1 });
    expect((await stored())?.lines).toBe((before?.lines ?? 0) + 1);
  });

  it('answers an absolute-form /api miss as the API does, naming the path alone', async () => {
    const res = await send('GET', 'http://127.0.0.1/api/nothing-here?x=1');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ instance: '/api/nothing-here' });
  });
});
