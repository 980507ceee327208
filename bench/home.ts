/**
 * Home page benchmark: throughput and latency of the corporate home page and /health, the
 * server's peak memory, and the JavaScript a home page loads (as sent to a browser: brotli). Runs the production build
 * as a child process on a fresh embedded database and stops by itself. `npm run bench`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  browserGet,
  describeFiles,
  kB,
  measurePageJavaScript,
  PAGE_JS_BUDGETS,
  plainGet,
  readManifest,
} from '../scripts/page-javascript.ts';
import { RSS_SAMPLE_MS, readStatusKb, startRssSampler, toMB } from './support.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_ENTRY = path.join(ROOT, 'dist/server/main.js');
const CLIENT_DIR = path.join(ROOT, 'dist/client');
const MANIFEST = path.join(CLIENT_DIR, '.vite/manifest.json');
const RESULTS_DIR = path.join(ROOT, 'bench/results');

const HOME_HOST = 'konsernifi.localhost';
const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const DURATION_SECONDS = 10;
const STARTUP_LIMIT_MS = 30_000;
const STOP_GRACE_MS = 10_000;
/** JavaScript a home page may load with every island hydrated, as sent (decision 160; the check in `npm test` applies it too). */
const BUDGET_BYTES = PAGE_JS_BUDGETS.home;
/** A run that overshoots its duration by this much is stuck: stop it rather than hang. */
const RUN_SLACK_MS = 20_000;
/** The whole script, start-up and shutdown included, never runs longer than this. */
const WATCHDOG_MS = 180_000;

interface LoadResult {
  name: string;
  path: string;
  host: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  peakRssMB: number;
}

if (!existsSync(SERVER_ENTRY) || !existsSync(MANIFEST)) {
  console.error(
    `No production build (${path.relative(ROOT, SERVER_ENTRY)}, ${path.relative(ROOT, MANIFEST)}).\nRun "npm run build" first.`,
  );
  process.exit(1);
}
warnIfStale();

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-'));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const get = plainGet(origin);
const child = startServer(port, dataDir);
const rss = startRssSampler(child.pid);

// A bench that hangs would leave a server behind; the watchdog and signal handlers prevent that.
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_MS / 1000} s, giving up`);
  void stopServer(child).finally(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void stopServer(child).finally(() => process.exit(130));
  });
}

let exitCode = 0;
try {
  await waitForHealth(child);

  const js = await measureJavaScript();

  rss.phase('home');
  const home = await load('home', '/', HOME_HOST);
  rss.phase('health');
  const health = await load('health', '/health', `127.0.0.1:${port}`);
  rss.stop();
  const hwmKb = readStatusKb(child.pid, 'VmHWM');
  home.peakRssMB = round(toMB(rss.peakKb('home')), 1);
  health.peakRssMB = round(toMB(rss.peakKb('health')), 1);

  const results = {
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: round(os.totalmem() / 2 ** 30, 1),
      platform: `${os.platform()} ${os.release()}`,
    },
    commit: gitCommit(),
    settings: {
      connections: CONNECTIONS,
      warmupSeconds: WARMUP_SECONDS,
      durationSeconds: DURATION_SECONDS,
    },
    load: [home, health],
    memory: {
      peakRssSampledMB: round(toMB(rss.peakKb()), 1),
      startupPeakRssMB: round(toMB(rss.peakKb('start-up')), 1),
      vmHwmMB: round(toMB(hwmKb), 1),
      sampleIntervalMs: RSS_SAMPLE_MS,
    },
    javascript: js,
  };

  printTable(results.load, results.memory, js);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `home-${results.date.slice(0, 19).replace(/:/g, '-')}.json`);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, out)}\n`);

  const failed = results.load.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0) {
    console.error(
      `bench: ${failed.map((r) => r.name).join(', ')} had non-2xx answers or errors; the figures are not valid`,
    );
    exitCode = 1;
  }
  if (js.withAllIslands.transferBytes > BUDGET_BYTES) {
    console.error(
      `bench: ${kB(js.withAllIslands.transferBytes)} kB of JavaScript (brotli, as sent) with every island hydrated, over the ${kB(BUDGET_BYTES)} kB budget`,
    );
    exitCode = 1;
  }
} catch (error) {
  console.error('bench failed:', error);
  exitCode = 1;
} finally {
  rss.stop();
  await stopServer(child);
  rmSync(dataDir, { recursive: true, force: true });
  clearTimeout(watchdog);
}
process.exit(exitCode);

// --- server lifecycle -------------------------------------------------------------------------

function startServer(listenPort: number, dir: string): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(listenPort),
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
  };
  // Without DATABASE_URL the server uses PGlite in DATA_DIR: no shared database to disturb.
  delete env.DATABASE_URL;
  const proc = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The server's own output goes to stderr so stdout stays the report.
  proc.stdout?.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk}`));
  proc.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk}`));
  return proc;
}

