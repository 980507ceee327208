import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { getSite } from '../../sites/registry.ts';
import type { Lang } from '../../sites/types.ts';
import {
  isRelevant,
  type JudgedCase,
  judgedCases,
  SITES_BY_LANG,
} from './judged-subjects.test-support.ts';
import { searchLanguageOf, searchResultSchema } from './schemas.ts';

/**
 * Runs the grown judged set (judged-subjects.test-support.ts) against an app on seeded content:
 * each query on every site of its language where the subject exists (some document's title
 * contains one of its forms, asked of the table directly, not of the search), through the site
 * search (`/api/search/content/`, five hits) and the quick suggestions (`/api/search/suggestions/`,
 * five hits). Used by `judged-subjects.test.ts` and `bench/search.ts`.
 */
export interface JudgedOutcome extends JudgedCase {
  site: string;
  success: boolean;
  suggestionSuccess: boolean;
  total: number;
  matchedBy: string | undefined;
  top: string[];
}

export interface JudgedReport {
  outcomes: JudgedOutcome[];
  /** `site lang` → successes and queries. */
  bySiteLang: Map<string, SiteLangTally>;
  byKind: Map<string, { n: number; ok: number }>;
  success: number;
  suggestionSuccess: number;
  zero: JudgedOutcome[];
}

export async function judgedPairs(db: Database): Promise<{ site: string; case: JudgedCase }[]> {
  const pairs: { site: string; case: JudgedCase }[] = [];
  const exists = new Map<string, boolean>();
  for (const judged of judgedCases()) {
    for (const site of SITES_BY_LANG[judged.lang]) {
      const key = `${site}|${judged.lang}|${judged.match.join(',')}`;
      let found = exists.get(key);
      if (found === undefined) {
        const patterns = `{${judged.match.map((m) => `"%${m}%"`).join(',')}}`;
        const result = (await db.execute(sql`
          select exists (
            select 1 from search_documents
            where site_id = ${site} and lang = ${judged.lang} and lower(title) like any(${patterns}::text[])
          ) as found
        `)) as unknown as { rows: { found: boolean }[] };
        found = result.rows[0]?.found === true;
        exists.set(key, found);
      }
      if (found) pairs.push({ site, case: judged });
    }
  }
  return pairs;
}

/** A query on a site's search (`/api/search/content/`) and quick suggestions, five hits each. */
export async function searchAndSuggest(app: FastifyInstance, site: string, q: string, lang: Lang) {
  const params = new URLSearchParams({ q, language: searchLanguageOf(lang), pageSize: '5' });
  const ask = async (path: string) => {
    const response = await app.inject({
      method: 'GET',
      url: `${path}?${params}`,
      headers: { host: `${site}.localhost` },
    });
    if (response.statusCode !== 200)
      throw new Error(`${path} ${response.statusCode}: ${response.body}`);
    return searchResultSchema.parse(response.json());
  };
  return {
    result: await ask('/api/search/content/'),
    quick: await ask('/api/search/suggestions/'),
  };
}

export async function measureJudgedSet(app: FastifyInstance): Promise<JudgedReport> {
  const outcomes: JudgedOutcome[] = [];
  for (const { site: siteId, case: judged } of await judgedPairs(app.db)) {
    const site = getSite(siteId);
    if (!site) throw new Error(`unknown site ${siteId}`);
    const { result, quick } = await searchAndSuggest(app, siteId, judged.q, judged.lang);
    outcomes.push({
      ...judged,
      site: siteId,
      success: result.hits.some((hit) => isRelevant(hit, judged.match)),
      suggestionSuccess: quick.hits.some((hit) => isRelevant(hit, judged.match)),
      total: result.totalCount,
      matchedBy: result.matchedBy,
      top: result.hits.map((hit) => hit.title),
    });
  }
  return { outcomes, ...tallyOutcomes(outcomes) };
}

/** What a measured set's outcomes add up to: per site-language and kind, and overall. */
export function tallyOutcomes<
  O extends {
    site: string;
    lang: string;
    kind: string;
    success: boolean;
    suggestionSuccess: boolean;
    total: number;
  },
