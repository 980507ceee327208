/**
 * Two processes on shared engines (issue 14 "Scale-out", decisions 031 and 032): the production
 * build started twice on one PostgreSQL database, one Redis and one S3 stand-in (s3rver, as the
 * tests use), with the same secrets, then:
 * - load on both at once (autocannon, home and a shop product page): errors and non-2xx counted;
 * - a cart and a session usable on either: a product added on the first process (its session and
 *   anti-forgery cookies), the cart read and changed on the second, read again on the first;
 * - a rate limit counted across both: with `SEARCH_RATE_LIMIT=20`, 15 suggestion requests to each
 *   process in turn must give at least 10 answers of 429 (per process there would be none);
 * - a file one process stored read by the other: an image variant resized on the first (a miss)
 *   is a hit on the second, whose data folder is empty; a complaint's two attached pictures
 *   uploaded to the first are read back, opened, by the second (`/dev/submissions`, on loopback
 *   with `DEV_SUBMISSIONS_API=true`): the same bytes (SHA-256).
 *
 *   npm run build && DATABASE_URL=postgres://… npx tsx bench/scale-out.ts [--duration 8]
 *
 * Redis: `REDIS_URL`, or a `redis-server` of its own on a free loopback port. The database is one
 * of its own on the server `DATABASE_URL` names, dropped at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { plainGet } from '../scripts/page-javascript.ts';
import type { DevSubmission } from '../src/features/forms/dev-submissions.server.ts';
import {
  captchaToken,
  dataUrl,
  jpeg,
  png,
  validPayload,
} from '../src/features/forms/forms.test-support.ts';
import { forms } from '../src/features/forms/forms.ts';
import { startS3StandIn } from '../tests/helpers/s3.ts';
import {
  benchDatabase,
  freePort,
  gitCommit,
  machine,
  ROOT,
  startWatchdog,
  stopProcess,
  waitForHealth,
  writeResults,
} from './support.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '8' } } });
const DURATION = Number(values.duration);
const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');
const SEARCH_LIMIT = 20;
const SHOP = 'lihakauppa.localhost';

if (!existsSync(SERVER_ENTRY)) {
  console.error('bench/scale-out: no production build; run "npm run build" first');
  process.exit(1);
}

const watchdog = startWatchdog(15);
const database = await benchDatabase('scaleout');
const s3 = await startS3StandIn({ bucket: 'kattaus-bench' });
const folders: string[] = [];
const servers: ChildProcess[] = [];
let redis: { url: string; stop: () => void } | undefined;
let exitCode = 0;

/** A redis-server of the bench's own, unless REDIS_URL names one. */
async function startRedis(): Promise<{ url: string; stop: () => void }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => {} };
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-redis-'));
  folders.push(dir);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: dir, stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (child.exitCode !== null) throw new Error('redis-server did not start');
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** The cookies a response sets, as one Cookie header merged into `jar`. */
function keepCookies(jar: Map<string, string>, setCookie: string | string[] | undefined) {
  for (const line of [setCookie ?? []].flat()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}
const cookieHeader = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

async function call(
  origin: string,
  method: string,
  urlPath: string,
  jar: Map<string, string>,
  host = SHOP,
  json?: unknown,
) {
  const token = decodeURIComponent(jar.get('XSRF-TOKEN') ?? '');
  const res = await fetch(`${origin}${urlPath}`, {
    method,
    headers: {
      host,
      cookie: cookieHeader(jar),
      ...(token ? { 'x-xsrf-token': token } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    redirect: 'manual',
  });
  keepCookies(jar, res.headers.getSetCookie());
  return { status: res.status, text: await res.text() };
}

try {
  redis = await startRedis();
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    ...s3.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    ALTCHA_HMAC_KEY: 'bench-altcha-key-that-is-long-enough-0123',
    FORMS_ENCRYPTION_KEY: '22'.repeat(32),
    SEARCH_RATE_LIMIT: String(SEARCH_LIMIT),
    DEV_SUBMISSIONS_API: 'true',
    ALTCHA_MAX_NUMBER: '2000',
  };
  delete shared.FILES_DIR;
  const seedDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-seed-'));
  folders.push(seedDir);
  const seedStarted = performance.now();
  // Not execFileSync: the S3 stand-in runs in this process and must answer the seed meanwhile.
  const seeding = spawn(
    process.execPath,
    ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '1'],
    {
      cwd: ROOT,
      env: { ...shared, DATA_DIR: seedDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const seeded = await new Promise<number | null>((resolve) => seeding.once('exit', resolve));
  if (seeded !== 0) throw new Error(`the seed exited with ${seeded}`);
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  const origins: string[] = [];
  const dataDirs: string[] = [];
  for (let i = 0; i < 2; i++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `kattaus-bench-proc${i + 1}-`));
    folders.push(dataDir);
    dataDirs.push(dataDir);
    const port = await freePort();
    const server = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: ROOT,
      env: { ...shared, DATA_DIR: dataDir, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    servers.push(server);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHealth(origin, server);
    origins.push(origin);
  }
  const [a = '', b = ''] = origins;

  // --- load on both at once ------------------------------------------------------------------
  const targets = [
    { host: 'konsernifi.localhost', path: '/' },
    { host: SHOP, path: '/tuotteet/naudanliha/naudan-sisafilee-kypsytetty-1-2-kg' },
  ];
  const load = await Promise.all(
    origins.map((origin) =>
      autocannon({
        url: origin,
        connections: 10,
        duration: DURATION,
        requests: targets.map((t) => ({ method: 'GET', path: t.path, headers: { host: t.host } })),
      }),
    ),
  );
  const loadRows = load.map((r, i) => ({
    process: i + 1,
    requestsPerSecond: Math.round(r.requests.average),
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }));

  // --- a cart and a session on either ------------------------------------------------------
  const jar = new Map<string, string>();
  await call(a, 'GET', '/', jar);
  const search = JSON.parse(
    (await call(a, 'GET', '/api/search/lihakauppa-products?pageSize=20', jar)).text,
  ) as { hits: { product?: { code: string; price: string | null; isGiftCard: boolean } }[] };
  const code = search.hits.find((h) => h.product?.price && !h.product.isGiftCard)?.product?.code;
  const added = await call(
    a,
    'POST',
    `/api/v1/lihakauppa/shoppingcart/add?language=fi&code=${code}&quantity=2`,
    jar,
  );
  const onB = await call(b, 'GET', '/api/v1/lihakauppa/shoppingcart/load?language=fi', jar);
  const cartOnB = JSON.parse(onB.text) as { lineItems: { code: string; quantity: number }[] };
  const changedOnB = await call(
    b,
    'POST',
    `/api/v1/lihakauppa/shoppingcart/add?language=fi&code=${code}&quantity=1`,
    jar,
  );
  const backOnA = JSON.parse(
    (await call(a, 'GET', '/api/v1/lihakauppa/shoppingcart/load?language=fi', jar)).text,
  ) as { lineItems: { code: string; quantity: number }[] };
  const cart = {
    addedOnFirst: added.status,
    readOnSecond: onB.status,
    quantityOnSecond: cartOnB.lineItems.find((l) => l.code === code)?.quantity ?? 0,
    addedOnSecond: changedOnB.status,
    quantityBackOnFirst: backOnA.lineItems.find((l) => l.code === code)?.quantity ?? 0,
  };

  // --- one rate limit for both ---------------------------------------------------------------
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) {
    const res = await fetch(`${i % 2 === 0 ? a : b}/api/search/suggestions/?q=broileri`, {
      headers: { host: 'jyvabroiler.localhost' },
    });
    await res.arrayBuffer();
    statuses.push(res.status);
  }
  const limited = statuses.filter((s) => s === 429).length;
  const rateLimit = {
    limit: SEARCH_LIMIT,
    sent: statuses.length,
    ok: statuses.filter((s) => s === 200).length,
    limited,
    // Counted per process, all 30 would pass (15 each); shared, at most the budget does (the
    // cart's product search above may have spent one of it).
    sharedAcrossProcesses: limited >= statuses.length - SEARCH_LIMIT,
  };

  // --- a file stored by one, read by the other ---------------------------------------------
  const getA = plainGet(a);
  const getB = plainGet(b);
  const html = (await getA('/', 'konsernifi.localhost')).body.toString();
  const image = /\/images\/\d+\/[^"'\s?]+/.exec(html)?.[0];
  const first = image
    ? await fetch(`${a}${image}`, { headers: { host: 'konsernifi.localhost' } })
    : undefined;
  const second = image
    ? await fetch(`${b}${image}`, { headers: { host: 'konsernifi.localhost' } })
    : undefined;
  const file = {
    path: image ?? null,
    firstStatus: first?.status ?? 0,
    firstCache: first?.headers.get('x-image-cache') ?? null,
    secondStatus: second?.status ?? 0,
    secondCache: second?.headers.get('x-image-cache') ?? null,
    localFilesOfProcesses: dataDirs.map(
      (dir) =>
        readdirSync(dir, { recursive: true }).filter((f) => String(f).startsWith('files')).length,
    ),
  };
  await getB('/health');

  // --- a form's upload on one, read by the other ---------------------------------------------
  const visitor = new Map<string, string>();
  const site = 'konsernifi.localhost';
  await call(a, 'GET', '/', visitor, site);
  const pictures = [await png(24, 16), await jpeg(16, 24)];
  const payload = await validPayload('complaint');
  payload.Files = [
    { Name: 'pakkaus.png', Data: dataUrl('image/png', pictures[0] as Buffer) },
    { Name: 'kuitti.jpg', Data: dataUrl('image/jpeg', pictures[1] as Buffer) },
  ];
  const challenge = JSON.parse(
    (await call(a, 'GET', '/api/captcha/challenge', visitor, site)).text,
  );
  payload.MTCaptchaToken = await captchaToken(challenge);
  const sent = await call(a, 'POST', forms.complaint.path, visitor, site, payload);
  const listed = await fetch(`${b}/dev/submissions?form=complaint&limit=1`);
  const [submission] = (listed.ok ? await listed.json() : []) as DevSubmission[];
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const upload = {
    sentToFirst: sent.status,
    readOnSecond: listed.status,
    filesOnSecond: submission?.files.map((f) => ({ name: f.name, sha256: f.sha256 })) ?? [],
    sameBytes:
      submission?.files.length === pictures.length &&
      pictures.every((bytes, i) => submission.files[i]?.sha256 === sha256(bytes)),
  };

  const results = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: machine(),
    seedSeconds: Math.round(seedSeconds * 10) / 10,
    load: loadRows,
    rateLimit,
    cart,
    file,
    upload,
  };
  process.stdout.write(
    `${JSON.stringify({ load: loadRows, rateLimit, cart, file, upload }, null, 2)}\n`,
  );
  writeResults('scale-out', results);
  const ok =
    loadRows.every((r) => r.non2xx === 0 && r.errors === 0) &&
    rateLimit.sharedAcrossProcesses &&
    cart.quantityOnSecond === 2 &&
    cart.quantityBackOnFirst === 3 &&
    file.firstStatus === 200 &&
    file.secondStatus === 200 &&
    file.secondCache === 'hit' &&
    file.localFilesOfProcesses.every((n) => n === 0) &&
    upload.sentToFirst === 200 &&
    upload.sameBytes;
  if (!ok) {
    console.error('bench/scale-out: a check failed (see above)');
    exitCode = 1;
  }
} catch (error) {
  console.error('bench/scale-out failed:', error);
  exitCode = 1;
} finally {
  for (const server of servers) await stopProcess(server);
  redis?.stop();
  await s3.stop();
  await database.drop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  clearTimeout(watchdog);
}
process.exit(exitCode);
