import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import axe from 'axe-core';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type Request,
} from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, inject } from 'vitest';
import { chromiumPath, PLAYWRIGHT_CHROMIUM_FLAGS } from '../helpers/chromium.ts';

/** The Chromiums this spec file launched and has not closed: a failure pictures their pages. */
const browsers = new Set<Browser>();

/**
 * Debian's Chromium, headless. Every spec file opens its browser here (directly or through
 * `chromiumForFile`), so its contexts and pages are known: each page's requests are counted (see
 * `settled`), and a failed test gets a picture of every page still open (see the hooks below).
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: PLAYWRIGHT_CHROMIUM_FLAGS,
    headless: true,
  });
  browsers.add(browser);
  browser.on('disconnected', () => browsers.delete(browser));
  // `browser.newPage()` makes its context through this method too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
  return browser;
}

/** Whether a test is running (between its beforeEach and afterEach hooks). */
let testRunning = false;
/**
 * The context the running test closed last, still open: a test closes its context in `finally`,
 * before its failure is known, and the picture of the failure needs its pages. Closed for real
 * when the test ends, or when the test closes another one.
 */
let closedLast: { context: BrowserContext; close: () => Promise<void> } | undefined;

function watchContext(context: BrowserContext): void {
  context.on('page', countRequests);
  const close = context.close.bind(context);
  let closing: Promise<void> | undefined;
  const closeNow = (options?: Parameters<BrowserContext['close']>[0]) => {
    closing ??= close(options);
    return closing;
  };
  context.close = async (options) => {
    if (!testRunning) return closeNow(options);
    if (closedLast?.context === context) return;
    const previous = closedLast;
    closedLast = { context, close: () => closeNow(options) };
    await previous?.close();
  };
}

/**
 * Marks a test as running, and at its end pictures a failure and closes the context it closed
 * last. Registered for every spec file by `setup.ts` (a setup file runs before each file, also
 * where the files share their modules).
 */
export function watchEachTest(): void {
  beforeEach(() => {
    testRunning = true;
  });
  afterEach(async ({ task }) => {
    testRunning = false;
    try {
      if (task.result?.state === 'fail') await pictureOpenPages(task.file.name, task.fullTestName);
    } finally {
      const last = closedLast;
      closedLast = undefined;
      await last?.close();
    }
  });
}

/** `test-results/screenshots/failed-<spec>-<test>[-<n>].png` of every page still open. */
async function pictureOpenPages(file: string, test: string): Promise<void> {
  const pages = [...browsers]
    .flatMap((browser) => browser.contexts())
    .flatMap((context) => context.pages())
    .filter((page) => !page.isClosed());
  if (pages.length === 0) return;
  const spec = path.basename(file).replace(/\.spec\.ts$/, '');
  const name = `failed-${spec}-${test.replace(/[^\p{L}\p{N}._]+/gu, '-').replace(/^-|-$/g, '')}`;
  await mkdir(screenshotDir, { recursive: true });
  for (const [i, page] of pages.entries()) {
    const file = path.join(screenshotDir, `${name}${pages.length > 1 ? `-${i + 1}` : ''}.png`);
    try {
      await page.screenshot({ path: file, timeout: 5_000 });
      console.info(`screenshot of the failure: ${path.relative(process.cwd(), file)}`);
    } catch (error) {
      console.warn(`no screenshot of the failure (${file}): ${(error as Error).message}`);
    }
  }
}

/** The requests of each page that have started and not yet finished or failed. */
const requestsInFlight = new WeakMap<Page, Set<Request>>();

function countRequests(page: Page): void {
  const inFlight = new Set<Request>();
  requestsInFlight.set(page, inFlight);
  page.on('request', (request) => inFlight.add(request));
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
}

/**
 * Waits for a frame to be drawn and then for the browser's next idle period (at most 5 s): the
 * work a step has queued (a render, an effect, a callback for idle time) has run by then, as idle
 * callbacks run in the order they were asked for. On a page whose timers run on Playwright's
 * clock both callbacks are the clock's, which it calls a frame or so later in real time.
 */
export async function idle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const afterFrame = () => requestIdleCallback(() => done(), { timeout: 5_000 });
        // At most 1 s for the frame (see frames()).
        const fallback = setTimeout(afterFrame, 1_000);
        requestAnimationFrame(() => {
          clearTimeout(fallback);
          afterFrame();
        });
      }),
  );
}

/**
 * Waits until the page has no request in flight and the browser has been idle after the last one
 * answered: what a step set off (a fetch, a module it loads, the render of its answer) is over.
 */
export async function settled(page: Page): Promise<void> {
  const inFlight = requestsInFlight.get(page);
  if (!inFlight) throw new Error('settled(): the page was not opened by launchChromium()');
  do {
    await expect
      .poll(() => [...inFlight].map((request) => request.url()), { timeout: 10_000 })
      .toEqual([]);
    await idle(page);
  } while (inFlight.size > 0);
}

/**
 * Waits for `count` animation frames of the page to be drawn, each at most 1 s: headless Chromium
 * now and then stops drawing frames for a page, and an unbounded wait then stalls the test until
 * its 60-s timeout with no clue; bounded, the next step that needs the drawing fails with its own
 * error instead.
 */
export async function frames(page: Page, count = 2): Promise<void> {
  await page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) {
      await new Promise((done) => {
        requestAnimationFrame(done);
        setTimeout(done, 1_000);
      });
    }
  }, count);
}

/**
 * Waits until the CSS animations and transitions running on an element and inside it have
 * finished (endless ones aside).
 */
