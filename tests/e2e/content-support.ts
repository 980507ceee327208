import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { inject } from 'vitest';
import {
  createStaffMember,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import { enrolFromLink } from './admin-shop-support.ts';
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

/** A staff member made before the server starts (the embedded database is one process's). */
type StaffMember = Parameters<typeof createStaffMember>[1];

/** A server of a back-office test's own, on a copy of the seeded content. */
export interface ContentServer {
  /** The server's own address (`http://127.0.0.1:<port>`). */
  base: string;
  /** The back office's address. */
  admin: string;
  /** A site's address on this server: `jyvabroiler` → `http://jyvabroiler.localhost:<port>`. */
  origin: (siteId: string) => string;
  stop: () => Promise<void>;
}

/**
 * Starts a server on the embedded database with a copy of the demo content of `sites` (see
 * `contentTemplate`) and the staff members `staff`; `name` names its data folder.
 */
export async function startContentServer<const Staff extends readonly StaffMember[]>(
  name: string,
  staff: Staff,
  sites?: readonly string[],
): Promise<ContentServer & { links: { [K in keyof Staff]: string } }> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), `kattaus-e2e-${name}-`));
  await cp(await contentTemplate(sites), dataDir, { recursive: true });
  const base = `http://127.0.0.1:${port}`;
  const admin = `${base}/admin`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ADMIN_URL: admin,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  // The staff members' enrolment links, in the order they were named.
  const links = staff.map((person) => createStaffMember(env, person)) as {
    [K in keyof Staff]: string;
  };
  const { child } = await startServerProcess(inject('serverBuild'), env);
  return {
    base,
    admin,
    origin: (siteId) => `http://${siteId}.localhost:${port}`,
    links,
    stop: async () => {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser context at 1280 px in which a staff member has enrolled from their link. */
export async function enrolled(browser: Browser, link: string, name: string, password: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await enrolFromLink(page, link, name, password);
  return { context, page };
}

/** From the browser, with its session: an admin API's JSON (an error answer throws). */
export function adminJson<T>(page: Page, url: string): Promise<T> {
  return page.evaluate(async (u) => {
    const res = await fetch(u);
    if (!res.ok) throw new Error(`${u}: ${res.status}`);
    return res.json();
  }, url) as Promise<T>;
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
