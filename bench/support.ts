/**
 * What the in-process benchmarks share: CSS imports made empty (the app imports CSS modules
 * through feature index files; nothing is rendered), the watchdog, the app built for a bench
 * (production mode, a temporary `DATA_DIR`), a PostgreSQL database of the bench's own on the
 * server `DATABASE_URL` names, the demo content seeded, percentile figures, and the results file
 * with the machine and commit it was measured on.
 *
 * Import it before anything of the app: the CSS loader hook (scripts/empty-css-imports.ts) is
 * registered when this module is evaluated, and the app is imported dynamically after that.
 */
import '../scripts/empty-css-imports.ts';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { AssetProvider } from '../src/render/assets.ts';

/** No client build: a server for the benchmarks that measure the server alone. */
const noScripts = () => ({ scripts: [], styles: [], modulePreloads: [] });
export const NO_ASSETS: AssetProvider = { dev: false, page: noScripts, entry: noScripts };

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Exits 2 when the bench still runs after `minutes`; clear the timer at the end. */
export function startWatchdog(minutes: number): NodeJS.Timeout {
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${minutes} min, giving up`);
    process.exit(2);
  }, minutes * 60_000);
  watchdog.unref();
  return watchdog;
}

export interface Figures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentiles of `values`, rounded to `digits` decimals. */
export function figures(values: number[], digits = 0): Figures {
  const sorted = [...values].sort((a, b) => a - b);
  const scale = 10 ** digits;
  const at = (q: number) =>
    Math.round(
      (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0) * scale,
    ) / scale;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}

/** The median of `values` (the mean of the middle two when their count is even); 0 for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    return 'unknown';
  }
}

/** The machine a result was measured on, load average included. */
export function machine() {
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

/** Writes `bench/results/<name>-<timestamp>.json` and says where, with the load average. */
export function writeResults(
  name: string,
  results: { date: string; machine: { loadAverage: number[] } },
): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(
    RESULTS_DIR,
    `${name}-${results.date.slice(0, 19).replace(/:/g, '-')}.json`,
  );
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nload average at the end: ${results.machine.loadAverage.join(', ')}\n`);
  process.stdout.write(`Results written to ${path.relative(ROOT, out)}\n`);
}

/** A fresh database of this process on the PostgreSQL server `DATABASE_URL` names. */
export async function benchDatabase(bench: string) {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    console.error(`bench/${bench}: set DATABASE_URL to a PostgreSQL server`);
    process.exit(1);
  }
  const dbName = `kattaus_bench_${bench.replace(/\W/g, '_')}_${process.pid}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const url = new URL(baseUrl);
  url.pathname = `/${dbName}`;
  return {
    url: url.href,
    admin,
    async drop() {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  };
}

/**
 * The app in production mode on a temporary `DATA_DIR` (removed by `cleanUp`), with `env` over
 * the process's environment; `databaseUrl` undefined means the embedded database.
 */
export async function benchApp(
  bench: string,
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
) {
  const { buildApp } = await import('../src/app/app.ts');
  const { loadConfig } = await import('../src/server/config.ts');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `kattaus-bench-${bench}-`));
  const base = { ...process.env };
  delete base.DATABASE_URL;
  let app: FastifyInstance | undefined;
  try {
    app = await buildApp({
      config: loadConfig({
        ...base,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: '10' } : {}),
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
        ...env,
      }),
      assets: NO_ASSETS,
      logger: false,
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    async cleanUp() {
      await app?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Seeds the demo content (one image per kind) into a ready app and says how long it took. */
export async function seedDemoContent(app: FastifyInstance): Promise<void> {
  const { seed } = await import('../seed/seed.ts');
  const started = performance.now();
  await seed({ db: app.db, files: app.files }, { imagesPerKind: 1 });
  process.stdout.write(
    `demo content seeded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

/** Collects Fastify's `reply.elapsedTime` of every answer into the returned array. */
export function recordElapsed(app: FastifyInstance): number[] {
  const elapsed: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    elapsed.push(reply.elapsedTime);
  });
  return elapsed;
}

