/**
 * A burst of orders on one coupon across two server processes (decisions 080–082): the production
 * build started twice on one PostgreSQL database (each with the default pool of 10 connections),
 * the shop's demo content seeded, then 200 customers, each at a delivery address and mailbox of
 * its own and with its e-mail address verified through the mailed link, fill a cart, enter the
 * demo coupon `KERTA15` (15 %, 100 uses, one per customer), hold a delivery time and read the
 * totals their checkout shows; then all 200 confirm at once, 100 through each process.
 *
 * Reported: the answers of the burst by status (200, 409, 503, 500, other), the wall time of each
 * request from the bench's side (p50, p95, max) and of the burst; then the 503s are tried again
 * after their `Retry-After`, as a browser is told to, and the coupon's uses and the orders placed
 * with it are counted. Exits 1 when any answer is a 500 or other than 200/409/503, when the uses
 * or the orders are not exactly 100 at the end, or when an order does not charge the total shown.
 *
 *   npm run build && DATABASE_URL=postgres://… npx tsx bench/coupon-burst.ts
 *
 * Requests carry `X-Forwarded-For` (the servers trust the loopback proxy) so that every customer
 * counts as a client of its own for the per-address rate limits. The database is one of its own on
 * the server `DATABASE_URL` names, dropped at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openText } from '../src/features/forms/crypto.server.ts';
import {
  benchDatabase,
  figures,
  freePort,
  gitCommit,
  machine,
  ROOT,
  startWatchdog,
  stopProcess,
  waitForHealth,
  writeResults,
} from './support.ts';

const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');
const SHOP = 'lihakauppa.localhost';
const SHOPPERS = 200;
const USES = 100;
const COUPON = 'KERTA15';
const POSTAL_CODE = '00100';
const PASSWORD = 'salasana-joka-on-pitka';
const MAIL_KEY = '22'.repeat(32);
const CHECKOUT = '/api/v1/lihakauppa/checkout';
const CART = '/api/v1/lihakauppa/shoppingcart';

if (!existsSync(SERVER_ENTRY)) {
  console.error('bench/coupon-burst: no production build; run "npm run build" first');
  process.exit(1);
}

const watchdog = startWatchdog(20);
const database = await benchDatabase('coupon-burst');
const folders: string[] = [];
const servers: ChildProcess[] = [];
let exitCode = 0;
/** The bench's own connection to the database, for the demo data and the counts. */
let reader: pg.Pool | undefined;

/** Kept-alive connections to the servers, as a browser keeps them. */
const agent = new http.Agent({ keepAlive: true });

/**
 * One request over node:http (fetch would drop the `Host` header, which names the site): the
 * status, the headers and the body as text.
 */
