import { writeFileSync } from 'node:fs';
import { seed } from '../../../seed/seed.ts';
import { createTestApp, type TestApp, testAppForFile } from '../../../tests/helpers/app.ts';
import { analyserName } from './analysis/analyser.server.ts';
import { analyzeSearchIfStale } from './statistics.server.ts';

/**
 * A test app on the seeded content, one image per kind so seeding stays quick, with the search
 * statistics analysed: what the judged sets are measured against.
 */
async function createSeededSearchApp(): Promise<TestApp> {
  const t = await createTestApp();
  await seed({ db: t.app.db, files: t.app.files }, { imagesPerKind: 1 });
  await analyzeSearchIfStale(t.app.db);
  return t;
}

/** The seeded search app of a test file: built before its tests, closed after them. */
export function seededSearchTestApp(): TestApp {
  return testAppForFile(createSeededSearchApp, 180_000);
}

/**
 * Prints a judged set's report under a line naming the database engine and the analyser, and
 * writes the same lines to the file named by the environment variable `fileVariable` when set.
 */
export function printJudgedReport(t: TestApp, reportLines: string[], fileVariable: string): void {
  const lines = [`database: ${t.database.engine}, analyser: ${analyserName()}`, ...reportLines];
  console.info(lines.join('\n'));
  const file = process.env[fileVariable];
  if (file) writeFileSync(file, `${lines.join('\n')}\n`);
}
