import { seed } from '../../../seed/seed.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { analyzeSearchIfStale } from './statistics.server.ts';

/**
 * A test app on the seeded content, one image per kind so seeding stays quick, with the search
 * statistics analysed: what the judged sets are measured against.
 */
export async function createSeededSearchApp(): Promise<TestApp> {
  const t = await createTestApp();
  await seed({ db: t.app.db, files: t.app.files }, { imagesPerKind: 1 });
  await analyzeSearchIfStale(t.app.db);
  return t;
}
