/**
 * The JavaScript a server-rendered page makes the browser load: what the HTML itself loads, and
 * what it loads once its islands have hydrated (those on load, then at idle time, then those that
 * wait to be scrolled into view), counted as the server sends it to a browser that accepts
 * brotli (decision 160). One computation for the home page benchmark (`bench/home.ts`) and the
 * budget check of `npm test` (`tests/e2e/js-budget.spec.ts`); bench/README.md describes the rules.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

/**
 * JavaScript (bytes as transferred, 1 kB = 1000 bytes) each page type may load with every island
 * on it hydrated (decision 160). The shop's home page has a budget of its own: its product
 * carousels carry the shop's buy control.
 */
export const PAGE_JS_BUDGETS = {
  home: 80_000,
  product: 80_000,
  recipe: 80_000,
  search: 80_000,
  'shop-home': 90_000,
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

export type Phase = 'before' | 'load' | 'idle' | 'visible';

export interface JsFile {
  url: string;
  rawBytes: number;
  /** The file gzipped at level 9: the measure of the figures before decision 160. */
  gzipBytes: number;
  /** The body's bytes as the server sent it to a browser that accepts brotli and gzip. */
  transferBytes: number;
  /** The answer's `Content-Encoding` (`br`, `gzip` or `identity`). */
  encoding: string;
  /** Why the page loads it: module script, modulepreload, island, runtime, texts, import of… */
  why: string;
  /** Loaded before any island asks for more. */
  beforeIslands: boolean;
  /**
   * First loaded by the page itself, or for the islands that hydrate on load, at idle time, or
   * when scrolled into view.
   */
  phase: Phase;
}

export interface JsTotal {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  transferBytes: number;
}

export interface PageIsland {
  name: string;
  hydrate: string;
  lang: string;
  /** The URL of the island's texts, which the client entry loads with it. */
  texts: string;
  /** The URLs of the modules of the island's code, which the client entry loads. */
  code: string[];
}

export interface PageJavaScript {
  beforeIslands: JsTotal;
  withLoadIslands: JsTotal;
  /** Also the islands that hydrate when the browser is idle (at the latest 2 s after load). */
  withIdleIslands: JsTotal;
  /** Every island on the page hydrated: also those that wait to be scrolled into view. */
  withAllIslands: JsTotal;
  islandsOnPage: PageIsland[];
  files: JsFile[];
}

/** An answer of the server under test; `encoding` is its `Content-Encoding`, when it has one. */
export interface FetchAnswer {
  status: number;
  body: Buffer;
  encoding?: string;
}

/** A GET of a path on the server under test; `host` sets the Host header (the site). */
export type Fetch = (urlPath: string, host?: string) => Promise<FetchAnswer>;

/** What a browser sends: the server answers with its precompressed brotli files. */
const BROWSER_ACCEPT_ENCODING = 'br, gzip, deflate';

/**
 * Plain GETs to a server at `origin`: no Accept-Encoding, so bodies arrive uncompressed; the
 * Host header (`host`) picks the site.
 */
export function plainGet(origin: string) {
  return (urlPath: string, host?: string, timeoutMs = 10_000): Promise<FetchAnswer> =>
    getFrom(origin, urlPath, host ? { host } : {}, timeoutMs);
}

/**
 * GETs as a browser makes them (`Accept-Encoding: br, gzip, deflate`): bodies arrive as the
 * server sends them, compressed, with their `Content-Encoding` in `encoding`.
 */
export function browserGet(origin: string) {
  return (urlPath: string, host?: string, timeoutMs = 10_000): Promise<FetchAnswer> =>
    getFrom(
      origin,
      urlPath,
      { ...(host ? { host } : {}), 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      timeoutMs,
    );
}

function getFrom(
  origin: string,
  urlPath: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<FetchAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${origin}${urlPath}`, { headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const encoding = res.headers['content-encoding'];
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          ...(encoding ? { encoding } : {}),
        });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${urlPath} timed out`)));
    req.on('error', reject);
  });
}

/** A body as the server sent it, decoded. */
function decoded(answer: FetchAnswer): Buffer {
  switch (answer.encoding ?? 'identity') {
    case 'br':
      return brotliDecompressSync(answer.body);
    case 'gzip':
      return gunzipSync(answer.body);
    case 'identity':
      return answer.body;
    default:
      throw new Error(`unexpected Content-Encoding ${answer.encoding}`);
  }
}

export function readManifest(clientDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}

/**
 * Fetches a page and computes its JavaScript:
 * - before any island asks for more: the HTML's `<script type="module">` and
 *   `<link rel="modulepreload">` files plus, recursively, their static imports;
 * - with the islands hydrated on load: the above plus, for every `k-island` with
 *   `data-hydrate="load"`, the island's code (the modules its element names in `data-code`), the
 *   hydration runtime the client entry imports dynamically (React, `react-dom/client`, island
 *   root), the island's texts (the module its element names in `data-texts`), and their static
 *   imports;
 * - with the idle islands too: the same for `data-hydrate="idle"` (hydrated when the browser is
 *   idle, at the latest 2 s after load, or at once when the visitor reaches for the island);
 * - with every island: the same for `data-hydrate="visible"` (hydrated when scrolled into view).
 * What an island loads only when it is used (a dialog's code when it opens) is not counted.
 * Each file is fetched from the server as a browser asks for it (`browserGet`: the server
 * answers with its precompressed brotli file) and counted by the bytes of the body it sent; a
 * file counts once. Gzip at level 9 of the decoded file is kept beside it, the measure of the
 * figures before decision 160.
 */
