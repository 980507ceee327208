/**
 * Search benchmark: server-side time of quick suggestions and of full searches with facet counts,
 * on the demo content and on the `--scale 100000` content. One process: the app is built
 * in-process on a fresh embedded database (PGlite) in a temporary folder, seeded in-process, and
 * asked through `app.inject`; the figure per request is Fastify's own `reply.elapsedTime` (from
 * the request's arrival to the end of the answer, routing, validation, SQL and serialisation
 * included). Prints Markdown tables, writes JSON to `bench/results/search-<timestamp>.json`.
 *
 *   npx tsx bench/search.ts            # both data sets
 *   npx tsx bench/search.ts --quick    # demo content only
 *   DATABASE_URL=postgres://… npx tsx bench/search.ts   # on PostgreSQL: a database of its own
 *     is created on that server (pool of 10) and dropped at the end
 */
import type { FastifyInstance } from 'fastify';
import {
  benchApp,
  benchDatabase,
  gitCommit,
  machine,
  recordElapsed,
  runBench,
  startWatchdog,
  writeResults,
} from './support.ts';

const { seed } = await import('../seed/seed.ts');
const { analyzeSearchIfStale } = await import('../src/features/search/statistics.server.ts');
const { judgedQueries } = await import('../src/features/search/judged-queries.test-support.ts');
const { judgedPairs, measureJudgedSet, reportLines } = await import(
  '../src/features/search/judged-measure.test-support.ts'
);
const { analyserName } = await import('../src/features/search/analysis/analyser.server.ts');
const { baseFormsOf } = await import('../src/features/search/base-forms.server.ts');
const { vocabularyOf } = await import('../src/features/search/typo-vocabulary.server.ts');
const { searchLanguageOf } = await import('../src/features/search/schemas.ts');

/** Rounds over the whole query mix after one discarded warm-up round. */
const ROUNDS = 3;
const GOALS = { suggestions: 20, search: 40 };

const watchdog = startWatchdog(30);

interface Request {
  kind: 'suggestions' | 'search';
  url: string;
  host: string;
}

/**
 * The query mix. Suggestions: what the quick search sends while a visitor types each judged
 * query (its first 3 and 5 letters and the whole query). Full searches with facets: each judged
 * query on the product search (products and their facets), the recipe search where the site has
 * recipes, the newsroom on the corporate sites, and the product search again with one facet tag
 * selected.
 */
function queryMix(
  facetTagBySite: Map<string, number>,
  grown: readonly { site: string; q: string; lang: 'fi' | 'sv' | 'en' }[],
): Request[] {
  const requests: Request[] = [];
  // The grown judged set of issue 17: each query as a suggestion and as a full search.
  for (const g of grown) {
    const host = `${g.site}.localhost`;
    const base = new URLSearchParams({ q: g.q, language: searchLanguageOf(g.lang) });
    requests.push({ kind: 'suggestions', host, url: `/api/search/suggestions/?${base}` });
    const corporate = g.site.startsWith('kons') || g.site.startsWith('konc');
    requests.push({
      kind: 'search',
      host,
      url: `/api/search/${corporate ? 'newsroom' : 'products'}?${base}`,
    });
  }
  const recipeSites = new Set([
    'jyvabroiler',
    'mestariforsmanfi',
    'ammattilaiset',
    'lithellsse',
    'delise',
    'foodservicese',
    'sibylla',
    'lihakauppa',
    'lonnebergase',
    'ridderheimsse',
    'goohse',
  ]);
  for (const j of judgedQueries) {
    const host = `${j.site}.localhost`;
    const language = searchLanguageOf(j.lang);
    const typed = [...new Set([j.q.slice(0, 3), j.q.slice(0, 5), j.q])].filter(
      (s) => s.length >= 3,
    );
    for (const q of typed) {
      requests.push({
        kind: 'suggestions',
        host,
        url: `/api/search/suggestions/?${new URLSearchParams({ q, language })}`,
      });
    }
    const base = new URLSearchParams({ q: j.q, language });
    if (j.site.startsWith('kons') || j.site.startsWith('konc')) {
      requests.push({ kind: 'search', host, url: `/api/search/newsroom?${base}` });
      continue;
    }
    requests.push({ kind: 'search', host, url: `/api/search/products?${base}` });
    if (recipeSites.has(j.site))
      requests.push({ kind: 'search', host, url: `/api/search/recipes?${base}` });
    const tag = facetTagBySite.get(`${j.site}:${j.lang}`);
    if (tag) {
      requests.push({ kind: 'search', host, url: `/api/search/products?${base}&facetTags=${tag}` });
    }
  }
  return requests;
}