>(outcomes: readonly O[]) {
  const bySiteLang = new Map<string, SiteLangTally>();
  const byKind = new Map<string, { n: number; ok: number }>();
  for (const o of outcomes) {
    const key = `${o.site} ${o.lang}`;
    const s = bySiteLang.get(key) ?? { n: 0, ok: 0, suggestOk: 0, zero: 0 };
    s.n++;
    if (o.success) s.ok++;
    if (o.suggestionSuccess) s.suggestOk++;
    if (o.total === 0) s.zero++;
    bySiteLang.set(key, s);
    const k = byKind.get(`${o.lang} ${o.kind}`) ?? { n: 0, ok: 0 };
    k.n++;
    if (o.success) k.ok++;
    byKind.set(`${o.lang} ${o.kind}`, k);
  }
  return {
    bySiteLang,
    byKind,
    success: outcomes.filter((o) => o.success).length / outcomes.length,
    suggestionSuccess: outcomes.filter((o) => o.suggestionSuccess).length / outcomes.length,
    zero: outcomes.filter((o) => o.total === 0),
  };
}

export interface SiteLangTally {
  n: number;
  ok: number;
  suggestOk: number;
  zero: number;
}

/** The report as lines for the test log and the benchmark. */
export function reportLines(report: JudgedReport): string[] {
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`;
  const steps = new Map<string, number>();
  for (const o of report.outcomes)
    steps.set(o.matchedBy ?? 'none', (steps.get(o.matchedBy ?? 'none') ?? 0) + 1);
  return [
    `judged set: ${report.outcomes.length} queries on ${report.bySiteLang.size} site-languages`,
    `  success@5 ${(report.success * 100).toFixed(1)} %, suggestions@5 ${(report.suggestionSuccess * 100).toFixed(1)} %, zero results ${report.zero.length}`,
    `  answered by: ${[...steps].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    ...[...report.bySiteLang].map(
      ([key, s]) =>
        `  ${key}: ${s.ok}/${s.n} = ${pct(s.ok, s.n)} (suggestions ${pct(s.suggestOk, s.n)})`,
    ),
    ...[...report.byKind].map(([key, k]) => `  ${key}: ${k.ok}/${k.n}`),
    ...report.outcomes
      .filter((o) => !o.success || !o.suggestionSuccess)
      .map(
        (o) =>
          `  miss${o.success ? ' (suggestions)' : ''}: "${o.q}" on ${o.site} [${o.matchedBy ?? 'none'}] → ${o.top.join(' | ') || 'nothing'}`,
      ),
  ];
}

/** One measured query as the report lines name it. */
interface ReportedOutcome {
  q: string;
  kind: string;
  site: string;
  lang: string;
  success: boolean;
  suggestionSuccess: boolean;
  total: number;
  matchedBy: string | undefined;
  top: string[];
  suggestionTop: string[];
}

/**
 * The lines every judged set's report shares (the test log, bench/README.md): the overall rates,
 * which step answered, each site-language and kind, and every miss of the search and of the
 * suggestions. `heading` is the report's first line.
 */
export function judgedReportLines(
  heading: string,
  judged: readonly ReportedOutcome[],
  tally: ReturnType<typeof tallyOutcomes<ReportedOutcome>>,
): string[] {
  const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)} %`;
  const steps = new Map<string, number>();
  for (const o of judged)
    steps.set(o.matchedBy ?? 'none', (steps.get(o.matchedBy ?? 'none') ?? 0) + 1);
  return [
    heading,
    `  success@5 ${pct(tally.success, 1)}, suggestions@5 ${pct(tally.suggestionSuccess, 1)}, zero results ${tally.zero.length}`,
    `  answered by: ${[...steps].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    ...[...tally.bySiteLang].map(
      ([key, s]) =>
        `  ${key}: ${s.ok}/${s.n} = ${pct(s.ok, s.n)} (suggestions ${s.suggestOk}/${s.n} = ${pct(s.suggestOk, s.n)}, zero ${s.zero})`,
    ),
    ...[...tally.byKind].map(([key, k]) => `  ${key}: ${k.ok}/${k.n} = ${pct(k.ok, k.n)}`),
    ...judged
      .filter((o) => !o.success)
      .map(
        (o) =>
          `  miss: "${o.q}" [${o.kind}] on ${o.site} ${o.lang} [${o.matchedBy ?? 'none'}, ${o.total}] → ${o.top.join(' | ') || 'nothing'}`,
      ),
    ...judged
      .filter((o) => !o.suggestionSuccess)
      .map(
        (o) =>
          `  suggestion miss: "${o.q}" [${o.kind}] on ${o.site} ${o.lang} → ${o.suggestionTop.join(' | ') || 'nothing'}`,
      ),
  ];
}
