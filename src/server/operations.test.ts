import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/helpers/app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close().catch(() => {});
  t = undefined;
});

describe('rate limits', () => {
  it('a route sets its own limit and answers 429 problem+json with Retry-After past it', async () => {
    t = await createTestApp({
      extend(app) {
        app.get(
          '/api/test/limited',
          { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } },
          async () => ({ ok: true }),
        );
        app.get('/api/test/unlimited', async () => ({ ok: true }));
      },
    });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await t.app.inject('/api/test/limited')).statusCode);
    expect(codes).toEqual([200, 200, 429]);
    const limited = await t.app.inject('/api/test/limited');
    expect(limited.headers['content-type']).toContain('application/problem+json');
    expect(limited.headers['retry-after']).toBeTruthy();
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too many requests' });
    for (let i = 0; i < 5; i++)
      expect((await t.app.inject('/api/test/unlimited')).statusCode).toBe(200);
  });
});

/** A log stream the test reads back, one JSON entry a line. */
function logLines() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stream, lines, entries };
}

describe('request logs (issue 33: one line a request at most)', () => {
  it('carry the request id and no client address or query string', async () => {
    const log = logLines();
    t = await createTestApp({ logStream: log.stream, config: { logLevel: 'debug' } });
    await t.app.inject({
      url: '/?q=matti.meikalainen@example.com',
      headers: { 'x-request-id': 'req-42', 'x-forwarded-for': '203.0.113.9' },
      remoteAddress: '198.51.100.7',
    });
    const mine = log.entries().filter((e) => e.reqId === 'req-42' && e.msg === 'request');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ req: { method: 'GET', path: '/' }, res: { statusCode: 200 } });
    expect(typeof mine[0]?.ms).toBe('number');
    const text = log.lines.join('\n');
    expect(text).not.toContain('matti.meikalainen');
    expect(text).not.toContain('198.51.100.7');
    expect(text).not.toContain('203.0.113.9');
  });

  it('writes nothing for a quick answer at the default level, a warning for a slow one', async () => {
    const log = logLines();
    t = await createTestApp({
      logStream: log.stream,
      config: { logLevel: 'info', slowRequestMs: 50 },
      extend(app) {
        app.get('/api/test/slow', async () => {
          await new Promise((r) => setTimeout(r, 60));
          return { ok: true };
        });
      },
    });
    await t.app.inject({ url: '/health', headers: { 'x-request-id': 'quick' } });
    await t.app.inject({ url: '/api/test/slow', headers: { 'x-request-id': 'slow' } });
    expect(log.entries().filter((e) => e.reqId === 'quick')).toEqual([]);
    const slow = log.entries().filter((e) => e.reqId === 'slow');
    expect(slow).toHaveLength(1);
    expect(slow[0]).toMatchObject({
      msg: 'slow request',
      level: 40,
      req: { path: '/api/test/slow' },
    });
    expect(slow[0]?.ms).toBeGreaterThanOrEqual(50);
  });
});

describe('health and shutdown', () => {
  it('answers 503 when the database is gone', async () => {
    t = await createTestApp();
    expect((await t.app.inject('/health')).statusCode).toBe(200);
    await t.database.close();
    const res = await t.app.inject('/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
  });

  it('closing finishes the request in flight before the app stops', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let arrived: () => void = () => {};
    const started = new Promise<void>((r) => {
      arrived = r;
    });
    t = await createTestApp({
      extend(app) {
        app.get('/api/test/slow', async () => {
          arrived();
          await gate;
          return { done: true };
        });
      },
    });
    const { app } = t;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const response = fetch(`http://127.0.0.1:${port}/api/test/slow`);
    await started;
    const closing = app.close();
    setTimeout(release, 200);
    const res = await response;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closing;
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  });
});
