import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app/app.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { databaseUrlWith, type TemplateDatabase, withAdmin } from '../setup/database.ts';
import { testAssets, testConfig } from './app.ts';

/**
 * Two servers on one PostgreSQL database made from the test template, each with its own pool and
 * its own LISTEN connection, as two processes have: for the tests of what a write through one
 * does to the other's memory (the page cache, search synonyms, publishing). Called inside a
 * `describe` (its hooks are that block's); `apps` and `handles` are filled before the block's own
 * `beforeAll` runs, both listening connections up, and closed and dropped after it.
 */
export function twoServersOnPostgres(template: TemplateDatabase): {
  apps: FastifyInstance[];
  handles: DatabaseHandle[];
} {
  const name = `kattaus_test_${randomBytes(6).toString('hex')}`;
  const handles: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    if (template.engine !== 'postgres') return;
    const { adminUrl } = template;
    await withAdmin(adminUrl, (admin) =>
      admin.query(`create database "${name}" template "${template.template}"`),
    );
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({
        engine: 'postgres',
        url: databaseUrlWith(adminUrl, name),
        poolSize: 3,
      });
      handles.push(database);
      const app = await buildApp({
        config: testConfig(),
        database,
        assets: testAssets,
        logger: false,
      });
      await app.ready();
      apps.push(app);
    }
    // Both listening connections are up before a test counts on them.
    for (let i = 0; i < 100 && !handles.every((h) => h.contentVersion.complete); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const handle of handles) await handle.close();
    if (template.engine === 'postgres') {
      await withAdmin(template.adminUrl, (admin) =>
        admin.query(`drop database if exists "${name}" with (force)`),
      );
    }
  });

  return { apps, handles };
}