interface Figures {
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

interface DataSet {
  name: string;
  documents: number;
  seedSeconds: number;
  suggestions: Figures;
  search: Figures;
  /** The process's CPU time per request (user + system): less sensitive to a busy machine. */
  suggestionsCpu: Figures;
  searchCpu: Figures;
  slowest: { url: string; host: string; ms: number }[];
  /** Size of the search table with its indexes (MB). */
  indexMegabytes: number;
  /** Building the title vocabularies and their base-form indexes for every site and language. */
  lemmaIndexMs: number;
  lemmaIndexKeys: number;
  /** The grown judged set's quality (demo content only). */
  quality?: string[];
}

let bench: Awaited<ReturnType<typeof benchApp>> | undefined;
let database: Awaited<ReturnType<typeof benchDatabase>> | undefined;
await runBench(watchdog, async () => {
  // The embedded database (PGlite) unless DATABASE_URL names a PostgreSQL server. Every request
  // comes from this one process: no per-client limit applies.
  if (process.env.DATABASE_URL) database = await benchDatabase('search');
  bench = await benchApp('search', database?.url, { SEARCH_RATE_LIMIT: '1000000' });
  const app = bench.app;
  const elapsed = recordElapsed(app);
  await app.ready();

  const sets: DataSet[] = [];
  const quick = process.argv.includes('--quick');
  for (const scale of quick ? [undefined] : [undefined, 100_000]) {
    sets.push(await measure(app, elapsed, scale));
  }
  const results = {
    date: new Date().toISOString(),
    engine: database ? 'PostgreSQL' : 'PGlite',
    analyser: analyserName(),
    machine: machine(),
    commit: gitCommit(),
    rounds: ROUNDS,
    goals: GOALS,
    sets,
  };
  printReport(results.sets);
  writeResults('search', results);
}, [() => bench?.cleanUp(), () => database?.drop()]);

async function measure(
  app: FastifyInstance,
  elapsed: number[],
  scale: number | undefined,
): Promise<DataSet> {
  const started = performance.now();
  const seeded = await seed(
    { db: app.db, files: app.files },
    { imagesPerKind: 1, ...(scale ? { scale } : {}) },
  );
  const seedSeconds = (performance.now() - started) / 1000;
  await analyzeSearchIfStale(app.db);
  const name = scale ? `scale ${scale.toLocaleString('en')}` : 'demo content';
  process.stdout.write(
    `${name}: ${seeded.searchable} documents seeded in ${seedSeconds.toFixed(1)} s\n`,
  );

  const tags = (await app.db.execute(
    (
      await import('drizzle-orm')
    ).sql`
      select c.site_id || ':' || c.lang as key, min(t.id) as tag
      from facet_categories c join facet_tags t on t.category_id = c.id
      where c.scope = 'products' group by 1`,
  )) as unknown as { rows: { key: string; tag: number }[] };
  const sizes = (await app.db.execute(
    (
      await import('drizzle-orm')
    ).sql`
      select pg_total_relation_size('search_documents')::float8 / 1048576 as mb`,
  )) as unknown as { rows: { mb: number }[] };
  // Cold build of every site-language's title vocabulary and base-form index (decision 046).
  const scopes = (await app.db.execute(
    (
      await import('drizzle-orm')
    ).sql`select distinct site_id, lang from search_documents`,
  )) as unknown as { rows: { site_id: string; lang: 'fi' | 'sv' | 'en' }[] };
  const lemmaStarted = performance.now();
  let lemmaIndexKeys = 0;
  for (const scope of scopes.rows) {
    await baseFormsOf(app.db, scope.site_id, scope.lang, ['kinkun']);
    const vocabulary = await vocabularyOf(app.db, scope.site_id, scope.lang);
    lemmaIndexKeys += vocabulary.lemmas?.index.size ?? 0;
  }
  const lemmaIndexMs = performance.now() - lemmaStarted;
  const quality = scale ? undefined : reportLines(await measureJudgedSet(app));
  if (quality) process.stdout.write(`${quality.slice(0, 22).join('\n')}\n`);
  // Every fourth pair of the grown set (about 200) joins the timed mix, to keep a run short.
  const grown = (await judgedPairs(app.db))
    .filter((_, i) => i % 4 === 0)
    .map((p) => ({ site: p.site, ...p.case }));
  const mix = queryMix(new Map(tags.rows.map((r) => [r.key, Number(r.tag)])), grown);

  const times: Record<Request['kind'], number[]> = { suggestions: [], search: [] };
  const cpu: Record<Request['kind'], number[]> = { suggestions: [], search: [] };
  const perRequest: { url: string; host: string; ms: number }[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    for (const request of mix) {
      elapsed.length = 0;
      const cpuBefore = process.cpuUsage();
      const response = await app.inject({
        method: 'GET',
        url: request.url,
        headers: { host: request.host },
      });
      if (response.statusCode !== 200) {
        throw new Error(`${request.host}${request.url}: ${response.statusCode} ${response.body}`);
      }
      const cpuUsed = process.cpuUsage(cpuBefore);
      const ms = elapsed[0] ?? 0;
      if (round === 0) continue; // warm-up: caches, stems, plans
      times[request.kind].push(ms);
      cpu[request.kind].push((cpuUsed.user + cpuUsed.system) / 1000);
      perRequest.push({ ...request, ms });
    }
  }
  perRequest.sort((a, b) => b.ms - a.ms);
  return {
    name,
    documents: seeded.searchable,
    seedSeconds: round(seedSeconds, 1),
    suggestions: figures(times.suggestions),
    search: figures(times.search),
    suggestionsCpu: figures(cpu.suggestions),
    searchCpu: figures(cpu.search),
    slowest: perRequest.slice(0, 5).map((r) => ({ ...r, ms: round(r.ms, 1) })),
    indexMegabytes: round(Number(sizes.rows[0]?.mb ?? 0), 1),
    lemmaIndexMs: round(lemmaIndexMs, 0),
    lemmaIndexKeys,
    ...(quality ? { quality } : {}),
  };
}

function figures(values: number[]): Figures {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50: round(percentile(sorted, 50), 1),
    p95: round(percentile(sorted, 95), 1),
    p99: round(percentile(sorted, 99), 1),
    max: round(sorted.at(-1) ?? 0, 1),
    mean: round(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length), 1),
  };
}