export async function measurePageJavaScript(options: {
  get: Fetch;
  host: string;
  path: string;
  manifest: Manifest;
}): Promise<PageJavaScript> {
  const { get, manifest } = options;
  const page = await get(options.path, options.host);
  if (page.status !== 200)
    throw new Error(`GET ${options.path} for ${options.host} answered ${page.status}`);
  const html = decoded(page).toString('utf8');
  const sizes = new Map<string, JsFile>();
  let phase: Phase = 'before';

  const fetchSized = async (url: string, why: string): Promise<void> => {
    if (sizes.has(url)) return;
    const res = await get(url);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
    const body = decoded(res);
    sizes.set(url, {
      url,
      rawBytes: body.length,
      gzipBytes: gzipSync(body, { level: 9 }).length,
      transferBytes: res.body.length,
      encoding: res.encoding ?? 'identity',
      why,
      beforeIslands: phase === 'before',
      phase,
    });
    // Statically imported chunks are fetched before the importing module runs.
    for (const spec of staticImports(body.toString('utf8'))) {
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
    texts: attr(tag, 'data-texts') ?? '',
    code: (attr(tag, 'data-code') ?? '')
      .split(' ')
      .filter((spec) => spec !== '')
      .map((spec) => spec.split('#')[0] ?? spec),
  }));
  const entry = manifest[CLIENT_ENTRY];
  if (!entry?.isEntry) throw new Error(`the manifest has no client entry (${CLIENT_ENTRY})`);
  // The islands' code and texts are named by their elements; what the entry imports itself is
  // the hydration runtime.
  const runtime = entry.dynamicImports ?? [];

  const seen = new Set<string>();
  const visit = async (key: string, why: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`"${key}" is missing from the manifest`);
    await fetchSized(`/assets/${path.posix.basename(chunk.file)}`, why);
    for (const dep of chunk.imports ?? []) await visit(dep, `import of ${chunk.name ?? key}`);
  };
  /** What hydrating these islands loads: runtime, texts, the islands' code. */
  const hydrate = async (islands: PageIsland[]) => {
    if (islands.length === 0) return;
    for (const key of runtime) await visit(key, 'hydration runtime');
    for (const island of islands) {
      if (!island.texts) throw new Error(`island "${island.name}" names no texts`);
      if (island.code.length === 0) throw new Error(`island "${island.name}" names no code`);
      await fetchSized(island.texts, `texts of ${island.name} (${island.lang})`);
      for (const url of island.code) await fetchSized(url, `island ${island.name}`);
    }
  };
  for (const when of ['load', 'idle', 'visible'] as const) {
    phase = when;
    await hydrate(islandsOnPage.filter((i) => i.hydrate === when));
  }
  const unknown = islandsOnPage.filter((i) => !['load', 'idle', 'visible'].includes(i.hydrate));
  if (unknown.length > 0)
    throw new Error(`islands with an unknown trigger: ${unknown.map((i) => i.name).join(', ')}`);

  const files = [...sizes.values()];
  const upTo = (last: Phase) => {
    const order: Phase[] = ['before', 'load', 'idle', 'visible'];
    return total(files.filter((f) => order.indexOf(f.phase) <= order.indexOf(last)));
  };
  return {
    beforeIslands: upTo('before'),
    withLoadIslands: upTo('load'),
    withIdleIslands: upTo('idle'),
    withAllIslands: upTo('visible'),
    islandsOnPage,
    files,
  };
}

/** The files the page loads with every island hydrated, largest (as transferred) first. */
export function largestFiles(js: PageJavaScript, count: number): JsFile[] {
  return [...js.files].sort((a, b) => b.transferBytes - a.transferBytes).slice(0, count);
}

export function kB(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

/** One line per file: as transferred, gzip -9, raw, URL, phase, why. */
export function describeFiles(files: JsFile[]): string[] {
  return files.map(
    (f) =>
      `${kB(f.transferBytes).padStart(6)} kB ${f.encoding}  ${kB(f.gzipBytes).padStart(6)} kB gzip  ${kB(f.rawBytes).padStart(7)} kB raw  ${f.url}  (${f.phase}: ${f.why})`,
  );
}

function total(files: JsFile[]): JsTotal {
  return {
    files: files.length,
    rawBytes: files.reduce((n, f) => n + f.rawBytes, 0),
    gzipBytes: files.reduce((n, f) => n + f.gzipBytes, 0),
    transferBytes: files.reduce((n, f) => n + f.transferBytes, 0),
  };
}

/** Static `import … from"./x.js"` and `import"./x.js"`; `import(` is dynamic and left out. */
function staticImports(code: string): string[] {
  const specs = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*(["'])(\.{1,2}\/[^"'\s]+?\.js)\1/g))
    if (m[2]) specs.add(m[2]);
  return [...specs];
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
 * more than one site (the corporate site, brand sites, the shop), in their sites' languages; the
 * shop's home page, a page type of its own, is on the shop only.
 */
export const BUDGET_PAGES: readonly { type: PageType; site: string; path: string }[] = [
  { type: 'home', site: 'konsernifi', path: '/' },
  { type: 'home', site: 'koncernse', path: '/' },
  { type: 'home', site: 'jyvabroiler', path: '/' },
  { type: 'home', site: 'sibylla', path: '/' },
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
  { type: 'shop-home', site: 'lihakauppa', path: '/' },
];
