import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Flags for Debian's Chromium on a machine without internet. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's `chromium` from the PATH; nothing here downloads a browser. */
export function chromiumPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const file = path.join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {
        // not in this folder
      }
    }
  }
  throw new Error('Chromium is not on the PATH: apt-get install -y chromium');
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
}

export interface PageProblems {
  console: string[];
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { console: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') problems.console.push(message.text());
  });
  page.on('pageerror', (error) => problems.console.push(`pageerror: ${error.message}`));
  return problems;
}

/** WCAG 2.1 A and AA violations of serious or critical impact, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const screenshotDir = path.resolve('test-results/screenshots');

/**
 * One Chromium for a spec file: launched (and the screenshot folder made) before its tests,
 * closed after them; `use` receives it.
 */
export function chromiumForFile(use: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    use(browser);
    await mkdir(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });
}
