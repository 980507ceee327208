import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestApp, type TestApp, testAssets, testConfig } from '../../tests/helpers/app.ts';
import { shopVisitorFrom } from '../../tests/helpers/shop.ts';
import { createTestDatabase } from '../../tests/setup/database.ts';
import { buildApp } from '../app/app.ts';
import { ACCOUNT_API } from '../features/shop/customer/schemas.ts';
import { clientLimit } from './rate-limit.ts';

/**
 * Rate limits counted through Redis (decision 032): two app instances on one Redis, as two
 * processes behind a load balancer, spend one budget. Runs when REDIS_URL is set; each run
 * writes under its own key prefix and deletes its keys afterwards.
 */
const redisUrl = process.env.REDIS_URL;
const onRedis = Boolean(redisUrl);
const prefix = `kattaus-test-${randomBytes(6).toString('hex')}:`;
const ROUTE_MAX = 5;
const BUDGET_MAX = 4;

/** The same test routes in both apps: a route's own limit and a named shared budget. */
function extend(app: FastifyInstance) {
  app.get(
    '/api/test/limited',
    { config: { session: false, rateLimit: { max: ROUTE_MAX, timeWindow: 60_000 } } },
    async () => ({ ok: true }),
  );
  const budget = clientLimit(app, { name: 'test-budget', max: BUDGET_MAX, timeWindow: 60_000 });
  for (const path of ['/api/test/budget-a', '/api/test/budget-b']) {
    app.get(path, { config: { session: false } }, async (request) => {
      await budget(request);
      return { ok: true };
    });
  }
}

let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!onRedis) return;
  const config = { redisUrl, redisPrefix: prefix };
  [a, b] = await Promise.all([
    createTestApp({ config, extend }),
    createTestApp({ config, extend }),
  ]);
}, 60_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  if (!onRedis) return;
  const admin = new Redis(redisUrl ?? '');
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  await admin.quit();
});

const get = (t: TestApp, url: string, ip: string) =>
  t.app.inject({ method: 'GET', url, remoteAddress: ip });

describe('rate limits shared through Redis', () => {
  it.runIf(onRedis)("a route's limit: requests split over both apps spend one budget", async () => {
    const ip = '10.9.0.1';
    const codes: number[] = [];
    for (let i = 0; i < ROUTE_MAX; i++) {
      codes.push((await get(i % 2 === 0 ? a : b, '/api/test/limited', ip)).statusCode);
    }
    expect(codes).toEqual(Array(ROUTE_MAX).fill(200));
    const overA = await get(a, '/api/test/limited', ip);
    const overB = await get(b, '/api/test/limited', ip);
    expect([overA.statusCode, overB.statusCode]).toEqual([429, 429]);
    expect(overB.headers['content-type']).toContain('application/problem+json');
    expect(Number(overB.headers['retry-after'])).toBeGreaterThan(0);
    // Another client has a budget of its own.
    expect((await get(b, '/api/test/limited', '10.9.0.2')).statusCode).toBe(200);
  });

  it.runIf(onRedis)('a named budget (clientLimit) over several routes and both apps', async () => {
    const ip = '10.9.1.1';
    const urls = ['/api/test/budget-a', '/api/test/budget-b'];
    for (let i = 0; i < BUDGET_MAX; i++) {
      const res = await get(i % 2 === 0 ? a : b, urls[i % 2] as string, ip);
      expect(res.statusCode).toBe(200);
    }
    expect((await get(b, '/api/test/budget-a', ip)).statusCode).toBe(429);
    expect((await get(a, '/api/test/budget-b', ip)).statusCode).toBe(429);
  });

  it.runIf(onRedis)("the shop's login limit per account counts attempts on both apps", async () => {
    const email = `jaettu-${randomBytes(4).toString('hex')}@example.fi`;
    const login = async (t: TestApp, ip: string) => {
      const v = await shopVisitorFrom(t, ip);
      return v.post(`${ACCOUNT_API}/login`, {
        payload: JSON.stringify({ email, password: 'väärä-salasana-1' }),
        headers: { 'content-type': 'application/json' },
      });
    };
    for (let i = 0; i < 10; i++) {
      const res = await login(i % 2 === 0 ? a : b, `10.9.2.${i + 1}`);
      expect(res.statusCode, res.body).toBe(401);
    }
    const over = await login(b, '10.9.3.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().detail).toContain('this account');
    expect((await login(a, '10.9.3.2')).statusCode).toBe(429);
  });

  it.runIf(onRedis)(
    'Redis gone mid-run: that app answers, counting in its own memory; the other still shares',
    async () => {
      const ip = '10.9.4.1';
      // The app that loses Redis is one of this test's own, on a's database: a disconnected
      // client does not reconnect, and b must keep sharing for the other tests.
      const c = await createTestApp({
        config: { redisUrl, redisPrefix: prefix },
        extend,
        database: a.database,
      });
      try {
        // Spend the shared budget down to one request.
        for (let i = 0; i < ROUTE_MAX - 1; i++) {
          expect((await get(a, '/api/test/limited', ip)).statusCode).toBe(200);
        }
        const lost = c.app.sharedCounters?.redis;
        const ended = new Promise((resolve) => lost?.once('end', resolve));
        lost?.disconnect();
        await ended;
        expect(c.app.sharedCounters?.up).toBe(false);
        // c counts from nothing in its memory, with the same limit: never a 500.
        const codes: number[] = [];
        for (let i = 0; i < ROUTE_MAX + 1; i++) {
          codes.push((await get(c, '/api/test/limited', ip)).statusCode);
        }
        expect(codes).toEqual([...Array(ROUTE_MAX).fill(200), 429]);
        // a still counts in Redis: one left, then 429.
        expect((await get(a, '/api/test/limited', ip)).statusCode).toBe(200);
        expect((await get(a, '/api/test/limited', ip)).statusCode).toBe(429);
      } finally {
        await c.close();
      }
    },
    60_000,
  );
});

describe('REDIS_URL at start-up', () => {
  it('a Redis that does not answer stops the start with a message naming REDIS_URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const database = await createTestDatabase(inject('templateDatabase'));
    try {
      await expect(
        buildApp({
          config: testConfig({ redisUrl: `redis://127.0.0.1:${port}` }),
          database,
          assets: testAssets,
          logger: false,
        }),
      ).rejects.toThrow(/REDIS_URL: cannot connect/);
    } finally {
      await database.close();
    }
  });
});