function printReport(sets: DataSet[]) {
  const lines = [
    '',
    '| Data set | Documents | Call | Requests | p50 | p95 | p99 | max | Goal (p95) |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const s of sets) {
    for (const kind of ['suggestions', 'search'] as const) {
      const f = s[kind];
      const goal = GOALS[kind];
      const scaled = s.documents >= 100_000;
      lines.push(
        `| ${s.name} | ${s.documents.toLocaleString('en')} | ${kind === 'search' ? 'full search with facets' : 'suggestions'} | ${f.requests} | ${f.p50} ms | ${f.p95} ms | ${f.p99} ms | ${f.max} ms | ${scaled ? `${goal} ms: ${f.p95 <= goal ? 'met' : 'missed'}` : ''} |`,
      );
    }
  }
  lines.push(
    '',
    'CPU time of the process per request (user + system):',
    '',
    '| Data set | Call | p50 | p95 | p99 |',
    '| --- | --- | ---: | ---: | ---: |',
  );
  for (const s of sets) {
    for (const [label, f] of [
      ['suggestions', s.suggestionsCpu],
      ['full search with facets', s.searchCpu],
    ] as const) {
      lines.push(`| ${s.name} | ${label} | ${f.p50} ms | ${f.p95} ms | ${f.p99} ms |`);
    }
  }
  lines.push('', `Analyser: ${analyserName()}`, '');
  for (const s of sets) {
    lines.push(
      `- ${s.name}: seeded in ${s.seedSeconds} s, search table with indexes ${s.indexMegabytes} MB, base-form indexes of all site-languages built in ${s.lemmaIndexMs} ms (${s.lemmaIndexKeys} keys)`,
    );
  }
  for (const s of sets) {
    lines.push('', `Slowest on ${s.name}:`);
    for (const r of s.slowest) lines.push(`- ${r.ms} ms ${r.host}${r.url}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