export async function animationsDone(target: Locator): Promise<void> {
  await target.evaluate(async (el) => {
    const running = el
      .getAnimations({ subtree: true })
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
  });
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

/** The rules of WCAG 2.1 A and AA, by axe's tags. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs axe-core on `page`'s document (not its frames), putting it in first if the document does
 * not have it yet, and returns the violations.
 */
export async function axeViolations(page: Page, options: axe.RunOptions): Promise<axe.Result[]> {
  const present = await page.evaluate(
    // An element with the id `axe` is also `window.axe`: the check asks for axe's own `run`.
    () => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === 'function',
  );
  if (!present) await page.evaluate(axe.source);
  return page.evaluate(async (runOptions) => {
    const { axe: inPage } = window as unknown as { axe: typeof axe };
    const result = await inPage.run(document, {
      ...runOptions,
      resultTypes: ['violations'],
      iframes: false,
    });
    return result.violations;
  }, options);
}

/**
 * WCAG 2.1 A and AA violations of serious or critical impact, as readable lines.
 *
 * axe-core is put into a document once, and later checks of the same document (a menu opened, a
 * dialog shown) only run it again. Only violations are collected with their elements: the passed
 * and inapplicable checks, which nothing reads, are not. Frames are not entered: the sites' only
 * frame is the cart-sync frame, which shows nothing (decision 152 has the measurements).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const violations = await axeViolations(page, { runOnly: { type: 'tag', values: WCAG_21_AA } });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export const screenshotDir = path.resolve('test-results/screenshots');

/** Pictures are taken only with `SCREENSHOTS=1` in the environment (and of failures always). */
export const screenshotsWanted = process.env.SCREENSHOTS === '1';

/**
 * Screenshots of one spec file, `<prefix>-<name>.png` (`<name>.png` with an empty prefix), of the
 * window, the whole page or an element, taken only when `SCREENSHOTS=1`: no test reads them, and
 * they cost time. Before a page's picture the images in the window are waited for (at most 5 s);
 * before a whole page, parts that render only near the window (`content-visibility: auto`,
 * decision 063) are made to render, or the picture would show them blank.
 */
export function screenshots(prefix: string, defaults: { fullPage?: boolean } = {}) {
  return async (target: Page | Locator, name: string, fullPage = defaults.fullPage ?? false) => {
    if (!screenshotsWanted) return;
    const file = path.join(screenshotDir, prefix ? `${prefix}-${name}.png` : `${name}.png`);
    if (!('goto' in target)) {
      await target.screenshot({ path: file });
      return;
    }
    if (fullPage) await renderAll(target);
    await imagesInWindow(target);
    await target.screenshot({ path: file, fullPage });
  };
}

/** Waits (at most 5 s: it is only for a picture) until the images in the window have loaded. */
async function imagesInWindow(page: Page): Promise<void> {
  await settledInWindow(page, { timeout: 5_000 }).catch(() => undefined);
}

/**
 * Waits until every image in the window has loaded (or failed) and two more frames have been
 * drawn: what a scroll brought into view has rendered.
 */
export async function settledInWindow(page: Page, options: { timeout?: number } = {}) {
  await page.waitForFunction(
    () =>
      Array.from(document.images).every((img) => {
        const box = img.getBoundingClientRect();
        const shown = box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
        return !shown || img.complete;
      }),
    undefined,
    options,
  );
  await frames(page);
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

/**
 * This worker's index among the browser workers: Vitest numbers its workers from 1
 * (`VITEST_POOL_ID`), and each has a seeded server of its own (tests/e2e/global-server.ts).
 */
function workerIndex(count: number): number {
  const id = Number(process.env.VITEST_POOL_ID ?? 1);
  return (Number.isInteger(id) && id >= 1 ? id - 1 : 0) % count;
}

/** The port of this worker's seeded test server. */
export function serverPort(): number {
  const ports = inject('serverPorts');
  return ports[workerIndex(ports.length)] as number;
}

/** The one-time enrolment link of the first admin of this worker's test server. */
export function adminEnrolmentLink(): string {
  const links = inject('adminEnrolmentLinks');
  return links[workerIndex(links.length)] as string;
}

/** A seeded site on the test server: `http://<site>.localhost:<port>`. */
export function siteOrigin(site: string): string {
  return `http://${site}.localhost:${serverPort()}`;
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

/** axe finds nothing serious on the page in the state `state` names. */
export async function expectNoSeriousViolations(page: Page, state: string): Promise<void> {
  expect(await seriousViolations(page), state).toEqual([]);
}

/** Presses Enter on `name`'s link, button or radio (within `scope`), reached by Tab. */
export async function pressByTab(
  page: Page,
  role: 'link' | 'button' | 'radio',
  name: string | RegExp,
  scope: Page | Locator = page,
  limit?: number,
): Promise<void> {
  const target = scope.getByRole(role, { name, exact: typeof name === 'string' });
  await tabTo(page, target, limit);
  await page.keyboard.press('Enter');
}

/** Polls with a longer patience, for what waits on a frame or a debounce under load. */
export const slowPoll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** The Chromium the spec files share, launched by the first that asks (decision 156). */
let sharedBrowser: Promise<Browser> | undefined;

/**
 * The run's one Chromium for a spec file: launched by the first file that asks (and again if it
 * went away), before the file's tests; `use` receives it. After the file's tests, the contexts it
 * left open are closed, so the next file starts with none. The browser itself closes with the
 * test process (Playwright closes what it launched when the process ends or is told to).
 */
export function chromiumForFile(use: (browser: Browser) => void): void {
  let browser: Browser | undefined;
  beforeAll(async () => {
    sharedBrowser ??= launchChromium();
    browser = await sharedBrowser;
    if (!browser.isConnected()) {
      sharedBrowser = launchChromium();
      browser = await sharedBrowser;
    }
    use(browser);
    await mkdir(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await Promise.all((browser?.contexts() ?? []).map((context) => context.close()));
  });
}
