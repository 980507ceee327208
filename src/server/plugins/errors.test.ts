import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { listenOnLoopback, rawConnection, rawRequest } from '../../../tests/helpers/raw-http.ts';

let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp({
    extend(app) {
      app.post('/api/test/echo', { config: { session: false } }, async (request) => ({
        body: request.body,
      }));
    },
  });
  port = await listenOnLoopback(t.app);
});
afterAll(() => t.close());

const HEADERS = 'host: localhost\r\n';
/** More header bytes than Node's 16 KiB limit. */
const HUGE = `x-filler: ${'a'.repeat(20_000)}\r\n`;
const BAD_CHUNK =
  'transfer-encoding: chunked\r\ncontent-type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n';

function expectProblem(
  res: { status: number; headers: Record<string, string>; body: string },
  status: number,
) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const problem = JSON.parse(res.body);
  expect(problem).toMatchObject({
    status,
    title: expect.any(String),
    type: expect.stringMatching(/^\/problems\//),
  });
  return problem;
}

describe('errors of the HTTP parser and the router', () => {
  it('answers headers too large on /api with 431 problem+json', async () => {
    const res = await rawRequest(
      port,
      `GET /api/search/content/?q=x HTTP/1.1\r\n${HEADERS}${HUGE}\r\n`,
    );
    const problem = expectProblem(res, 431);
    expect(problem).toMatchObject({
      type: '/problems/request-header-fields-too-large',
      instance: '/api/search/content/',
    });
  });

  it('answers broken chunking on /api with 400 problem+json', async () => {
    const res = await rawRequest(port, `POST /api/test/echo HTTP/1.1\r\n${HEADERS}${BAD_CHUNK}`);
    expectProblem(res, 400);
  });

  it('knows the request of bad chunking that arrives after its headers', async () => {
    const { socket, response } = rawConnection(port);
    socket.write(
      `POST /api/test/echo HTTP/1.1\r\n${HEADERS}transfer-encoding: chunked\r\ncontent-type: application/json\r\n\r\n`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('zz\r\n{}\r\n');
    const res = await response;
    socket.destroy();
    if (!res) throw new Error('no response');
    expect(expectProblem(res, 400)).toMatchObject({ instance: '/api/test/echo' });
  });

  it('answers a request line the parser refuses with 400 problem+json', async () => {
    const res = await rawRequest(port, `GET /api/x HTTP/1.1\r\nhost localhost\r\n\r\n`);
    expectProblem(res, 400);
  });

  it('answers a path that does not decode on /api with 400 problem+json', async () => {
    const res = await rawRequest(
      port,
      `GET /api/%zz HTTP/1.1\r\n${HEADERS}connection: close\r\n\r\n`,
    );
    const problem = expectProblem(res, 400);
    expect(problem.type).toBe('/problems/bad-request');
  });

  it('answers the same for an absolute-form /api target', async () => {
    const res = await rawRequest(
      port,
      `GET http://localhost/api/x HTTP/1.1\r\n${HEADERS}${HUGE}\r\n`,
    );
    expectProblem(res, 431);
  });

  it('answers pages with a short text, not JSON', async () => {
    const big = await rawRequest(port, `GET /tuotteet HTTP/1.1\r\n${HEADERS}${HUGE}\r\n`);
    expect(big.status).toBe(431);
    expect(big.headers['content-type']).toBe('text/plain; charset=utf-8');
    const bad = await rawRequest(port, `GET /%zz HTTP/1.1\r\n${HEADERS}connection: close\r\n\r\n`);
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('keeps answering afterwards', async () => {
    const res = await rawRequest(
      port,
      `GET /health HTTP/1.1\r\n${HEADERS}connection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});
