import { describe, expect, it } from 'vitest';
import { analyserName } from './analysis/analyser.server.ts';
import { measureJudgedSet, reportLines } from './judged-measure.test-support.ts';
import { seededSearchTestApp } from './seeded-app.test-support.ts';

/**
 * Search quality on the grown judged set of issue 17 (judged-subjects.test-support.ts): at least
 * 300 queries across Finnish, Swedish and English, judged by a rule on titles and categories that
 * does not look at the engine's answers. Goals: success@5 ≥ 97 % on every site and language,
 * suggestions@5 ≥ 95 %, and no query without results (every subject exists on its site).
 */
const t = seededSearchTestApp();

describe('grown judged set', () => {
  it('finds the subject in the top five on every site and language, and something for each query', async () => {
    const report = await measureJudgedSet(t.app);
    console.info([`analyser: ${analyserName()}`, ...reportLines(report)].join('\n'));
    expect(report.outcomes.length).toBeGreaterThanOrEqual(300);
    expect(new Set(report.outcomes.map((o) => o.lang))).toEqual(new Set(['fi', 'sv', 'en']));
    expect(report.zero.map((o) => `${o.q} on ${o.site}`)).toEqual([]);
    for (const [key, s] of report.bySiteLang) {
      expect(s.ok / s.n, `success@5 on ${key}`).toBeGreaterThanOrEqual(0.97);
    }
    expect(report.suggestionSuccess).toBeGreaterThanOrEqual(0.95);
  }, 300_000);
});