function send(
  origin: string,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(urlPath, origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        agent,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A customer's browser: its cookies, its client address, the process it talks to. */
class Shopper {
  readonly jar = new Map<string, string>();
  constructor(
    readonly origin: string,
    readonly ip: string,
  ) {}

  async call(method: string, urlPath: string, json?: unknown) {
    const token = decodeURIComponent(this.jar.get('XSRF-TOKEN') ?? '');
    const started = performance.now();
    const res = await send(
      this.origin,
      method,
      urlPath,
      {
        host: SHOP,
        'x-forwarded-for': this.ip,
        cookie: [...this.jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(token ? { 'x-xsrf-token': token } : {}),
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      json === undefined ? undefined : JSON.stringify(json),
    );
    for (const line of res.headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return {
      status: res.status,
      retryAfter: Number(res.headers['retry-after'] ?? 0),
      ms: performance.now() - started,
      json: () => JSON.parse(res.text),
      text: res.text,
    };
  }

  async must(method: string, urlPath: string, json?: unknown) {
    const res = await this.call(method, urlPath, json);
    if (res.status !== 200) throw new Error(`${method} ${urlPath}: ${res.status} ${res.text}`);
    return res.json();
  }
}

/** Runs `fn` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, fn: (item: T, i: number) => Promise<void>) {
  for (let i = 0; i < items.length; i += width) {
    await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)));
  }
}

try {
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '10',
    SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    ALTCHA_HMAC_KEY: 'bench-altcha-key-that-is-long-enough-0123',
    FORMS_ENCRYPTION_KEY: MAIL_KEY,
    TRUST_PROXY: 'loopback',
  };
  for (const name of ['REDIS_URL', 'FILES_DIR', 'SMTP_URL']) delete shared[name];
  const seedDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-seed-'));
  folders.push(seedDir);
  const seeding = spawn(
    process.execPath,
    ['--import', 'tsx', 'seed/cli.ts', '--sites', 'lihakauppa', '--images-per-kind', '1'],
    { cwd: ROOT, env: { ...shared, DATA_DIR: seedDir }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const seeded = await new Promise<number | null>((resolve) => seeding.once('exit', resolve));
  if (seeded !== 0) throw new Error(`the seed exited with ${seeded}`);

  const origins: string[] = [];
  for (let i = 0; i < 2; i++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `kattaus-bench-burst${i + 1}-`));
    folders.push(dataDir);
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

  const db = new pg.Pool({ connectionString: database.url, max: 4 });
  reader = db;
  // A product limited by nothing but the coupon: for sale, not a gift card, no overall stock,
  // not sold per date.
  const product = (
    await db.query<{ code: string }>(
      `select code from products p where site_id = 'lihakauppa' and lang = 'fi'
         and price_cents is not null and not is_gift_card and stock is null
         and not exists (select 1 from product_weekly_stock w where w.code = p.code)
         and not exists (select 1 from product_date_stock d where d.code = p.code)
       order by code limit 1`,
    )
  ).rows[0]?.code;
  if (!product) throw new Error('the seed has no product limited by nothing');

  // --- 200 customers, each ready to confirm -------------------------------------------------
  const shoppers = Array.from(
    { length: SHOPPERS },
    (_, i) => new Shopper(origins[i % 2] as string, `10.20.${i >> 8}.${(i & 255) + 1}`),
  );
  const preparing = performance.now();
  const mails = async (email: string) =>
    (
      await db.query<{ sealed_body: string }>(
        'select sealed_body from mail_outbox where recipients = $1 order by id desc',
        [email],
      )
    ).rows.map((row) => openText(Buffer.from(MAIL_KEY, 'hex'), row.sealed_body));
  let slots: { date: string; time: string }[] = [];
  const shown: { checkoutId: string; total: string; usedGiftCardAmount: string }[] = [];
  // Registration hashes a password (argon2id) on the servers: a few customers at a time.
  await inBatches(shoppers, 5, async (s, i) => {
    const email = `ryntays${i}@example.fi`;
    await s.call('GET', '/');
    await s.must('POST', '/api/lk/account/register', { email, password: PASSWORD });
    // The account is made, its address verified, by the mailed link (decisions 075 and 083).
    const link = (await mails(email))
      .map((text) => /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(text)?.[1])
      .find(Boolean);
    await s.must('POST', '/api/lk/account/register/confirm', { token: link });
    await s.must('POST', '/api/lk/customer', {
      firstName: 'Ryntäys',
      lastName: `Asiakas ${i}`,
      streetAddress: `Ryntäyskatu ${i + 1}`,
      postalCode: POSTAL_CODE,
      city: 'Helsinki',
      phoneNumber: '040 123 4567',
      isPrivateCustomer: true,
    });
    await s.must('POST', `${CART}/add?language=fi&code=${product}&quantity=2`);
    await s.must('POST', `${CART}/addcouponcode?language=fi&code=${COUPON}`);
  });
  // The customers spread over the delivery times (40 orders each in the demo calendar).
  const delivery = await (shoppers[0] as Shopper).must(
    'GET',
    `${CHECKOUT}/delivery?postalCode=${POSTAL_CODE}&language=fi`,
  );
  slots = (delivery.dates as { value: string; times: { value: string }[] }[]).flatMap((d) =>
    d.times.map((t) => ({ date: d.value, time: t.value })),
  );
  if (slots.length * 40 < SHOPPERS) throw new Error(`only ${slots.length} delivery times`);
  await inBatches(shoppers, 10, async (s, i) => {
    const slot = slots[i % slots.length] as { date: string; time: string };
    const checkout = await s.must('POST', `${CHECKOUT}/hold?language=fi`, {
      postalCode: POSTAL_CODE,
      ...slot,
      useDeliveryAddressForBilling: true,
    });
    shown[i] = {
      checkoutId: checkout.hold.checkoutId,
      total: checkout.cart.total,
      usedGiftCardAmount: checkout.cart.usedGiftCardAmount,
    };
  });
  const prepareSeconds = (performance.now() - preparing) / 1000;
  process.stdout.write(
    `${SHOPPERS} customers ready in ${prepareSeconds.toFixed(1)} s (${slots.length} delivery times)\n`,
  );

  // --- the burst ----------------------------------------------------------------------------
  const confirm = (i: number) =>
    (shoppers[i] as Shopper).call('POST', `${CHECKOUT}/order`, {
      ...shown[i],
      PaymentMethodCode: 'FI50',
    });
  const loadBefore = os.loadavg()[0];
  const started = performance.now();
  const first = await Promise.all(shoppers.map((_, i) => confirm(i)));
  const burstMs = Math.round(performance.now() - started);
  const count = (answers: { status: number }[], status: number) =>
    answers.filter((a) => a.status === status).length;
  const answers = {
    200: count(first, 200),
    409: count(first, 409),
    503: count(first, 503),
    500: count(first, 500),
    other: first.filter((a) => ![200, 409, 503, 500].includes(a.status)).length,
  };
  const times = figures(first.map((a) => a.ms));
  const refusals = new Set(
    first.filter((a) => a.status === 409).map((a) => JSON.stringify(a.json().errors)),
  );
  process.stdout.write(
    `burst: ${burstMs} ms, answers ${JSON.stringify(answers)}, request ms ${JSON.stringify(times)}\n`,
  );

  // --- the busy ones try again --------------------------------------------------------------
  const final = [...first];
  let retries = 0;
  for (let round = 0; round < 10; round++) {
    const again = final.flatMap((a, i) => (a.status === 503 ? [i] : []));
    if (again.length === 0) break;
    const wait = Math.max(...again.map((i) => final[i]?.retryAfter ?? 1), 1);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    retries += again.length;
    const answered = await Promise.all(again.map(confirm));
    again.forEach((i, k) => {
      final[i] = answered[k] as (typeof final)[number];
    });
  }
  const settled = { 200: count(final, 200), 409: count(final, 409), 503: count(final, 503) };

  const [coupon] = (
    await db.query<{ used_count: number }>('select used_count from coupons where code = $1', [
      COUPON,
    ])
  ).rows;
  const placed = (
    await db.query<{ total_cents: number; checkout_id: string }>(
      'select total_cents, checkout_id from orders where coupon_codes ? $1',
      [COUPON],
    )
  ).rows;
  // Each order charges what its checkout showed (decision 080).
  const shownOf = new Map(shown.map((s) => [s.checkoutId, s]));
  const cents = (money: string) => Number(money.replace(',', ''));
  const chargedAsShown = placed.every((o) => {
    const s = shownOf.get(o.checkout_id);
    return s !== undefined && o.total_cents === cents(s.total) - cents(s.usedGiftCardAmount);
  });

  const results = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    machine: machine(),
    loadAverageBeforeBurst: Math.round((loadBefore ?? 0) * 100) / 100,
    shoppers: SHOPPERS,
    uses: USES,
    processes: 2,
    poolPerProcess: 10,
    prepareSeconds: Math.round(prepareSeconds * 10) / 10,
    burstMs,
    answers,
    refusals: [...refusals],
    requestMs: times,
    retriedAfter503: retries,
    settled,
    couponUses: coupon?.used_count,
    ordersWithCoupon: placed.length,
    chargedAsShown,
  };
  process.stdout.write(
    `${JSON.stringify({ burstMs, answers, requestMs: times, settled, couponUses: coupon?.used_count, ordersWithCoupon: placed.length, chargedAsShown }, null, 2)}\n`,
  );
  writeResults('coupon-burst', results);
  const ok =
    answers[500] === 0 &&
    answers.other === 0 &&
    settled[503] === 0 &&
    settled[200] === USES &&
    coupon?.used_count === USES &&
    placed.length === USES &&
    chargedAsShown;
  if (!ok) {
    console.error('bench/coupon-burst: a check failed (see above)');
    exitCode = 1;
  }
} catch (error) {
  console.error('bench/coupon-burst failed:', error);
  exitCode = 1;
} finally {
  for (const server of servers) await stopProcess(server);
  await reader?.end().catch(() => {});
  await database.drop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  clearTimeout(watchdog);
}
process.exit(exitCode);