async function waitForHealth(proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null)
      throw new Error(`server exited during start-up (${proc.exitCode ?? proc.signalCode})`);
    try {
      const res = await get('/health', undefined, 1_000);
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(`/health did not answer 200 within ${STARTUP_LIMIT_MS / 1000} s`);
}

async function stopServer(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const p = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (p ? resolve(p) : reject(new Error('no free port'))));
    });
  });
}

// --- load -------------------------------------------------------------------------------------

async function load(name: string, urlPath: string, host: string): Promise<LoadResult> {
  const options: autocannon.Options = {
    url: `${origin}${urlPath}`,
    headers: { host },
    connections: CONNECTIONS,
  };
  process.stderr.write(`bench: ${name} warm-up ${WARMUP_SECONDS} s…\n`);
  await cannon({ ...options, duration: WARMUP_SECONDS });
  process.stderr.write(`bench: ${name} ${DURATION_SECONDS} s…\n`);
  const r = await cannon({ ...options, duration: DURATION_SECONDS });
  return {
    name,
    path: urlPath,
    host,
    requestsPerSecond: round(r.requests.average, 0),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    peakRssMB: 0,
  };
}

/** One autocannon run, stopped if it overruns its duration. */
function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const limit = (options.duration as number) * 1000 + RUN_SLACK_MS;
    const instance = autocannon(options, (err: unknown, result) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(result);
    });
    const timer = setTimeout(() => {
      instance.stop();
      reject(new Error(`autocannon run against ${options.url} overran ${limit / 1000} s`));
    }, limit);
  });
}

// --- JavaScript weight ------------------------------------------------------------------------

/** The home page's JavaScript, by the computation the budget check of `npm test` uses. */
async function measureJavaScript() {
  const js = await measurePageJavaScript({
    get: browserGet(origin),
    host: HOME_HOST,
    path: '/',
    manifest: readManifest(CLIENT_DIR),
  });
  return { budgetBytes: BUDGET_BYTES, ...js };
}

// --- helpers ----------------------------------------------------------------------------------

function warnIfStale(): void {
  const built = statSync(SERVER_ENTRY).mtimeMs;
  const src = path.join(ROOT, 'src');
  const newer = readdirSync(src, { recursive: true, encoding: 'utf8' }).find((f) => {
    const full = path.join(src, f);
    return !/\.test\.tsx?$/.test(f) && statSync(full).isFile() && statSync(full).mtimeMs > built;
  });
  if (newer)
    console.warn(`bench: src/${newer} is newer than dist/: "npm run build" for current figures`);
}

function gitCommit(): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function printTable(
  rows: LoadResult[],
  memory: { peakRssSampledMB: number; startupPeakRssMB: number; vmHwmMB: number },
  js: Awaited<ReturnType<typeof measureJavaScript>>,
): void {
  const out: string[] = [];
  const line = (cells: (string | number)[], widths: number[]) =>
    cells.map((c, i) => String(c).padStart(widths[i] ?? 8)).join('  ');
  const w = [8, 10, 8, 8, 10, 8, 7, 13];
  out.push(
    `Load: ${CONNECTIONS} connections, ${DURATION_SECONDS} s after a ${WARMUP_SECONDS} s warm-up`,
  );
  out.push(
    line(['bench', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'peak RSS MB'], w),
  );
  for (const r of rows)
    out.push(
      line(
        [
          r.name,
          r.requestsPerSecond,
          r.latencyP50Ms,
          r.latencyP99Ms,
          r.requests,
          r.non2xx,
          r.errors,
          r.peakRssMB,
        ],
        w,
      ),
    );
  out.push(
    `Server memory (MB = 10^6 bytes): peak RSS sampled every ${RSS_SAMPLE_MS} ms ${memory.peakRssSampledMB} MB` +
      ` (start-up ${memory.startupPeakRssMB} MB), VmHWM (lifetime peak) ${memory.vmHwmMB} MB`,
  );
  out.push('');
  out.push(
    'JavaScript of the home page (bytes as sent to a browser that accepts brotli; 1 kB = 1000 bytes)',
  );
  describeFiles(js.files).forEach((l) => {
    out.push(`  ${l}`);
  });
  out.push(
    `  before any island asks for more: ${kB(js.beforeIslands.transferBytes)} kB in ${js.beforeIslands.files} files`,
  );
  const on = (when: string) =>
    js.islandsOnPage
      .filter((i) => i.hydrate === when)
      .map((i) => i.name)
      .join(', ') || 'none';
  out.push(
    `  with the islands hydrated on load (${on('load')}): ${kB(js.withLoadIslands.transferBytes)} kB in ${js.withLoadIslands.files} files`,
  );
  out.push(
    `  with the idle islands too (${on('idle')}): ${kB(js.withIdleIslands.transferBytes)} kB in ${js.withIdleIslands.files} files`,
  );
  out.push(
    `  with every island (visible: ${on('visible')}): ${kB(js.withAllIslands.transferBytes)} kB in ${js.withAllIslands.files} files (budget ${kB(BUDGET_BYTES)} kB; gzip -9 ${kB(js.withAllIslands.gzipBytes)} kB)`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}
