/**
 * The JavaScript a server-rendered page makes the browser load, gzipped: what the HTML itself
 * loads, and what it loads once every island that hydrates on load has hydrated. One computation
 * for the home page benchmark (`bench/home.ts`) and the budget check of `npm test`
 * (`tests/e2e/js-budget.spec.ts`); bench/README.md describes the rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Gzipped JavaScript (level 9, 1 kB = 1000 bytes) each page type may load with its load-time islands hydrated. */
export const PAGE_JS_BUDGETS = {
  home: 80_000,
  product: 80_000,
  recipe: 80_000,
  search: 80_000,
} as const;
export type PageType = keyof typeof PAGE_JS_BUDGETS;

const CLIENT_ENTRY = 'src/app/client-entry.ts';

export interface ManifestChunk {
  file: string;
  name?: string;
  src?: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

export interface JsFile {
  url: string;
  rawBytes: number;
  gzipBytes: number;
  /** Why the page loads it: module script, modulepreload, island, runtime, catalogue, import of… */
  why: string;
  /** Loaded before any island asks for more. */
  beforeIslands: boolean;
  /** First loaded by the page itself, for the load-time islands, or for the idle-time islands. */
  phase: 'before' | 'load' | 'idle';
}

export interface JsTotal {
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

export interface PageIsland {
  name: string;
  hydrate: string;
  lang: string;
}

export interface PageJavaScript {
  beforeIslands: JsTotal;
  withLoadIslands: JsTotal;
  /** Also the islands that hydrate when the browser is idle (at the latest 2 s after load). */
  withIdleIslands: JsTotal;
  islandsOnPage: PageIsland[];
  files: JsFile[];
}

/** A GET of a path on the server under test; `host` sets the Host header (the site). */
export type Fetch = (urlPath: string, host?: string) => Promise<{ status: number; body: Buffer }>;

/**
 * Plain GETs to a server at `origin`: no Accept-Encoding, so bodies arrive uncompressed; the
 * Host header (`host`) picks the site.
 */
export function plainGet(origin: string) {
  return (
    urlPath: string,
    host?: string,
    timeoutMs = 10_000,
  ): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const req = http.get(
        `${origin}${urlPath}`,
        { headers: host ? { host } : {}, timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`GET ${urlPath} timed out`)));
      req.on('error', reject);
    });
}

