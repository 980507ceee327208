import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage } from '../../tests/factories/index.ts';
import {
  buildInto,
  buildMade,
  freePort,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from '../../tests/helpers/server-process.ts';
import { serverProcess } from '../../tests/helpers/visitor.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { runMigrations } from '../db/migrate.ts';
import { projectPath } from '../db/paths.ts';
import { mailOutbox } from '../features/forms/tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  emailOf,
  held,
  order,
  HOST as SHOP_HOST,
} from '../features/shop/orders/checkout.test-support.ts';
import { PAYMENT_CALLBACK_PATH } from '../features/shop/orders/payments.server.ts';
import { orderAnswerSchema } from '../features/shop/orders/schemas.ts';
import { testBank } from '../features/shop/payment/providers.server.ts';
import type { TestBankTicket } from '../features/shop/payment/testbank.server.ts';
import { orderPayments, orders } from '../features/shop/tables.ts';
import { type Config, loadConfig } from '../server/config.ts';

/**
 * Decision 140, as an operator would see it: the production build started twice, two processes
 * (each with its own pool, LISTEN connection, Redis connection and page cache) on a PostgreSQL
 * server of this test's own (and a Redis of its own when the run has Redis), a steady load of page
 * and API requests from several clients, the database (and Redis) stopped for 10 s and started
 * again. The shopper's order and the payment's callbacks go to the processes over HTTP; the test
 * reads their log lines and the database. The build is the one `npm test` has just made
 * (`E2E_BUILD`), or one of its own when the file runs alone. PostgreSQL only (decision 090); the
 * shared servers of the run are never stopped.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
const withRedis = Boolean(process.env.REDIS_URL);
const OUTAGE_MS = 10_000;
const SITE = 'sibylla.localhost';

interface Answer {
  kind: 'cached-page' | 'own-page' | 'api';
  server: number;
  startedAt: number;
  endedAt: number;
  status: number;
  retryAfter: string | undefined;
  cache: string | undefined;
  type: string | undefined;
  body: string;
}

/** The requests of the load: anonymous pages the cache keeps, a visitor's own page, the API. */
const TARGETS: { kind: Answer['kind']; path: string; cookie?: string }[] = [
  { kind: 'cached-page', path: '/' },
  { kind: 'cached-page', path: '/yritys' },
  // Another cookie than the session's makes the page the visitor's own: never from the cache.
  { kind: 'own-page', path: '/yritys', cookie: 'kattaus_outage_test=1' },
  { kind: 'api', path: '/api/nav/desktop?languageId=fi' },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function get(
  port: number,
  target: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: target, headers, agent, timeout: 15_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (c: Buffer) => chunks.push(c));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer to ${target}`)));
    request.on('error', reject);
  });
}

/** Waits until `condition` holds (asked every 50 ms), or fails after `timeoutMs`. */
async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`not so within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const asRoot = process.getuid?.() === 0;
function pgBin(): string {
  const out = execFileSync('bash', [
    '-c',
    'ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1',
  ]);
  const bin = out.toString().trim();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  return bin;
}

/** Stops this test's own PostgreSQL server (fast: open sessions are ended). */
function stopPostgres(dir: string): void {
  const command = `'${pgBin()}/pg_ctl' -D '${dir}/data' -m fast -w stop`;
  if (asRoot) execFileSync('su', ['postgres', '-s', '/bin/bash', '-c', command]);
  else execFileSync('bash', ['-c', command]);
}

/** Starts (first: creates) this test's own PostgreSQL server, as CI starts the shared one. */
function startPostgres(dir: string, port: number): string {
  const out = execFileSync('bash', [projectPath('.ci/start-postgres'), dir, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = /export DATABASE_URL=(\S+)/.exec(out.toString())?.[1];
  if (!url) throw new Error('no DATABASE_URL from .ci/start-postgres');
  return url;
}

/** Its log lines: pino's JSON, one object a line (anything else it wrote is left out). */
function logOf(server: ServerProcess): Record<string, unknown>[] {
  return server.lines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe.runIf(onPostgres)('when the database goes away (PostgreSQL, two processes)', () => {
  let pgDir = '';
  let pgPort = 0;
  let redisPort = 0;
  let redisDir = '';
  let redis: ChildProcess | undefined;
  let database: DatabaseHandle | undefined;
  /** The configuration both processes run with (they differ in their port and data folder). */
  let config: Config | undefined;
  let ownBuild = '';
  const dataDirs: string[] = [];
  const servers: ServerProcess[] = [];

  const startRedis = async () => {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        redisDir,
      ],
      { stdio: 'ignore' },
    );
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(redisPort, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        }),
      10_000,
    );
    return child;
  };
  const stopRedis = async () => {
    const child = redis;
    redis = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    pgDir = await mkdtemp(path.join(tmpdir(), 'kattaus-pg-outage-'));
    pgPort = await freePort();
    const url = startPostgres(pgDir, pgPort);
    if (withRedis) {
      redisPort = await freePort();
      redisDir = await mkdtemp(path.join(tmpdir(), 'kattaus-redis-outage-'));
      redis = await startRedis();
    }
    // The stage, set in the database before the processes start: content and a shop.
    database = await openDatabase({ engine: 'postgres', url, poolSize: 3 });
    await runMigrations(database);
    const home = await createPage(database.db, {
      siteId: 'sibylla',
      path: '/',
      type: 'home',
      title: 'Sibylla',
    });
    await createPage(database.db, {
      siteId: 'sibylla',
      path: '/yritys',
      type: 'content',
      title: 'Yritys ennen katkoa',
      parentId: home.id,
    });
    await createCheckoutShop(database.db, { weeklyQuantity: 100 });

    let build = buildMade();
    if (!build) {
      ownBuild = projectPath('.e2e-build', `outage-${process.pid}-${Date.now()}`);
      buildInto(ownBuild);
      build = ownBuild;
    }
    // As a deployment runs its copies: the same database, Redis and secrets.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: url,
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: withRedis ? `redis://127.0.0.1:${redisPort}` : '',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      FORMS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      PAYMENT_PROVIDER: 'testbank',
      // The shopper's requests reach them through a relay on loopback (`serverProcess`).
      TRUST_PROXY: 'loopback',
    };
    const envs = await Promise.all(
      [1, 2].map(async (n) => {
        const dataDir = await mkdtemp(path.join(tmpdir(), `kattaus-outage-data-${n}-`));
        dataDirs.push(dataDir);
        return { ...env, PORT: String(await freePort()), DATA_DIR: dataDir };
      }),
    );
    config = loadConfig(env);
    servers.push(
      ...(await Promise.all(envs.map((e) => startServerProcess(build, e, { keepOutput: true })))),
    );
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => stopServerProcess(server.child)));
    agent.destroy();
    await database?.close();
    await stopRedis();
    if (pgDir) {
      try {
        stopPostgres(pgDir);
      } catch {
        // already stopped
      }
      await rm(pgDir, { recursive: true, force: true });
    }
    for (const dir of [...dataDirs, redisDir, ownBuild].filter(Boolean)) {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('serves cached pages, answers 503 for the rest, recovers by itself, and pays an order once', async () => {
    const [first, second] = servers;
    if (!database || !config || !first || !second) throw new Error('no set-up');
    // An order placed just before the outage, over HTTP on the first process; its payment's
    // callback comes during the outage.
    const shopper = await buyer(serverProcess(first.port, { db: database.db, config }));
    await addToCart(shopper, CODES.stocked, 2);
    const placed = await order(shopper, await held(shopper));
    expect(placed.statusCode, placed.body).toBe(200);
    const answer = orderAnswerSchema.parse(placed.json());
    const bank = testBank({ config, db: database.db });
    const ticket = bank.openTicket(
      new URL(answer.next).searchParams.get('maksu'),
    ) as TestBankTicket;
    const callback = `${PAYMENT_CALLBACK_PATH}${new URL(bank.returnUrl(ticket, 'ok')).search}`;
    const payCallback = (server: ServerProcess) => get(server.port, callback, { host: SHOP_HOST });

    // Each server keeps the anonymous pages before the load begins.
    for (const server of servers) {
      for (const target of TARGETS.filter((t) => t.kind === 'cached-page')) {
        await expect
          .poll(
            async () =>
              (await get(server.port, target.path, { host: SITE })).headers['x-page-cache'],
            { timeout: 20_000, interval: 100 },
          )
          .toBe('hit');
      }
    }

    // The load: several clients, each going round the targets on both servers.
    const answers: Answer[] = [];
    const failures: string[] = [];
    let loading = true;
    const client = async (n: number) => {
      let i = n;
      while (loading) {
        const target = TARGETS[i % TARGETS.length];
        const server = servers[Math.floor(i / TARGETS.length) % servers.length];
        i += 1;
        if (!target || !server) continue;
        const startedAt = Date.now();
        try {
          const res = await get(server.port, target.path, {
            host: SITE,
            ...(target.cookie ? { cookie: target.cookie } : {}),
          });
          answers.push({
            kind: target.kind,
            server: servers.indexOf(server),
            startedAt,
            endedAt: Date.now(),
            status: res.status,
            retryAfter: res.headers['retry-after'] as string | undefined,
            cache: res.headers['x-page-cache'] as string | undefined,
            type: res.headers['content-type'],
            body: res.status === 200 ? '' : res.body,
          });
        } catch (error) {
          failures.push(`${target.kind} ${target.path}: ${(error as Error).message}`);
        }
      }
    };
    const clients = Array.from({ length: 4 }, (_, n) => client(n * 5));
    const settle = () => new Promise((r) => setTimeout(r, 1_500));

    await settle();
    const stopAt = Date.now();
    stopPostgres(pgDir);
    if (withRedis) await stopRedis();
    const downAt = Date.now();
    // The provider's callback during the outage: not taken, so that it is tried again.
    const refused = await payCallback(first);
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - stopAt))));
    const restartAt = Date.now();
    startPostgres(pgDir, pgPort);
    if (withRedis) redis = await startRedis();
    const upAt = Date.now();
    await new Promise((r) => setTimeout(r, 4_000));
    loading = false;
    await Promise.all(clients);

    // The provider tries again: to the other process, and once more to the first.
    const paid = await payCallback(second);
    const again = await payCallback(first);

    const during = answers.filter((a) => a.startedAt >= downAt && a.endedAt <= restartAt);
    const before = answers.filter((a) => a.endedAt < stopAt);
    const after = answers.filter((a) => a.startedAt >= upAt + 2_000);
    const summary = (list: Answer[]) =>
      list.map((a) => `${a.kind}@${a.server} ${a.status} ${a.cache ?? ''}`).join(', ');

    expect(failures).toEqual([]);
    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((a) => a.status === 200)).toBe(true);

    // During it: the cached pages from their last good copies, everything else 503.
    for (const kind of ['cached-page', 'own-page', 'api'] as const) {
      expect(during.filter((a) => a.kind === kind).length, kind).toBeGreaterThan(2);
    }
    for (const a of during.filter((x) => x.kind === 'cached-page')) {
      expect(a.status, summary([a])).toBe(200);
    }
    expect(during.some((a) => a.cache === 'stale')).toBe(true);
    for (const a of during.filter((x) => x.kind !== 'cached-page')) {
      expect(a.status, summary([a])).toBe(503);
      expect(a.retryAfter).toMatch(/^\d+$/);
      expect(a.body).not.toMatch(/select|stack|ECONNREFUSED|at \w+ \(/i);
    }
    const page = during.find((a) => a.kind === 'own-page');
    expect(page?.type).toMatch(/^text\/html/);
    expect(page?.body).toContain('Palvelu on tilapäisesti poissa käytöstä');
    const api = during.find((a) => a.kind === 'api');
    expect(api?.type).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(api?.body ?? '{}')).toMatchObject({ status: 503 });

    // Within 2 s of PostgreSQL being back, every request answers as before.
    expect(after.length).toBeGreaterThan(8);
    expect(after.filter((a) => a.status !== 200).map((a) => summary([a]))).toEqual([]);

    // The callback: refused while the database was away, taken after, the order paid once.
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(refused.status).not.toBe(500);
    expect(paid.status, paid.body).toBe(200);
    expect(again.status, again.body).toBe(200);
    const [row] = await database.db
      .select({ status: orders.status })
      .from(orders)
      .where(eq(orders.id, answer.orderId));
    expect(row?.status).toBe('paid');
    const attempts = await database.db
      .select({ status: orderPayments.status })
      .from(orderPayments)
      .where(and(eq(orderPayments.orderId, answer.orderId), eq(orderPayments.status, 'ok')));
    expect(attempts).toHaveLength(1);
    // One confirmation to the shopper and one to the shop: the order was paid once.
    const mails = await database.db
      .select({ recipients: mailOutbox.recipients })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `%${answer.orderNumber}%`));
    expect(mails.map((m) => m.recipients).sort()).toEqual(
      [emailOf.get(shopper), 'tilaukset@kattaus.localhost'].sort(),
    );

    // Each process logged the outage once, not once per request, and no request failed.
    for (const server of servers) {
      const log = logOf(server);
      const lines = log.filter((l) => l.msg === 'database unavailable' && Number(l.level) >= 40);
      expect(lines).toHaveLength(1);
      expect(log.filter((l) => l.msg === 'request failed')).toEqual([]);
      expect(log.some((l) => l.msg === 'database available again')).toBe(true);
    }
  }, 120_000);
});
