/**
 * Form upload load test: 20 complaints at once, each with three 14 MB images as data URLs
 * (~56 MB of JSON each), against the production build on a fresh embedded database. Every
 * request must be stored (200) or refused with 503 and Retry-After; none may go unanswered; the
 * server's peak RSS (VmHWM) must stay under 1.5 GB. Refused ones are then retried after their
 * Retry-After until all are stored. Sends traffic to 127.0.0.1 only and stops by itself.
 * `npm run build && npx tsx bench/forms.ts`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { noisePng, validPayload } from '../src/features/forms/forms.test-support.ts';
import { freePort } from '../tests/helpers/server-process.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = process.env.SERVER_ENTRY ?? path.join(ROOT, 'dist/server/main.js');
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const CONCURRENT = 20;
const IMAGE_BYTES = 14 * 1024 * 1024;
const RSS_LIMIT_BYTES = 1.5 * 1024 ** 3;
const MAX_RETRY_ROUNDS = 10;
const WATCHDOG_MS = 600_000;

const watchdog = setTimeout(() => {
  console.error('bench/forms: watchdog fired, stopping');
  process.exit(2);
}, WATCHDOG_MS);
watchdog.unref();

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        headers: { host: 'sibylla.localhost', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function waitForHealth(port: number, child: ChildProcess) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await request(port, 'GET', '/health', {})).status === 200) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start in 30 s');
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

async function solvedToken(port: number): Promise<string> {
  const answer = await request(port, 'GET', '/api/captcha/challenge', {});
  const challenge = JSON.parse(answer.body);
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function main() {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`no build at ${SERVER_ENTRY}: run npm run build`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-forms-'));
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      ALTCHA_MAX_NUMBER: '1000',
      FORMS_RATE_LIMIT: '1000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(port, child);
    const pid = child.pid ?? 0;
    const page = await request(port, 'GET', '/', {});
    const cookies = ([] as string[])
      .concat(page.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0]);
    const xsrf =
      cookies.find((c) => c?.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
    const headers = {
      cookie: cookies.join('; '),
      'x-xsrf-token': xsrf,
      'content-type': 'application/json',
    };

    console.info(
      `building ${CONCURRENT} complaints with three ${IMAGE_BYTES / 1024 ** 2} MB images…`,
    );
    const images = await Promise.all(
      [1, 2, 3].map(async (n) => (await noisePng(IMAGE_BYTES + n)).toString('base64')),
    );
    const base = await validPayload('complaint');
    const bodyOf = (token: string) =>
      Buffer.from(
        JSON.stringify({
          ...base,
          Files: images.map((b64, i) => ({
            Name: `kuva-${i + 1}.png`,
            Data: `data:image/png;base64,${b64}`,
          })),
          MTCaptchaToken: token,
        }),
      );
    const tokens = await Promise.all(Array.from({ length: CONCURRENT }, () => solvedToken(port)));
    const bodies = tokens.map(bodyOf);
    const bodyMb = bodies[0] ? bodies[0].length / 1024 ** 2 : 0;
    const rssBefore = peakRss(pid);

    const started = performance.now();
    const answers = await Promise.allSettled(
      bodies.map((b) => request(port, 'POST', '/api/contact/retail/reclamation', headers, b)),
    );
    const burstMs = performance.now() - started;
    const stored = answers.filter((a) => a.status === 'fulfilled' && a.value.status === 200).length;
    const busy = answers.filter(
      (a) =>
        a.status === 'fulfilled' &&
        a.value.status === 503 &&
        Number(a.value.headers['retry-after']) > 0,
    );
    const other = answers.filter(
      (a) => a.status === 'rejected' || (a.value.status !== 200 && a.value.status !== 503),
    );
    const peakAfterBurst = peakRss(pid);

    // The refused ones come back after their Retry-After, a few at a time, as a browser would.
    let pending = busy.length;
    let rounds = 0;
    while (pending > 0 && rounds < MAX_RETRY_ROUNDS) {
      rounds++;
      await new Promise((r) =>
        setTimeout(
          r,
          1000 * Number(busy[0]?.status === 'fulfilled' ? busy[0].value.headers['retry-after'] : 1),
        ),
      );
      const retry = await Promise.all(
        Array.from({ length: pending }, async () =>
          request(
            port,
            'POST',
            '/api/contact/retail/reclamation',
            headers,
            bodyOf(await solvedToken(port)),
          ),
        ),
      );
      pending = retry.filter((r) => r.status === 503).length;
    }
    const peak = peakRss(pid);
    const storedDirs = readdirSync(path.join(dataDir, 'files/forms/complaint')).length;
    const result = {
      date: new Date().toISOString(),
      concurrent: CONCURRENT,
      bodyMb: Number(bodyMb.toFixed(1)),
      maxLargeBodies: 4,
      burst: {
        ms: Math.round(burstMs),
        stored,
        busy503WithRetryAfter: busy.length,
        unanswered: other.length,
        latencyMs: answers
          .filter((a): a is PromiseFulfilledResult<Answer> => a.status === 'fulfilled')
          .map((a) => Math.round(a.value.ms))
          .sort((a, b) => a - b),
      },
      retryRounds: rounds,
      stillBusyAfterRetries: pending,
      storedSubmissions: storedDirs,
      rssMb: {
        idlePeak: Math.round(rssBefore / 1024 ** 2),
        peakAfterBurst: Math.round(peakAfterBurst / 1024 ** 2),
        peak: Math.round(peak / 1024 ** 2),
      },
    };
    console.info(JSON.stringify(result, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(path.join(RESULTS_DIR, 'forms.json'), `${JSON.stringify(result, null, 2)}\n`);
    const ok =
      other.length === 0 && peak < RSS_LIMIT_BYTES && storedDirs === CONCURRENT && pending === 0;
    if (!ok) {
      console.error(
        'bench/forms: FAILED (an answer missing, a submission lost, or peak RSS ≥ 1.5 GB)',
      );
      process.exitCode = 1;
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
