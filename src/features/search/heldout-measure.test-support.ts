import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import { getSite } from '../../sites/registry.ts';
import type { Lang } from '../../sites/types.ts';
import { type HeldOutQuery, heldOutQueries } from './heldout-queries.test-support.ts';
import {
  judgedReportLines,
  type SiteLangTally,
  searchAndSuggest,
  tallyOutcomes,
} from './judged-measure.test-support.ts';
import type { SearchHit } from './schemas.ts';

/**
 * Measures the held-out judged set (heldout-queries.test-support.ts) against an app on seeded
 * content. Each query is asked on its own site and language through the site search
 * (`/api/search/content/`, five hits) and the quick suggestions (`/api/search/suggestions/`, five
 * hits). Relevance and existence follow the rule written with the queries: a product or recipe
 * whose lower-cased title contains one of the subject forms; whether a subject exists is asked of
 * the products and recipes tables directly, never of the search.
 */
export interface HeldOutOutcome extends HeldOutQuery {
  /** Some product name or recipe title of the site and language contains a subject form. */
  exists: boolean;
  success: boolean;
  suggestionSuccess: boolean;
  total: number;
  matchedBy: string | undefined;
  top: string[];
  suggestionTop: string[];
}

export interface HeldOutReport {
  outcomes: HeldOutOutcome[];
  /** The judged ones: not marked absent. */
  judged: HeldOutOutcome[];
  /** `site lang` → judged queries, successes, suggestion successes, zero results. */
  bySiteLang: Map<string, SiteLangTally>;
  byKind: Map<string, { n: number; ok: number }>;
  success: number;
  suggestionSuccess: number;
  /** Judged queries (their subject exists) that found nothing at all. */
  zero: HeldOutOutcome[];
  /** The marks disagree with the catalogue: absent but found in the tables, or judged but not. */
  wrongMarks: HeldOutOutcome[];
}

/** The relevance rule of the held-out set. */
export function isHeldOutRelevant(
  hit: Pick<SearchHit, 'title' | 'type'>,
  subject: readonly string[],
) {
  if (hit.type !== 'recipe' && !hit.type.endsWith('-product')) return false;
  const title = hit.title.toLowerCase();
  return subject.some((s) => title.includes(s.toLowerCase()));
}

export async function subjectExists(
  db: Database,
  site: string,
  lang: Lang,
  subject: readonly string[],
) {
  const patterns = `{${subject.map((s) => `"%${s.toLowerCase()}%"`).join(',')}}`;
  const result = (await db.execute(sql`
    select (
      exists (select 1 from products where site_id = ${site} and lang = ${lang}
              and lower(name) like any(${patterns}::text[]))
      or exists (select 1 from recipes where site_id = ${site} and lang = ${lang}
              and lower(title) like any(${patterns}::text[]))
    ) as found
  `)) as unknown as { rows: { found: boolean }[] };
  return result.rows[0]?.found === true;
}

export async function measureHeldOutSet(
  app: FastifyInstance,
  queries: readonly HeldOutQuery[] = heldOutQueries,
): Promise<HeldOutReport> {
  const outcomes: HeldOutOutcome[] = [];
  for (const held of queries) {
    if (!getSite(held.site)) throw new Error(`unknown site ${held.site}`);
    const { result, quick } = await searchAndSuggest(app, held.site, held.q, held.lang);
    outcomes.push({
      ...held,
      exists: await subjectExists(app.db, held.site, held.lang, held.subject),
      success: result.hits.some((hit) => isHeldOutRelevant(hit, held.subject)),
      suggestionSuccess: quick.hits.some((hit) => isHeldOutRelevant(hit, held.subject)),
      total: result.totalCount,
      matchedBy: result.matchedBy,
      top: result.hits.map((hit) => `${hit.title} (${hit.type})`),
      suggestionTop: quick.hits.map((hit) => `${hit.title} (${hit.type})`),
    });
  }
  const judged = outcomes.filter((o) => !o.absent);
  return {
    outcomes,
    judged,
    ...tallyOutcomes(judged),
    wrongMarks: outcomes.filter((o) => o.exists === Boolean(o.absent)),
  };
}

/** The report as lines for the test log and bench/README.md. */
export function heldOutReportLines(report: HeldOutReport): string[] {
  const absent = report.outcomes.filter((o) => o.absent);
  return [
    ...judgedReportLines(
      `held-out set: ${report.judged.length} judged queries on ${report.bySiteLang.size} site-languages (+ ${absent.length} with an absent subject)`,
      report.judged,
      report,
    ),
    ...absent.map(
      (o) =>
        `  absent: "${o.q}" on ${o.site} ${o.lang} [${o.matchedBy ?? 'none'}, ${o.total}] → ${o.top.join(' | ') || 'nothing'}`,
    ),
    ...report.wrongMarks.map(
      (o) =>
        `  wrong mark: "${o.q}" on ${o.site} ${o.lang} (${o.absent ? 'absent but found' : 'judged but not in the catalogue'})`,
    ),
  ];
}