export function readManifest(clientDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/**
 * Fetches a page and computes its JavaScript:
 * - before any island asks for more: the HTML's `<script type="module">` and
 *   `<link rel="modulepreload">` files plus, recursively, their static imports;
 * - with the islands hydrated on load: the above plus, for every `k-island` with
 *   `data-hydrate="load"`, the island's chunk(s), the hydration runtime the client entry imports
 *   dynamically (React, `react-dom/client`, island root, …), the page language's catalogue, and
 *   their static imports from the Vite manifest;
 * - with the idle islands too: the same for `data-hydrate="idle"` (hydrated when the browser is
 *   idle, at the latest 2 s after load, or at once when the visitor reaches for the island).
 *   Islands that wait until they are scrolled into view are not counted.
 * Each file is fetched from the server and gzipped at level 9; a file counts once.
 */
export async function measurePageJavaScript(options: {
  get: Fetch;
  host: string;
  path: string;
  manifest: Manifest;
  /** The repository root: the islands' registries are read from `src/`. */
  root: string;
}): Promise<PageJavaScript> {
  const { get, manifest } = options;
  const page = await get(options.path, options.host);
  if (page.status !== 200)
    throw new Error(`GET ${options.path} for ${options.host} answered ${page.status}`);
  const html = page.body.toString('utf8');
  const sizes = new Map<string, JsFile>();
  let phase: JsFile['phase'] = 'before';

  const fetchSized = async (url: string, why: string): Promise<void> => {
    if (sizes.has(url)) return;
    const res = await get(url);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    sizes.set(url, {
      url,
      rawBytes: res.body.length,
      gzipBytes: gzipSync(res.body, { level: 9 }).length,
      why,
      beforeIslands: phase === 'before',
      phase,
    });
    // Statically imported chunks are fetched before the importing module runs.
    for (const spec of staticImports(res.body.toString('utf8'))) {
      const dep = new URL(spec, `http://page${url}`).pathname;
      await fetchSized(dep, `static import of ${path.posix.basename(url)}`);
    }
  };

  // Before any island: what the HTML itself loads, and what that statically imports.
  const scripts = attributeValues(html, 'script', 'src', (tag) => /type="module"/.test(tag));
  const preloads = attributeValues(html, 'link', 'href', (tag) => /rel="modulepreload"/.test(tag));
  for (const url of scripts) await fetchSized(url, 'module script');
  for (const url of preloads) await fetchSized(url, 'modulepreload');

  const islandsOnPage = [...html.matchAll(/<k-island\b[^>]*>/g)].map(({ 0: tag }) => ({
    name: attr(tag, 'data-name') ?? '',
    hydrate: attr(tag, 'data-hydrate') ?? 'load',
    lang: attr(tag, 'data-lang') ?? 'fi',
  }));
  const registry = islandRegistry(manifest, options.root);
  const entry = manifest[CLIENT_ENTRY];
  if (!entry?.isEntry) throw new Error(`the manifest has no client entry (${CLIENT_ENTRY})`);
  const isCatalogue = (key: string) =>
    /^src\/i18n\/[a-z]{2}\.ts$/.test(key) || key.startsWith('virtual:catalogue/');
  // Islands are widgets in src/features/; what else the entry imports dynamically is runtime.
  const runtime = (entry.dynamicImports ?? []).filter(
    (key) => !isCatalogue(key) && !registry.keys.has(key) && !key.startsWith('src/features/'),
  );

  const seen = new Set<string>();
  const visit = async (key: string, why: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`"${key}" is missing from the manifest`);
    await fetchSized(`/assets/${path.posix.basename(chunk.file)}`, why);
    for (const dep of chunk.imports ?? []) await visit(dep, `import of ${chunk.name ?? key}`);
  };
  /** What hydrating these islands loads: runtime, catalogues, the islands' chunks. */
  const hydrate = async (islands: PageIsland[]) => {
    const wanted: { key: string; why: string }[] = [];
    if (islands.length > 0) {
      for (const key of runtime) wanted.push({ key, why: 'hydration runtime' });
      for (const island of islands)
        wanted.push({
          key: registry.catalogue(island.lang, island.name),
          why: `catalogue (${island.lang})`,
        });
    }
    for (const island of new Set(islands.map((i) => i.name))) {
      const keys = registry.byName.get(island);
      if (!keys) throw new Error(`island "${island}" has no chunk in the manifest`);
      for (const key of keys) wanted.push({ key, why: `island ${island}` });
    }
    for (const { key, why } of wanted) await visit(key, why);
  };
  phase = 'load';
  await hydrate(islandsOnPage.filter((i) => i.hydrate === 'load'));
  phase = 'idle';
  await hydrate(islandsOnPage.filter((i) => i.hydrate === 'idle'));

  const files = [...sizes.values()];
  return {
    beforeIslands: total(files.filter((f) => f.phase === 'before')),
    withLoadIslands: total(files.filter((f) => f.phase !== 'idle')),
    withIdleIslands: total(files),
    islandsOnPage,
    files,
  };
}

/** The files the page loads with its load-time islands hydrated, largest (gzipped) first. */
export function largestFiles(js: PageJavaScript, count: number): JsFile[] {
  return js.files
    .filter((f) => f.phase !== 'idle')
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .slice(0, count);
}

export function kB(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

/** One line per file: gzip, raw, URL, why. */
export function describeFiles(files: JsFile[]): string[] {
  return files.map(
    (f) =>
      `${kB(f.gzipBytes).padStart(6)} kB  ${kB(f.rawBytes).padStart(7)} kB raw  ${f.url}  (${f.why})`,
  );
}

function total(files: JsFile[]): JsTotal {
  return {
    files: files.length,
    rawBytes: files.reduce((n, f) => n + f.rawBytes, 0),
    gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0),
  };
}

