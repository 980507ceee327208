import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { databaseUrlWith, TEMPLATE_PREFIX, type TemplateDatabase, withAdmin } from './database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: TemplateDatabase;
  }
}

/**
 * Migrates one template database before the tests; each test file then copies it (PGlite by
 * default, the PostgreSQL server named by DATABASE_URL when set).
 */
export default function setup(project: TestProject) {
  return provideTemplate(project, process.env.DATABASE_URL || undefined);
}

/** The template on the server `url` names, or on PGlite without one. */
export async function provideTemplate(project: TestProject, url: string | undefined) {
  if (url) {
    // A name of its own per run, so two runs against one server do not drop each other's template.
    const TEMPLATE_NAME = `${TEMPLATE_PREFIX}${randomBytes(4).toString('hex')}`;
    await withAdmin(url, (admin) => admin.query(`create database "${TEMPLATE_NAME}"`));
    const handle = await openDatabase({
      engine: 'postgres',
      url: databaseUrlWith(url, TEMPLATE_NAME),
    });
    await runMigrations(handle);
    await handle.close();
    project.provide('templateDatabase', {
      engine: 'postgres',
      adminUrl: url,
      template: TEMPLATE_NAME,
    });
    return async () => {
      await withAdmin(url, (admin) =>
        admin.query(`drop database if exists "${TEMPLATE_NAME}" with (force)`),
      );
    };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'kattaus-test-db-'));
  const handle = await openDatabase({ engine: 'pglite' });
  await runMigrations(handle);
  const dump = await handle.dump?.();
  await handle.close();
  if (!dump) throw new Error('PGlite handle cannot dump its data folder');
  const dumpFile = path.join(dir, 'template.tar.gz');
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('templateDatabase', { engine: 'pglite', dumpFile });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
