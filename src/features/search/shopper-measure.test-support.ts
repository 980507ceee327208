import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { getSite } from '../../sites/registry.ts';
import {
  judgedReportLines,
  type SiteLangTally,
  searchAndSuggest,
  tallyOutcomes,
} from './judged-measure.test-support.ts';
import type { SearchHit } from './schemas.ts';
import {
  type ShopperQuery,
  shopperQueries,
  titleSatisfies,
} from './shopper-queries.test-support.ts';

/**
 * Measures the shopper judged set (shopper-queries.test-support.ts) against an app on seeded
 * content: each query on its own site and language through the site search
 * (`/api/search/content/`, five hits) and the quick suggestions (`/api/search/suggestions/`, five
 * hits). A hit is relevant by the rule written with the queries; whether a relevant title exists
 * is asked of the products and recipes tables, never of the search.
 */
export interface ShopperOutcome extends ShopperQuery {
  exists: boolean;
  success: boolean;
  suggestionSuccess: boolean;
  total: number;
  matchedBy: string | undefined;
  top: string[];
  suggestionTop: string[];
}

export interface ShopperReport {
  outcomes: ShopperOutcome[];
  bySiteLang: Map<string, SiteLangTally>;
  byKind: Map<string, { n: number; ok: number }>;
  success: number;
  suggestionSuccess: number;
  zero: ShopperOutcome[];
  /** Queries whose subject no product or recipe title of their site and language holds. */
  wrongMarks: ShopperOutcome[];
}

/** The relevance rule of the shopper set. */
export function isShopperRelevant(
  hit: Pick<SearchHit, 'title' | 'type'>,
  subject: readonly string[],
): boolean {
  if (hit.type !== 'recipe' && !hit.type.endsWith('-product')) return false;
  return subject.some((alternative) => titleSatisfies(hit.title, alternative));
}

export async function measureShopperSet(
  app: FastifyInstance,
  queries: readonly ShopperQuery[] = shopperQueries,
): Promise<ShopperReport> {
  const titles = new Map<string, string[]>();
  const titlesOf = async (site: string, lang: string) => {
    const key = `${site} ${lang}`;
    let list = titles.get(key);
    if (!list) {
      const result = (await app.db.execute(sql`
        select name as title from products where site_id = ${site} and lang = ${lang}
        union all
        select title from recipes where site_id = ${site} and lang = ${lang}
      `)) as unknown as { rows: { title: string }[] };
      list = result.rows.map((r) => r.title);
      titles.set(key, list);
    }
    return list;
  };
  const outcomes: ShopperOutcome[] = [];
  for (const query of queries) {
    if (!getSite(query.site)) throw new Error(`unknown site ${query.site}`);
    const { result, quick } = await searchAndSuggest(app, query.site, query.q, query.lang);
    const catalogue = await titlesOf(query.site, query.lang);
    outcomes.push({
      ...query,
      exists: catalogue.some((title) =>
        query.subject.some((alternative) => titleSatisfies(title, alternative)),
      ),
      success: result.hits.some((hit) => isShopperRelevant(hit, query.subject)),
      suggestionSuccess: quick.hits.some((hit) => isShopperRelevant(hit, query.subject)),
      total: result.totalCount,
      matchedBy: result.matchedBy,
      top: result.hits.map((hit) => hit.title),
      suggestionTop: quick.hits.map((hit) => hit.title),
    });
  }
  return {
    outcomes,
    ...tallyOutcomes(outcomes),
    wrongMarks: outcomes.filter((o) => !o.exists),
  };
}

/** The report as lines for the test log, bench/README.md and the decision. */
export function shopperReportLines(report: ShopperReport): string[] {
  return [
    ...judgedReportLines(
      `shopper set: ${report.outcomes.length} queries on ${report.bySiteLang.size} site-languages`,
      report.outcomes,
      report,
    ),
    ...report.wrongMarks.map(
      (o) =>
        `  wrong mark: "${o.q}" on ${o.site} ${o.lang} (no title holds ${o.subject.join(' / ')})`,
    ),
  ];
}
