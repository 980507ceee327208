import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cookieHeader,
  cookieValue,
  createTestApp,
  type TestApp,
} from '../../../tests/helpers/app.ts';
import { listenOnLoopback, rawConnection, rawRequest } from '../../../tests/helpers/raw-http.ts';
import { Unavailable } from '../../server/errors.ts';
import {
  dataUrl,
  noisePng,
  solvedCaptcha,
  testFormsConfig,
  validPayload,
} from './forms.test-support.ts';
import { forms } from './forms.ts';
import { LARGE_BODY_BYTES, largeBodyGate } from './gate.server.ts';

function request(length: number | undefined) {
  const raw = new PassThrough();
  return {
    headers: length === undefined ? {} : { 'content-length': String(length) },
    raw,
    routeOptions: { bodyLimit: 100 * 1024 * 1024 },
  } as unknown as FastifyRequest & { raw: PassThrough };
}
const reply = { header: () => reply } as unknown as FastifyReply;

describe('large body gate', () => {
  it('lets small bodies through and at most `max` large ones at once', async () => {
    const gate = largeBodyGate({ max: 2, idleTimeoutMs: 5000 });
    await gate.onRequest(request(1000), reply);
    const a = request(50e6);
    const b = request(undefined);
    await gate.onRequest(a, reply);
    await gate.onRequest(b, reply);
    expect(gate.inFlight).toBe(2);

    const c = request(50e6);
    const refused = gate.onRequest(c, reply);
    c.raw.end(Buffer.alloc(1000));
    await expect(refused).rejects.toBeInstanceOf(Unavailable);
    await refused.catch((e: Unavailable) => expect(e.retryAfterSeconds).toBeGreaterThan(0));

    await gate.release(a);
    await gate.release(a);
    expect(gate.inFlight).toBe(1);
    const d = request(50e6);
    await gate.onRequest(d, reply);
    expect(gate.inFlight).toBe(2);
  });
});

describe('large body gate on a listening server', () => {
  const IDLE_MS = 1000;
  let t: TestApp;
  let port = 0;
  let session: Record<string, string>;
  let upload: Buffer;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        forms: testFormsConfig({ FORMS_BODY_IDLE_SECONDS: String(IDLE_MS / 1000) }),
        // With REDIS_URL the slots are Redis's (decision 032), under a prefix of this run's own.
        ...(process.env.REDIS_URL
          ? { redisUrl: process.env.REDIS_URL, redisPrefix: `kattaus-test-${randomUUID()}:` }
          : {}),
      },
    });
    port = await listenOnLoopback(t.app);
    const page = await t.app.inject({ url: '/' });
    session = {
      cookie: cookieHeader(page),
      'x-xsrf-token': cookieValue(page, 'XSRF-TOKEN') ?? '',
    };
    upload = await noisePng(1.2e6);
  });
  afterAll(() => t?.close());

  async function storedSubmissions(): Promise<number> {
    const result = (await t.app.db.execute(
      sql`select count(*)::int as n from form_submissions`,
    )) as unknown as { rows: { n: number }[] };
    return result.rows[0]?.n ?? 0;
  }

  function head(length: number): string {
    const headers = {
      host: 'localhost',
      'content-type': 'application/json',
      'content-length': String(length),
      ...session,
    };
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    return `POST ${forms.complaint.path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
  }

  /** A real complaint with a photo of over 1 MB: a large body. */
  async function submit() {
    const payload = await validPayload('complaint');
    payload.Files = [{ Name: 'kuva.png', Data: dataUrl('image/png', upload) }];
    payload[forms.complaint.captchaField] = await solvedCaptcha(t.app);
    const body = Buffer.from(JSON.stringify(payload));
    expect(body.length).toBeGreaterThan(LARGE_BODY_BYTES);
    return rawRequest(port, Buffer.concat([Buffer.from(head(body.length)), body]), 20_000);
  }

  /** Connections that announce 50 MB, send a few bytes and go quiet, as the attack does. */
  function idleUploads(count: number) {
    return Array.from({ length: count }, () => {
      const connection = rawConnection(port);
      connection.socket.write(`${head(50_000_000)}{"Data":`);
      return connection;
    });
  }

  it('frees the slots of bodies that go quiet, keeps /health answering, and takes uploads again', async () => {
    const attack = idleUploads(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Every slot is held: an upload now is turned away.
    const refused = await submit();
    expect(refused.status).toBe(503);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.headers['retry-after']).toBeDefined();
    // The server keeps answering meanwhile.
    const health = await rawRequest(
      port,
      'GET /health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n',
    );
    expect(health.status).toBe(200);

    // The quiet bodies are answered 408 and their connections closed...
    const answers = await Promise.all(attack.map((a) => a.response));
    for (const answer of answers) {
      expect(answer?.status).toBe(408);
      expect(answer?.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(answer?.body ?? '{}')).toMatchObject({
        type: '/problems/request-timeout',
        isSuccess: false,
      });
    }
    await Promise.all(attack.map((a) => a.closed));

    // ...and uploads are accepted again well within 10 s.
    const started = Date.now();
    let accepted = await submit();
    while (accepted.status === 503 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      accepted = await submit();
    }
    expect(accepted.status, accepted.body).toBe(200);
    expect(JSON.parse(accepted.body)).toMatchObject({ isSuccess: true });
    expect(Date.now() - started).toBeLessThan(10_000);
    // Nothing of the refused and cut-off bodies is stored: only the one accepted upload.
    expect(await storedSubmissions()).toBe(1);
  }, 30_000);

  it('frees the slot of a body that only trickles in, and stores nothing of it', async () => {
    const before = await storedSubmissions();
    const [trickle] = idleUploads(1);
    if (!trickle) throw new Error('no connection');
    const drip = setInterval(() => trickle.socket.write('"a'), 100);
    const started = Date.now();
    const answer = await trickle.response;
    clearInterval(drip);
    expect(answer?.status).toBe(408);
    expect(Date.now() - started).toBeLessThan(IDLE_MS * 3);
    expect(await storedSubmissions()).toBe(before);
  });
});
