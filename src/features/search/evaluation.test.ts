import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../seed/seed.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { getSite } from '../../sites/registry.ts';
import { langPrefix } from '../../sites/resolve.ts';
import { judgedQueries } from './judged-queries.test-support.ts';
import { searchLanguageOf, searchResultSchema } from './schemas.ts';
import { analyzeSearchIfStale } from './statistics.server.ts';

/**
 * Search quality on the whole demo content: every judged query runs through the site search
 * (`/api/search/content/`, five hits, as the quick search shows them) on its own site and in its
 * language. A query succeeds when a relevant document is among the five. Pictures are capped at
 * one per kind so seeding stays quick; the texts and paths are those of the full seed.
 */
let t: TestApp;
let seedSeconds = 0;

beforeAll(async () => {
  t = await createTestApp();
  const started = performance.now();
  await seed({ db: t.app.db, files: t.app.files }, { imagesPerKind: 1 });
  await analyzeSearchIfStale(t.app.db);
  seedSeconds = (performance.now() - started) / 1000;
}, 180_000);

afterAll(async () => {
  await t?.close();
});

interface Outcome {
  q: string;
  site: string;
  kind: string;
  success: boolean;
  total: number;
  top: string[];
}

describe('search evaluation', () => {
  it('finds a relevant document in the top five for at least 90 % of the judged queries, and something for each', async () => {
    const outcomes: Outcome[] = [];
    for (const judged of judgedQueries) {
      const site = getSite(judged.site);
      if (!site) throw new Error(`unknown site ${judged.site}`);
      const prefix = langPrefix(site, judged.lang);
      const params = new URLSearchParams({
        q: judged.q,
        language: searchLanguageOf(judged.lang),
        pageSize: '5',
      });
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/search/content/?${params}`,
        headers: { host: `${judged.site}.localhost` },
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = searchResultSchema.parse(response.json());
      const relevant = new Set(judged.relevant.map((path) => `${prefix}${path}`));
      outcomes.push({
        q: judged.q,
        site: judged.site,
        kind: judged.kind,
        success: result.hits.some((hit) => relevant.has(hit.url)),
        total: result.totalCount,
        top: result.hits.map((hit) => hit.title),
      });
    }

    const successes = outcomes.filter((o) => o.success).length;
    const rate = successes / outcomes.length;
    const zero = outcomes.filter((o) => o.total === 0);
    const byKind = new Map<string, { n: number; ok: number }>();
    for (const o of outcomes) {
      const k = byKind.get(o.kind) ?? { n: 0, ok: 0 };
      k.n++;
      if (o.success) k.ok++;
      byKind.set(o.kind, k);
    }
    console.info(
      [
        `search evaluation: ${outcomes.length} judged queries on ${new Set(outcomes.map((o) => o.site)).size} sites (seeded in ${seedSeconds.toFixed(1)} s)`,
        `  success@5: ${successes}/${outcomes.length} = ${(rate * 100).toFixed(1)} %`,
        `  zero-result queries: ${zero.length}${zero.length ? ` (${zero.map((o) => o.q).join(', ')})` : ''}`,
        ...[...byKind].map(([kind, k]) => `  ${kind}: ${k.ok}/${k.n}`),
        ...outcomes
          .filter((o) => !o.success)
          .map((o) => `  miss: "${o.q}" on ${o.site} → ${o.top.join(' | ') || 'nothing'}`),
      ].join('\n'),
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(60);
    expect(zero.map((o) => o.q)).toEqual([]);
    expect(rate).toBeGreaterThanOrEqual(0.9);
  });
});
