import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import { pressByTab, tabTo } from './browser.ts';

const DEFAULT_SITES = ['jyvabroiler', 'sibylla'] as const;

/**
 * The demo content of `sites` (jyväbroileri and Sibylla unless named), seeded once per build and
 * copied per server by the back office's content tests.
 */
export async function contentTemplate(sites: readonly string[] = DEFAULT_SITES): Promise<string> {
  const name = sites === DEFAULT_SITES ? 'content-data' : `content-data-${sites.join('-')}`;
  const template = path.join(inject('serverBuild'), name);
  if (existsSync(template)) return template;
  const made = await mkdtemp(path.join(inject('serverBuild'), `${name}-`));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: made, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '1', '--sites', sites.join(',')],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await rename(made, template).catch(() => rm(made, { recursive: true, force: true }));
  return template;
}

/**
 * Enter on a link, button or radio reached by Tab, and typing into a field reached by Tab (what
 * was in it replaced), for screens with up to `stops` tab stops (the editors are long).
 */
export function byKeyboard(stops: number) {
  return {
    press: (
      page: Page,
      role: 'link' | 'button' | 'radio',
      name: string | RegExp,
      scope: Page | Locator = page,
    ) => pressByTab(page, role, name, scope, stops),
    async typeInto(page: Page, field: Locator, text: string) {
      await tabTo(page, field, stops);
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(text);
    },
  };
}
