import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

const base =
  typeof viteConfig === 'function' ? viteConfig({ command: 'serve', mode: 'test' }) : viteConfig;

const unitFiles = [
  'src/**/*.test.{ts,tsx}',
  'tests/setup/**/*.test.ts',
  'tests/architecture/*.test.ts',
  'seed/**/*.test.ts',
  'scripts/**/*.test.ts',
];

/**
 * The engine-parity suite (decision 090): the tests of what PGlite and a PostgreSQL server may do
 * differently — migrations, connections and locks, change notices, the seed, and search (text
 * configurations, dictionaries, trigram and prefix indexes). With DATABASE_URL the unit project
 * runs on that server and these run once more on PGlite; without it the unit project already runs
 * them on PGlite.
 */
export const parityFiles = [
  'src/db/{migrate,content-changes}.test.ts',
  // The audit log's append-only trigger (decision 132).
  'src/features/staff/audit-append-only.test.ts',
  // Shared pages with the visitor's holes: no visitor's part reaches another (decision 157).
  'src/app/page-holes.test.ts',
  // A visitor's own page is answered again only to them, and is void after any change (163).
  'src/app/own-pages.test.ts',
  'seed/seed.test.ts',
  'src/features/search/analysis/*.test.ts',
  'src/features/search/{closer-matches,documents,evaluation,heldout,judged-subjects,shopper,synonyms,typo-vocabulary,routes}.test.ts',
];

const onPostgres = Boolean(process.env.DATABASE_URL);

export default mergeConfig(
  base,
  defineConfig({
    test: {
      // Both cores: each test file has a database of its own (a PGlite copy or a PostgreSQL
      // database made from a template), so two files at once share nothing.
      maxWorkers: 2,
      reporters: ['./tests/setup/summary-reporter.ts', 'default'],
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            include: unitFiles,
            environment: 'node',
            // One module graph per worker, not per file (decision 154): every file has its own
            // database, no file changes a module's state for the next, and the app's modules
            // were half of the project's time when each file loaded them again.
            isolate: false,
            globalSetup: ['tests/setup/global-database.ts'],
            testTimeout: 30_000,
            hookTimeout: 60_000,
            sequence: { groupOrder: 0 },
          },
        },
        ...(onPostgres
          ? [
              {
                extends: true as const,
                test: {
                  name: 'parity',
                  include: parityFiles,
                  environment: 'node',
                  // The same files on PGlite: no server for them, whatever the shell says.
                  env: { DATABASE_URL: '', REDIS_URL: '' },
                  globalSetup: ['tests/setup/global-pglite.ts'],
                  testTimeout: 30_000,
                  hookTimeout: 60_000,
                  sequence: { groupOrder: 0 },
                },
              },
            ]
          : []),
        {
          extends: true,
          test: {
            name: 'e2e',
            include: ['tests/e2e/**/*.spec.ts'],
            environment: 'node',
            globalSetup: ['tests/e2e/global-server.ts'],
            setupFiles: ['tests/e2e/setup.ts'],
            // The spec files share one module graph (Playwright, axe-core, the catalogues): each
            // keeps its state in its own module or its own browser (decision 156).
            isolate: false,
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // One browser at a time: the machine has two cores and the server needs one; two
            // files at once were slower and timed out (decision 149). After the unit projects, so
            // a browser never shares the cores with two test workers.
            fileParallelism: false,
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  }),
);
