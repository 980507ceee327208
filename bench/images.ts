/**
 * Image benchmark: how long the generator takes per picture, and how long `/images/…` takes per
 * preset and format on a cache miss (resize and encode) and on a hit (read from the file store).
 * Builds the app in-process on a fresh embedded database and file store in a temporary folder,
 * listens on 127.0.0.1, measures over HTTP, then removes everything and exits by itself.
 * `npm run bench:images` (or `npx tsx bench/images.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import type { ImageKind } from '../seed/pictures/generate.ts';
import type { PresetName } from '../src/images/presets.ts';
import type { ImageFormat } from '../src/images/variants.server.ts';
import { NO_ASSETS } from './support.ts';

type GenerateModule = typeof import('../seed/pictures/generate.ts');
type PresetsModule = typeof import('../src/images/presets.ts');
type StoreModule = typeof import('../seed/pictures/store.ts');
type VariantsModule = typeof import('../src/images/variants.server.ts');
type AppModule = typeof import('../src/app/app.ts');
type ConfigModule = typeof import('../src/server/config.ts');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = path.join(ROOT, 'bench/results');

/** Pictures drawn per kind for the generator's figures. */
const GENERATE_PER_KIND = 20;
/** Sequential requests per preset and format once the variant is cached. */
const HITS = 200;
const LOAD_CONNECTIONS = 10;
const LOAD_SECONDS = 5;
/** The whole script never runs longer than this. */
const WATCHDOG_MS = 300_000;

const ACCEPT: Record<ImageFormat, string> = {
  jpeg: 'image/*,*/*;q=0.8',
  webp: 'image/webp,*/*;q=0.8',
  avif: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8',
};
const FORMATS: ImageFormat[] = ['jpeg', 'webp', 'avif'];

