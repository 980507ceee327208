import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * The demo content of jyväbroileri and Sibylla, seeded once per build and copied per server by
 * the back office's content tests (recipes, the image library).
 */
export async function contentTemplate(): Promise<string> {
  const template = path.join(inject('serverBuild'), 'content-data');
  if (existsSync(template)) return template;
  const made = await mkdtemp(path.join(inject('serverBuild'), 'content-data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: made, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '1', '--sites', 'jyvabroiler,sibylla'],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await rename(made, template).catch(() => rm(made, { recursive: true, force: true }));
  return template;
}