/** Static `import … from"./x.js"` and `import"./x.js"`; `import(` is dynamic and left out. */
function staticImports(code: string): string[] {
  const specs = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*(["'])(\.{1,2}\/[^"'\s]+?\.js)\1/g))
    if (m[2]) specs.add(m[2]);
  return [...specs];
}

const ISLAND_OBJECT = /['"]([\w-]+)['"]\s*:\s*\{([^{}]*)\}/g;
const CATALOGUE_PART_IMPORT = /import\(\s*['"](virtual:catalogue\/(\w+)\/[^'"]+)['"]/g;
const LAZY_IMPORT = /['"]?([\w-]+)['"]?\s*:\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]\s*\)/g;
/** `'name': () => Promise.all([a.part(), b.part()])` in the app's registry: an island of parts. */
const JOINED = /['"]([\w-]+)['"]\s*:\s*\(\)\s*=>\s*Promise\.all\(\s*\[([^\]]*)\]/g;

/**
 * Island name → manifest keys of its chunks, from the features' tables of lazy imports
 * (`islands.ts` in each feature folder) and the islands the app joins from two features' parts
 * (`src/app/islands.ts`); and a language → the manifest keys of its catalogue.
 */
function islandRegistry(manifest: Manifest, root: string) {
  const byName = new Map<string, string[]>();
  const parts = new Map<string, string>();
  const entry = Object.values(manifest).find((c) => c.isEntry && c.src === CLIENT_ENTRY);
  /**
   * A module's chunk. A module that is imported both lazily and statically is merged into a
   * shared chunk (`_<module name>-<hash>.js` in the manifest, without its source path), which
   * the entry then imports lazily by that key.
   */
  const chunkOf = (key: string): string | undefined => {
    if (manifest[key]) return key;
    const name = path.posix.basename(key).replace(/\.[jt]sx?$/, '');
    return entry?.dynamicImports?.find((k) => k.startsWith('_') && manifest[k]?.name === name);
  };
  const featuresDir = path.join(root, 'src/features');
  for (const feature of existsSync(featuresDir) ? readdirSync(featuresDir) : []) {
    const registryFile = path.join(featuresDir, feature, 'islands.ts');
    if (!existsSync(registryFile)) continue;
    for (const [, name, spec] of readFileSync(registryFile, 'utf8').matchAll(LAZY_IMPORT)) {
      if (!name || !spec) continue;
      const key = chunkOf(path.posix.join('src/features', feature, spec));
      if (!key) continue;
      byName.set(name, [key]);
      parts.set(name, key);
    }
  }
  const appRegistry = path.join(root, 'src/app/islands.ts');
  if (existsSync(appRegistry)) {
    for (const [, name, calls] of readFileSync(appRegistry, 'utf8').matchAll(JOINED)) {
      if (!name || !calls) continue;
      const keys = [...calls.matchAll(/\.(\w+)\(\)/g)].map((m) => parts.get(m[1] ?? ''));
      if (keys.length > 0 && keys.every((k) => k !== undefined)) byName.set(name, keys);
    }
  }
  const keys = new Set([...byName.values()].flat());
  // Islands that load only part of the catalogue (`catalogueParts` in the client entry).
  const catalogueParts = new Map<string, string>();
  const entrySource = path.join(root, CLIENT_ENTRY);
  if (existsSync(entrySource)) {
    for (const [, island, body] of readFileSync(entrySource, 'utf8').matchAll(ISLAND_OBJECT)) {
      for (const [, id, lang] of body?.matchAll(CATALOGUE_PART_IMPORT) ?? [])
        if (island && id && lang) catalogueParts.set(`${island} ${lang}`, id);
    }
  }
  /** The catalogue module an island loads for a language: its part, or the whole catalogue. */
  const catalogue = (lang: string, island: string) => {
    const key = catalogueParts.get(`${island} ${lang}`) ?? `src/i18n/${lang}.ts`;
    if (!manifest[key]) throw new Error(`the catalogue ${key} is missing from the manifest`);
    return key;
  };
  return { byName, keys, catalogue };
}

function attributeValues(
  html: string,
  tagName: string,
  attribute: string,
  accept: (tag: string) => boolean,
): string[] {
  const tags = html.matchAll(new RegExp(`<${tagName}\\b[^>]*>`, 'g'));
  return [...tags]
    .map((m) => m[0])
    .filter(accept)
    .map((tag) => attr(tag, attribute))
    .filter((v): v is string => typeof v === 'string');
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
}

/**
 * The pages the budget check measures: real pages of the seeded demo content, each page type on
 * more than one site (the corporate site, brand sites, the shop), in their sites' languages.
 */
export const BUDGET_PAGES: readonly { type: PageType; site: string; path: string }[] = [
  { type: 'home', site: 'konsernifi', path: '/' },
  { type: 'home', site: 'koncernse', path: '/' },
  { type: 'home', site: 'jyvabroiler', path: '/' },
  { type: 'home', site: 'sibylla', path: '/' },
  { type: 'home', site: 'lihakauppa', path: '/' },
  {
    type: 'product',
    site: 'lihakauppa',
    path: '/tuotteet/broileri/broilerin-fileekuutiot-chilimarinoitu-400-g',
  },
  {
    type: 'product',
    site: 'jyvabroiler',
    path: '/tuotteet/broileri/broilerikebab-yrttimarinoitu-300-g',
  },
  {
    type: 'product',
    site: 'mestariforsmanfi',
    path: '/tuotteet/kinkut/keittokinkku-pippuri-300-g',
  },
  { type: 'recipe', site: 'jyvabroiler', path: '/reseptit/keitot/kanakeitto' },
  { type: 'recipe', site: 'lihakauppa', path: '/reseptit/pastat/pekonipasta' },
  { type: 'recipe', site: 'mestariforsmanfi', path: '/reseptit/grilliruoat/mummon-grillikylki' },
  { type: 'search', site: 'sibylla', path: '/haku?q=kana' },
  { type: 'search', site: 'konsernifi', path: '/haku' },
  { type: 'search', site: 'lihakauppa', path: '/haku?q=kinkku' },
];