/**
 * A stand-in for a Redis that stops answering: it answers the client's start-up commands (INFO
 * for the ready check, +OK to anything else) until `hang()`, then reads commands and never
 * answers.
 */
async function hangingRedis() {
  let hanging = false;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const command = readCommand(buffer);
        if (!command) return;
        buffer = buffer.subarray(command.length);
        if (hanging) continue;
        if (command.name === 'info') {
          const info = '# Server\r\nredis_version:7.0.0\r\nloading:0\r\n';
          socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`);
        } else {
          socket.write('+OK\r\n');
        }
      }
    });
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    hang: () => {
      hanging = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One RESP command (an array of bulk strings) at the start of `buffer`, or undefined. */
function readCommand(buffer: Buffer): { name: string; length: number } | undefined {
  const text = buffer.toString('latin1');
  const header = /^\*(\d+)\r\n/.exec(text);
  if (!header) return undefined;
  let at = header[0].length;
  const parts: string[] = [];
  for (let i = 0; i < Number(header[1]); i++) {
    const bulk = /^\$(\d+)\r\n/.exec(text.slice(at));
    if (!bulk) return undefined;
    const start = at + bulk[0].length;
    const end = start + Number(bulk[1]);
    if (text.length < end + 2) return undefined;
    parts.push(text.slice(start, end));
    at = end + 2;
  }
  return { name: (parts[0] ?? '').toLowerCase(), length: at };
}

describe('a Redis that stops answering', () => {
  it('a request waits at most the command timeout, then the app counts in memory: never a 500', async () => {
    const stand = await hangingRedis();
    const t = await createTestApp({ config: { redisUrl: stand.url, redisPrefix: prefix }, extend });
    try {
      expect(t.app.sharedCounters?.up).toBe(true);
      stand.hang();
      const started = Date.now();
      const codes: number[] = [];
      for (let i = 0; i < ROUTE_MAX + 1; i++) {
        codes.push((await get(t, '/api/test/limited', '10.9.5.1')).statusCode);
      }
      expect(codes).toEqual([...Array(ROUTE_MAX).fill(200), 429]);
      // The first request waits for its command to time out (500 ms); the next ones skip Redis
      // for a few seconds instead of waiting each time.
      expect(Date.now() - started).toBeLessThan(2500);
      expect(t.app.sharedCounters?.up).toBe(false);
    } finally {
      await t.close();
      await stand.close();
    }
  }, 30_000);
});
