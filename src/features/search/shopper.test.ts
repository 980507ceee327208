import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/helpers/app.ts';
import { analyserName } from './analysis/analyser.server.ts';
import { createSeededSearchApp } from './seeded-app.test-support.ts';
import { measureShopperSet, shopperReportLines } from './shopper-measure.test-support.ts';

/**
 * Search quality on the shopper judged set of issue 38 (shopper-queries.test-support.ts):
 * colloquial words, descriptive forms, loanword typos, split and joined compounds, word order.
 * `SHOPPER_REPORT=<file>` also writes the report lines to that file.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createSeededSearchApp();
}, 180_000);

afterAll(async () => {
  await t?.close();
});

describe('shopper judged set', () => {
  it('measures what shoppers type, per site and language', async () => {
    const report = await measureShopperSet(t.app);
    const lines = [
      `database: ${t.database.engine}, analyser: ${analyserName()}`,
      ...shopperReportLines(report),
    ];
    console.info(lines.join('\n'));
    if (process.env.SHOPPER_REPORT)
      writeFileSync(process.env.SHOPPER_REPORT, `${lines.join('\n')}\n`);
    // The query file agrees with the seeded catalogue (checked on the tables, not the search).
    expect(report.wrongMarks.map((o) => `${o.q} on ${o.site}`)).toEqual([]);
    expect(report.outcomes.length).toBeGreaterThanOrEqual(200);
  }, 600_000);
});