const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_MS / 1000} s, giving up`);
  process.exit(2);
}, WATCHDOG_MS);
watchdog.unref();

// The app imports CSS modules, so it is loaded through Vite's SSR loader, as `npm run dev` does.
const vite: ViteDevServer = await createViteServer({
  server: { middlewareMode: true, hmr: false },
  appType: 'custom',
  logLevel: 'warn',
});
const load = <T>(id: string) => vite.ssrLoadModule(id) as Promise<T>;
const { generateImage, imageKinds, imageSizes } = await load<GenerateModule>(
  '/seed/pictures/generate.ts',
);
const { imageUrl, presetNames } = await load<PresetsModule>('/src/images/presets.ts');
const { storeGeneratedImage } = await load<StoreModule>('/seed/pictures/store.ts');
const { variantStats } = await load<VariantsModule>('/src/images/variants.server.ts');
const { buildApp } = await load<AppModule>('/src/app/app.ts');
const { loadConfig } = await load<ConfigModule>('/src/server/config.ts');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kattaus-bench-images-'));
let app: FastifyInstance | undefined;
let exitCode = 0;
try {
  const generation = await measureGeneration();

  const env = { ...process.env };
  delete env.DATABASE_URL;
  app = await buildApp({
    config: loadConfig({
      ...env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-secret-that-is-long-enough-0123456789',
    }),
    assets: NO_ASSETS,
    logger: false,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const ctx = { db: app.db, files: app.files };
  // A 4:3 photo-sized original, the size of most content pictures.
  const id = await storeGeneratedImage(ctx, { kind: 'recipe', seed: 'bench-recipe', alt: {} });

  const presets: PresetResult[] = [];
  for (const preset of presetNames) {
    for (const format of FORMATS) {
      presets.push(await measurePreset(address, id, preset, format));
    }
  }

  const concurrentId = await storeGeneratedImage(ctx, {
    kind: 'hero',
    seed: 'bench-hero',
    alt: {},
  });
  const concurrent = await measureConcurrentMisses(address, concurrentId);
  const load = await measureLoad(address, id);

  const results = {
    date: new Date().toISOString(),
    machine: {
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      platform: `${os.platform()} ${os.release()}`,
    },
    commit: gitCommit(),
    original: { kind: 'recipe', width: 1600, height: 1200 },
    generation,
    presets,
    concurrent,
    load,
  };
  printReport(results);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const out = path.join(RESULTS_DIR, `images-${results.date.slice(0, 19).replace(/:/g, '-')}.json`);
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`\nResults written to ${path.relative(ROOT, out)}\n`);
  if (load.non2xx > 0 || load.errors > 0) {
    console.error('bench: the load run had non-2xx answers or errors; the figures are not valid');
    exitCode = 1;
  }
} catch (error) {
  console.error('bench failed:', error);
  exitCode = 1;
} finally {
  await app?.close();
  await vite.close();
  rmSync(dataDir, { recursive: true, force: true });
  clearTimeout(watchdog);
}
process.exit(exitCode);

// --- generator --------------------------------------------------------------------------------

interface GenerationResult {
  kind: ImageKind;
  count: number;
  meanMs: number;
  p50Ms: number;
  maxMs: number;
  meanKB: number;
}

async function measureGeneration(): Promise<GenerationResult[]> {
  // The first picture loads fonts and warms librsvg; it is not counted.
  await generateImage({ kind: 'product', seed: 'warm-up', title: 'Lämmittely' });
  const results: GenerationResult[] = [];
  for (const kind of imageKinds) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < GENERATE_PER_KIND; i++) {
      const start = performance.now();
      const image = await generateImage({ kind, seed: `bench-${i}`, title: 'Grillimakkara 400 g' });
      times.push(performance.now() - start);
      bytes += image.data.length;
    }
    times.sort((a, b) => a - b);
    results.push({
      kind,
      count: times.length,
      meanMs: round(mean(times), 1),
      p50Ms: round(percentile(times, 50), 1),
      maxMs: round(times.at(-1) ?? 0, 1),
      meanKB: round(bytes / times.length / 1000, 0),
    });
  }
  return results;
}

// --- presets ----------------------------------------------------------------------------------

interface PresetResult {
  preset: PresetName;
  format: ImageFormat;
  width: number;
  height: number;
  kB: number;
  missMs: number;
  hitP50Ms: number;
  hitP99Ms: number;
}

async function measurePreset(
  origin: string,
  id: number,
  preset: PresetName,
  format: ImageFormat,
): Promise<PresetResult> {
  const url = `${origin}${imageUrl({ id, slug: 'bench' }, preset)}`;
  const headers = { accept: ACCEPT[format] };
  const rendersBefore = variantStats.renders;
  const missStart = performance.now();
  const miss = await fetch(url, { headers });
  const body = Buffer.from(await miss.arrayBuffer());
  const missMs = performance.now() - missStart;
  if (miss.status !== 200 || miss.headers.get('x-image-cache') !== 'miss') {
    throw new Error(
      `${preset}/${format}: first answer ${miss.status} ${miss.headers.get('x-image-cache')}`,
    );
  }
  const times: number[] = [];
  for (let i = 0; i < HITS; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    times.push(performance.now() - start);
    if (res.status !== 200 || res.headers.get('x-image-cache') !== 'hit') {
      throw new Error(`${preset}/${format}: repeated answer ${res.status} was not a cache hit`);
    }
  }
  if (variantStats.renders !== rendersBefore + 1) {
    throw new Error(`${preset}/${format}: resized ${variantStats.renders - rendersBefore} times`);
  }
  times.sort((a, b) => a - b);
  const { width, height } = await sharp(body).metadata();
  return {
    preset,
    format,
    width: width ?? 0,
    height: height ?? 0,
    kB: round(body.length / 1000, 1),
    missMs: round(missMs, 0),
    hitP50Ms: round(percentile(times, 50), 2),
    hitP99Ms: round(percentile(times, 99), 2),
  };
}

/** Ten requests at once for a variant not yet made: how long they take and how many resizes. */
async function measureConcurrentMisses(origin: string, id: number) {
  const url = `${origin}${imageUrl({ id }, 'default')}`;
  const before = variantStats.renders;
  const start = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      fetch(url, { headers: { accept: ACCEPT.avif } }).then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    ),
  );
  return {
    requests: answers.length,
    ok: answers.filter((s) => s === 200).length,
    resizes: variantStats.renders - before,
    allDoneMs: round(performance.now() - start, 0),
  };
}

/** Throughput of cache hits under load (autocannon, client and server on the same two cores). */
async function measureLoad(origin: string, id: number) {
  const url = `${origin}${imageUrl({ id }, 'third')}`;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        headers: { accept: ACCEPT.avif },
        connections: LOAD_CONNECTIONS,
        duration: LOAD_SECONDS,
      },
      (err: unknown, r) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(r);
      },
    );
    const timer = setTimeout(
      () => {
        instance.stop();
        reject(new Error('autocannon overran its duration'));
      },
      LOAD_SECONDS * 1000 + 20_000,
    );
  });
  return {
    path: new URL(url).pathname + new URL(url).search,
    format: 'avif',
    connections: LOAD_CONNECTIONS,
    seconds: LOAD_SECONDS,
    requestsPerSecond: round(result.requests.average, 0),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

// --- report -----------------------------------------------------------------------------------

function printReport(results: {
  generation: GenerationResult[];
  presets: PresetResult[];
  concurrent: Awaited<ReturnType<typeof measureConcurrentMisses>>;
  load: Awaited<ReturnType<typeof measureLoad>>;
}) {
  const out: string[] = [];
  out.push('Generator (SVG drawn and rasterised to JPEG q82)', '');
  out.push(
    '| kind | size | mean | p50 | max | mean size |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const g of results.generation) {
    const size = imageSizes[g.kind];
    out.push(
      `| ${g.kind} | ${size.width}×${size.height} | ${g.meanMs} ms | ${g.p50Ms} ms | ${g.maxMs} ms | ${g.meanKB} kB |`,
    );
  }
  out.push('', 'Presets of a 1600×1200 original', '');
  out.push(
    '| preset | format | size | bytes | miss | hit p50 | hit p99 |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const p of results.presets) {
    out.push(
      `| ${p.preset} | ${p.format} | ${p.width}×${p.height} | ${p.kB} kB | ${p.missMs} ms | ${p.hitP50Ms} ms | ${p.hitP99Ms} ms |`,
    );
  }
  const c = results.concurrent;
  out.push(
    '',
    `Concurrent misses: ${c.requests} requests for one new variant, ${c.ok} answered 200, ${c.resizes} resize, all done in ${c.allDoneMs} ms`,
  );
  const l = results.load;
  out.push(
    `Load on a hit (${l.path}, ${l.format}, ${l.connections} connections, ${l.seconds} s): ${l.requestsPerSecond} req/s, p50 ${l.latencyP50Ms} ms, p99 ${l.latencyP99Ms} ms, non-2xx ${l.non2xx}, errors ${l.errors}`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
}

// --- helpers ----------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
  } catch {
    return 'unknown';
  }
}
