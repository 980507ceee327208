import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp } from '../../src/app/app.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { AssetProvider } from '../../src/render/assets.ts';
import { type Config, loadConfig } from '../../src/server/config.ts';
import { LocalFileStore } from '../../src/server/file-store.ts';
import { createTestDatabase } from '../setup/database.ts';

export const testAssets: AssetProvider = {
  dev: false,
  page: () => ({
    scripts: ['/assets/entry-test.js'],
    styles: ['/assets/style-test.css'],
    modulePreloads: [],
  }),
  entry: (key) => ({
    scripts: [`/assets/${key.split('/').pop()}`],
    styles: [],
    modulePreloads: [],
  }),
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-that-is-long-enough-0123456789',
      DATA_DIR: '/tmp/kattaus-test-unused',
      // Tests ask far more often than a visitor; the tests of the limits set their own.
      SEARCH_RATE_LIMIT: '1000000',
      IMAGE_MISS_RATE_LIMIT: '1000000',
    }),
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The app's file folder (none when its files are in a bucket). */
  filesDir: string | undefined;
  close(): Promise<void>;
}

/**
 * The whole application on a fresh database copied from the migrated template, its files in a
 * fresh temporary folder, or in the bucket when `config.s3` is given (tests/helpers/s3.ts).
 * `extend` may add routes before the app is ready (for testing the plugins on their own).
 */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    extend?: (app: FastifyInstance) => void;
    logStream?: NodeJS.WritableStream;
    /** The page cache's cap in bytes (decision 033); the app's default otherwise. */
    pageCacheBytes?: number;
    /**
     * A database another app already uses (`openSameDatabase`): a second server process on the
     * same PostgreSQL database. Its owner closes it; this app's `close` leaves it open.
     */
    database?: DatabaseHandle;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(inject('templateDatabase')));
  const config = testConfig(options.config);
  // With S3 configured the app opens the bucket itself; otherwise a fresh folder per app.
  const filesDir = config.s3
    ? undefined
    : await mkdtemp(path.join(tmpdir(), 'kattaus-test-files-'));
  const app = await buildApp({
    ...(filesDir ? { files: new LocalFileStore(filesDir) } : {}),
    config,
    database,
    assets: testAssets,
    ...(options.pageCacheBytes === undefined ? {} : { pageCacheBytes: options.pageCacheBytes }),
    ...(options.logStream ? { logStream: options.logStream } : { logger: false as const }),
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    database,
    filesDir,
    async close() {
      await app.close();
      if (!options.database) await database.close();
      if (filesDir) await rm(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * A test app that `build` makes before the file's tests and that is closed after them. The handle
 * reads the app once it is built.
 */
export function testAppForFile(build: () => Promise<TestApp>, timeout: number): TestApp {
  let built: TestApp | undefined;
  beforeAll(async () => {
    built = await build();
  }, timeout);
  afterAll(async () => {
    await built?.close();
  });
  const current = (): TestApp => {
    if (!built) throw new Error('the test app is built in beforeAll');
    return built;
  };
  return {
    get app() {
      return current().app;
    },
    get database() {
      return current().database;
    },
    get filesDir() {
      return current().filesDir;
    },
    close: () => current().close(),
  };
}

/** Cookies set by a response, as a `Cookie` header value. */
export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

export function cookieValue(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((c) => c.name === name)?.value;
}

export type { InjectOptions };
