import { describe, expect, it } from 'vitest';
import { heldOutReportLines, measureHeldOutSet } from './heldout-measure.test-support.ts';
import { printJudgedReport, seededSearchTestApp } from './seeded-app.test-support.ts';

/**
 * Search quality on the held-out judged set of issue 17 (heldout-queries.test-support.ts),
 * written independently of the engine and before any measurement. Goals of the issue: success@5
 * ≥ 97 % on every site and language, suggestions@5 ≥ 95 %, no judged query without results; the
 * report printed says how far each site and language is from them.
 * `HELDOUT_REPORT=<file>` also writes the report lines to that file.
 */
const t = seededSearchTestApp();

describe('held-out judged set', () => {
  it('holds its measured quality on queries written without looking at the engine', async () => {
    const report = await measureHeldOutSet(t.app);
    printJudgedReport(t, heldOutReportLines(report), 'HELDOUT_REPORT');
    // The query file agrees with the seeded catalogue (checked on the tables, not the search).
    expect(report.wrongMarks.map((o) => `${o.q} on ${o.site}`)).toEqual([]);
    expect(report.judged.length).toBeGreaterThanOrEqual(300);
    expect(new Set(report.judged.map((o) => o.lang))).toEqual(new Set(['fi', 'sv', 'en']));
    // Every judged query finds its subject in the top five (bench/README.md, "Held-out set"), so
    // every site-language meets issue 17's 97 %; a new miss names itself here.
    const misses = report.judged.filter((o) => !o.success).map((o) => `${o.q} on ${o.site}`);
    expect(misses, 'misses').toEqual([]);
    expect(report.success).toBeGreaterThanOrEqual(0.97);
    expect(report.suggestionSuccess).toBeGreaterThanOrEqual(0.95);
  }, 600_000);
});