/**
 * Runs a bench's `body`, then every `cleanUp` in order (each one also when an earlier one fails)
 * and stops the watchdog; exits 1 when the body throws or answers false, else 0.
 */
export async function runBench(
  watchdog: NodeJS.Timeout,
  body: () => Promise<boolean | undefined>,
  cleanUps: (() => Promise<void> | undefined)[],
): Promise<never> {
  let exitCode = 0;
  try {
    if ((await body()) === false) exitCode = 1;
  } catch (error) {
    console.error('bench failed:', error);
    exitCode = 1;
  } finally {
    for (const cleanUp of cleanUps) {
      try {
        await cleanUp();
      } catch (error) {
        console.error('bench clean-up failed:', error);
        exitCode = 1;
      }
    }
    clearTimeout(watchdog);
  }
  process.exit(exitCode);
}

/** Waits until the server at `origin` answers `/health` 200 (120 s at most). */
export async function waitForHealth(origin: string, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode})`);
    if ((await statusOf(origin, undefined, '/health').catch(() => 0)) === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('/health did not answer 200 within 120 s');
}

/** The status of a plain GET (`host` picks the site; `cookie` the visitor). */
export function statusOf(
  origin: string,
  host: string | undefined,
  urlPath: string,
  cookie = '',
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${origin}${urlPath}`,
      { headers: { ...(host ? { host } : {}), ...(cookie ? { cookie } : {}) }, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath} timed out`)));
    req.on('error', reject);
  });
}

/** SIGTERM, then SIGKILL after 10 s; resolves when the process has exited. */
export async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const p = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => (p ? resolve(p) : reject(new Error('no free port'))));
    });
  });
}

/** Interval of `startRssSampler`. */
export const RSS_SAMPLE_MS = 250;

/** Samples a process's RSS every `RSS_SAMPLE_MS`; peaks are kept per named phase. */
export function startRssSampler(pid: number | undefined) {
  if (pid === undefined) throw new Error('the server has no pid');
  const peaks = new Map<string, number>();
  let current = 'start-up';
  const sample = () => {
    try {
      const kb = readStatusKb(pid, 'VmRSS');
      peaks.set(current, Math.max(peaks.get(current) ?? 0, kb));
    } catch {
      // The process has gone; the finally block reports why.
    }
  };
  const timer = setInterval(sample, RSS_SAMPLE_MS);
  return {
    phase(name: string) {
      sample();
      current = name;
    },
    stop() {
      sample();
      clearInterval(timer);
    },
    /** Peak of one phase, or of all phases. */
    peakKb(name?: string): number {
      if (name) return peaks.get(name) ?? 0;
      return Math.max(0, ...peaks.values());
    },
  };
}

/** The process ids under `root` (itself included), from `/proc`. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces: state, ppid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while being read.
    }
  }
  const tree: number[] = [];
  const queue = [root];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * Gives every thread of Chromium's helper processes the niceness `nice`: all its processes but
 * the renderers and the zygotes they are forked from (so new renderers start at normal priority).
 * On Linux a niceness belongs to a thread, so each one is set; threads started later inherit it
 * from the one that starts them. Run before each audit: a helper may have started since.
 */
export function setHelpersPriority(root: number, nice: number): void {
  for (const pid of processTree(root)) {
    let command: string;
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (command.includes('--type=renderer') || command.includes('--type=zygote')) continue;
    let threads: string[] = [];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of threads) {
      try {
        os.setPriority(Number(tid), nice);
      } catch {
        // The thread ended meanwhile.
      }
    }
  }
}

/** A `/proc/<pid>/status` field in kB as the kernel writes it (KiB). */
export function readStatusKb(pid: number | undefined, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match?.[1]) throw new Error(`${field} missing from /proc/${pid}/status`);
  return Number(match[1]);
}

/** KiB (as the kernel counts) to MB of 10^6 bytes. */
export function toMB(kib: number): number {
  return (kib * 1024) / 1_000_000;
}
