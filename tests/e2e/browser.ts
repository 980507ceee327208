import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { CHROMIUM_FLAGS, chromiumPath } from '../helpers/chromium.ts';

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
 * Screenshots of one spec file: `<prefix>-<name>.png`, of the window or the whole page. Before a
 * whole page, parts that render only near the window (`content-visibility: auto`, decision 063)
 * are made to render, or the picture would show them blank.
 */
export function screenshots(prefix: string, defaults: { fullPage?: boolean } = {}) {
  return async (page: Page, name: string, fullPage = defaults.fullPage ?? false) => {
    if (fullPage) await renderAll(page);
    await page.screenshot({ path: path.join(screenshotDir, `${prefix}-${name}.png`), fullPage });
  };
}

/** Makes every part of the page render, near the window or not (for a whole-page picture). */
async function renderAll(page: Page): Promise<void> {
  await page.evaluate(() => {
    for (const element of document.querySelectorAll<HTMLElement>('main *')) {
      if (getComputedStyle(element).contentVisibility === 'auto')
        element.style.contentVisibility = 'visible';
    }
  });
}

/** A seeded site on the test server: `http://<site>.localhost:<port>`. */
export function siteOrigin(site: string): string {
  return `http://${site}.localhost:${inject('serverPort')}`;
}

/** A fresh context (its own cookies) and page at a window width, 900 px high. */
export async function newPage(
  browser: Browser,
  width: number,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  context.setDefaultTimeout(10_000);
  return { context, page: await context.newPage() };
}

/**
 * Waits until the first island of a name on the page has hydrated, and then until the browser is
 * next idle (at most 1 s more): an update an island schedules from its first effects (a list
 * that becomes a carousel) renders in a later task, and React keeps the main thread busy until
 * its scheduled work is done.
 */
export async function hydrated(page: Page, name: string): Promise<void> {
  await page
    .locator(`k-island[data-name="${name}"][data-hydrated]`)
    .first()
    .waitFor({ state: 'attached' });
  await page.evaluate(
    () => new Promise<void>((done) => requestIdleCallback(() => done(), { timeout: 1_000 })),
  );
}

/**
 * Scrolls an island into view. Its wrapper is `display: contents` and has no box, and its content
 * opens with a comment (the Suspense boundary of decision 062): scrolling the wrapper itself
 * would not move the page. Its first element is scrolled instead.
 */
export async function scrollIslandIntoView(island: Locator): Promise<void> {
  await island.evaluate((el) => (el.firstElementChild ?? el).scrollIntoView({ block: 'center' }));
}

export const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement);

/** Presses Tab until `target` has the focus (at most `limit` times). */
export async function tabTo(page: Page, target: Locator, limit = 120): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('never reached by Tab');
}

/** Polls with a longer patience, for what waits on a frame or a debounce under load. */
export const slowPoll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

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
