import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { listenOnLoopback, rawRequest } from '../../../tests/helpers/raw-http.ts';

let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp();
  port = await listenOnLoopback(t.app);
});
afterAll(() => t.close());

/** A GET with the request target exactly as written (inject would normalise it). */
function get(target: string, host = 'sibylla.localhost') {
  return rawRequest(port, `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`);
}

/** Where a browser on the site would go with this Location. */
function followed(location: string | undefined): URL {
  return new URL(location ?? '', 'http://sibylla.localhost/somewhere/');
}

describe('the trailing-slash redirect stays on the site', () => {
  it.each([
    ['//evil.example/', '/evil.example'],
    ['///evil.example/', '/evil.example'],
    ['/\\evil.example/', '/evil.example'],
    ['/\\/evil.example/', '/evil.example'],
    ['//evil.example/path/?a=1', '/evil.example/path?a=1'],
    ['/en//evil.example/', '/en//evil.example'],
    ['http://evil.example/yritys/', '/yritys'],
    ['http://sibylla.localhost//evil.example/', '/evil.example'],
  ])('%s redirects to %s', async (target, location) => {
    const res = await get(target);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(location);
    expect(followed(res.headers.location).host).toBe('sibylla.localhost');
  });

  it('still redirects an ordinary trailing slash, keeping the query and the language', async () => {
    const fi = await get('/yritys/?a=1');
    expect(fi.headers.location).toBe('/yritys?a=1');
    const en = await get('/en/company/');
    expect(en.headers.location).toBe('/en/company');
    const bare = await get('/en');
    expect(bare.headers.location).toBe('/en/');
  });

  it('answers the same through inject', async () => {
    const res = await t.app.inject({
      url: '//evil.example/',
      headers: { host: 'sibylla.localhost' },
    });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/evil.example');
  });
});
