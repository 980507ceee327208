import type {
  Browser,
  BrowserContext,
  Locator,
  Page,
  Request as PageRequest,
} from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUICK_SEARCH_DEBOUNCE_MS } from '../../src/features/search/params.ts';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  settled,
  slowPoll,
  watchProblems,
} from './browser.ts';

/**
 * The header's quick search in the browser (spec §2 Quick search, §4, §8, §9) on sibylla, at
 * 1280 px (the desktop box, full hit layout) and 375 px (the mobile search panel, mobile layout):
 * no request below three characters, one request 500 ms after the last keystroke, a new request
 * aborting the one in flight with 'Etsitään...' kept meanwhile, the listbox by keyboard, Enter to
 * the search page with `q`, Escape, a press outside and the mobile search icon closing and
 * clearing, the live region, and axe with the results open.
 */

const port = serverPort();
const site = 'sibylla';
const origin = `http://${site}.localhost:${port}`;
const t = serverT('fi');
const SUGGESTIONS = '/api/search/suggestions/';
/** Words the demo content has; the first with at least three hits is the test's word. */
const CANDIDATES = ['pizza', 'kana', 'broileri', 'makkara', 'jauheliha', 'salaatti', 'kinkku'];

interface Hit {
  title: string;
  url: string;
  image: string | null;
  type: string;
}

let browser: Browser;
let word = '';

chromiumForFile((b) => {
  browser = b;
});

beforeAll(async () => {
  // The browser resolves *.localhost; Node does not: ask the API from a page.
  const page = await browser.newPage();
  await page.goto(`${origin}/health`);
  const counts = await page.evaluate(
    async ({ words, path }) => {
      const out: Record<string, number> = {};
      for (const w of words) {
        const res = await fetch(`${path}?q=${encodeURIComponent(w)}&language=fi&pageSize=5`);
        out[w] = ((await res.json()) as { hits: unknown[] }).hits.length;
      }
      return out;
    },
    { words: CANDIDATES, path: SUGGESTIONS },
  );
  word = CANDIDATES.find((w) => (counts[w] ?? 0) >= 3) ?? '';
  if (!word) throw new Error(`no candidate word has three hits: ${JSON.stringify(counts)}`);
  await page.close();
});

/**
 * In the page, before any script: the time of every input event and of every suggestions
 * request the page starts, on one clock.
 */
function recordTimes(path: string): void {
  const times = { inputs: [] as number[], fetches: [] as number[] };
  (window as unknown as { __times: typeof times }).__times = times;
  document.addEventListener('input', () => times.inputs.push(performance.now()), true);
  const original = window.fetch;
  window.fetch = function (this: unknown, ...args: Parameters<typeof fetch>) {
    const url = args[0] instanceof Request ? args[0].url : String(args[0]);
    if (url.includes(path)) times.fetches.push(performance.now());
    return original.apply(this, args);
  } as typeof fetch;
}

interface Opened {
  context: BrowserContext;
  page: Page;
  box: Locator;
  form: Locator;
  /** Suggestions requests the page sent, in order, with their `q`. */
  requests: { q: string; request: PageRequest }[];
  failed: { q: string; error: string }[];
  problems: ReturnType<typeof watchProblems>;
}

/**
 * The home page with the quick search open and focused. With `clock`, the page's timers run on
 * Playwright's clock, so a test can let the debounce time pass at once (`page.clock.runFor`).
 */
async function open(width: number, mobile: boolean, clock = false): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  context.setDefaultTimeout(10_000);
  if (clock) await context.clock.install();
  await context.addInitScript(recordTimes, SUGGESTIONS);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const requests: Opened['requests'] = [];
  const failed: Opened['failed'] = [];
  const qOf = (r: PageRequest) => new URL(r.url()).searchParams.get('q') ?? '';
  page.on('request', (r) => {
    if (r.url().includes(SUGGESTIONS)) requests.push({ q: qOf(r), request: r });
  });
  page.on('requestfailed', (r) => {
    if (r.url().includes(SUGGESTIONS))
      failed.push({ q: qOf(r), error: r.failure()?.errorText ?? '' });
  });
  await page.goto(`${origin}/`);
  await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
  const header = page.locator('header');
  // By CSS, not by role, so that the closed mobile panel's box can still be looked at.
  const form = header.locator(
    `form[aria-label="${mobile ? t('header.quickSearch') : t('search.label')}"]`,
  );
  const box = form.locator('input[role="combobox"]');
  if (mobile)
    await header.getByRole('button', { name: t('header.searchToggle'), exact: true }).click();
  else await box.click();
  await expect.poll(() => box.isVisible()).toBe(true);
  expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
  return { context, page, box, form, requests, failed, problems };
}

const times = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __times: { inputs: number[]; fetches: number[] } }).__times,
  );

const shot = screenshots('quick-search');

/**
 * Proves that no answer comes into a closed list: a search the debounce still holds would start
 * once its time has passed (run at once on the page's clock), and every request made has
 * answered and been handled.
 */
async function nothingPending(page: Page): Promise<void> {
  await page.clock.runFor(QUICK_SEARCH_DEBOUNCE_MS);
  await settled(page);
}

describe.each([
  [1280, false],
  [375, true],
] as const)('quick search at %i px', (width, mobile) => {
  const name = `${width}`;
  // Both widths' boxes are one combobox in two forms: how it drops a request in flight and what
  // Enter after Escape sends run at 1280 px only; each form's own submits, its list, keys and
  // closing at both (decision 155).

  it('asks nothing below three characters, then once, 500 ms after the last key; shows hits, count and layout', async () => {
    const { context, page, box, form, requests, problems } = await open(width, mobile, true);
    const listbox = form.getByRole('listbox', { includeHidden: true });
    const options = form.getByRole('option');
    const status = form.getByRole('status');

    // One and two characters: no request, however long one waits, and no panel. The page's
    // clock runs past the debounce time at once; the page's own record shows no request begun.
    await box.pressSequentially(word.slice(0, 1));
    await page.clock.runFor(QUICK_SEARCH_DEBOUNCE_MS + 300);
    await box.pressSequentially(word.slice(1, 2));
    await page.clock.runFor(QUICK_SEARCH_DEBOUNCE_MS + 300);
    await settled(page);
    expect((await times(page)).fetches).toEqual([]);
    expect(requests).toEqual([]);
    expect(await form.locator('p', { hasText: t('search.loading') }).count()).toBe(0);
    expect(await box.getAttribute('aria-expanded')).toBe('false');

    // The third character: nothing yet after 300 ms (on the page's clock), then one request for
    // the three letters.
    const answer = page.waitForResponse((r) => r.url().includes(SUGGESTIONS));
    await box.pressSequentially(word.slice(2, 3));
    await page.clock.runFor(300);
    expect((await times(page)).fetches).toEqual([]);
    expect(requests).toEqual([]);
    expect(await options.count()).toBe(0);
    const response = await answer;
    const result = (await response.json()) as { hits: Hit[]; totalCount: number };
    await expect.poll(() => options.count()).toBe(result.hits.length);
    expect(requests.map((r) => r.q)).toEqual([word.slice(0, 3)]);
    expect(new URL(requests[0]?.request.url() ?? '').searchParams.get('pageSize')).toBe('5');
    // Measured in the page: from the last input event to the request.
    const { inputs, fetches } = await times(page);
    expect(fetches).toHaveLength(1);
    const delay = (fetches[0] ?? 0) - (inputs.at(-1) ?? 0);
    expect(delay).toBeGreaterThanOrEqual(499);
    expect(delay).toBeLessThan(800);

    // Combobox and listbox, the count in the live region, 'see all results' with q.
    expect(result.hits.length).toBeGreaterThanOrEqual(3);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    expect(await box.getAttribute('aria-controls')).toBe(await listbox.getAttribute('id'));
    await expect
      .poll(() => status.textContent())
      .toBe(t('search.resultCount', { count: result.totalCount }));
    // Links of site search carry the first page of ten (spec §2).
    const all = form.getByRole('link', { name: t('search.showAll') });
    expect(await all.getAttribute('href')).toBe(
      `/haku?q=${word.slice(0, 3)}&contentGroup=0&currentPage=1&pageSize=10`,
    );
    expect(await form.getByRole('button', { name: t('search.close') }).isVisible()).toBe(true);
    for (const [i, hit] of result.hits.entries()) {
      const option = options.nth(i);
      expect(await option.getAttribute('href')).toBe(hit.url);
      expect(await option.textContent()).toContain(hit.title);
      // Mobile layout: title, category, teaser; the full layout adds the thumbnail in the
      // preset of the hit's page type.
      const img = option.locator('img');
      if (mobile || !hit.image) {
        expect(await img.count()).toBe(0);
      } else {
        expect(await img.getAttribute('src')).toBe(hit.image);
        const preset = ['retail-product', 'broiler-product'].includes(hit.type)
          ? 'product-thumbnail-medium'
          : 'thumbnail-medium';
        expect(hit.image).toMatch(new RegExp(`[?&]preset=${preset}$`));
      }
    }
    // The panel stays inside the window.
    const panel = await listbox.boundingBox();
    expect(panel?.x).toBeGreaterThanOrEqual(0);
    expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${name}-results`);

    // Fast typing on: one more request, for the final text only, once the debounce time after
    // the last key has passed.
    await box.pressSequentially(word.slice(3), { delay: 60 });
    await nothingPending(page);
    await expect.poll(() => requests.map((r) => r.q)).toEqual([word.slice(0, 3), word]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  if (!mobile) {
    it('aborts the request in flight for a newer one, keeping "Etsitään..." until it answers', async () => {
      const { context, page, box, form, requests, failed, problems } = await open(width, mobile);
      // The first answer is held until the second request has started (it is aborted by then); the
      // second is held until the test has seen the loading text stay.
      let n = 0;
      let secondAsked = () => {};
      const second = new Promise<void>((resolve) => {
        secondAsked = resolve;
      });
      let releaseSecond = () => {};
      const secondReleased = new Promise<void>((resolve) => {
        releaseSecond = resolve;
      });
      await page.route(`**${SUGGESTIONS}**`, async (route) => {
        if (n++ === 0) {
          await second;
        } else {
          secondAsked();
          await secondReleased;
        }
        await route.continue().catch(() => undefined);
      });
      // The panel's message (the live region says the same).
      const loading = form.locator('p', { hasText: t('search.loading') });
      await box.pressSequentially(word.slice(0, 3));
      await expect.poll(() => requests.length).toBe(1);
      await expect.poll(() => loading.isVisible()).toBe(true);
      expect(await form.getByRole('status').textContent()).toBe(t('search.loading'));
      await shot(page, `${name}-loading`);
      await box.pressSequentially(word.slice(3, 4));
      await expect.poll(() => requests.length).toBe(2);
      await expect.poll(() => failed).toEqual([{ q: word.slice(0, 3), error: 'net::ERR_ABORTED' }]);
      // The aborted request is ignored: the loading text stays until the new one answers.
      expect(await loading.isVisible()).toBe(true);
      releaseSecond();
      await slowPoll(() => form.getByRole('option').count()).toBeGreaterThan(0);
      expect(await loading.count()).toBe(0);
      expect(requests.map((r) => r.q)).toEqual([word.slice(0, 3), word.slice(0, 4)]);
      expect(problems.console).toEqual([]);
      await context.close();
    });
  }

  it('moves through the hits with the arrows and opens one with Enter', async () => {
    const { context, page, box, form } = await open(width, mobile);
    await box.pressSequentially(word);
    const options = form.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThanOrEqual(3);
    const active = () => box.getAttribute('aria-activedescendant');
    expect(await active()).toBeNull();
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe(await options.nth(0).getAttribute('id'));
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await active()).toBe(await options.nth(1).getAttribute('id'));
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('false');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    // Up from the first wraps to the last.
    expect(await active()).toBe(await options.last().getAttribute('id'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const target = await options.nth(1).getAttribute('href');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${name}-active`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}${target}`);
    await context.close();
  });

  it('goes to the search page with q on Enter in the box', async () => {
    const { context, page, box } = await open(width, mobile);
    await box.pressSequentially(`${word} ja`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/haku?q=${word}+ja`);
    await context.close();
  });

  /** Types the word and waits for its hits; on mobile the panel is opened first. */
  const showResults = async ({ page, box, form }: Opened) => {
    const toggle = page
      .locator('header')
      .getByRole('button', { name: t('header.searchToggle'), exact: true });
    if (!(await box.isVisible())) {
      await toggle.click();
      await expect.poll(() => box.isVisible()).toBe(true);
    }
    // Emptied first: the same text again would be no change to the box.
    await box.fill('');
    await box.fill(word);
    await expect.poll(() => form.getByRole('option').count()).toBeGreaterThan(0);
    expect(await form.getByRole('listbox').isVisible()).toBe(true);
  };

  it('the first Escape closes the list and keeps the text, the second clears the box', async () => {
    const opened = await open(width, mobile, true);
    const { context, page, box, form, problems } = opened;
    const options = form.getByRole('option');
    const panel = form.getByRole('listbox', { includeHidden: true });
    const toggle = page
      .locator('header')
      .getByRole('button', { name: t('header.searchToggle'), exact: true });
    const focused = () => box.evaluate((el) => el === document.activeElement);

    await showResults(opened);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await options.count()).toBe(0);
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    expect(await box.inputValue()).toBe(word);
    expect(await focused()).toBe(true);
    // The mobile search panel stays open around the box.
    if (mobile) expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${name}-escape-once`);

    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');
    expect(await box.isVisible()).toBe(true);
    expect(await focused()).toBe(true);
    expect(await panel.isVisible()).toBe(false);

    // Down Arrow opens the list again for what is typed.
    await box.fill(word);
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    expect(await box.inputValue()).toBe(word);

    // With nothing left to close or clear, Escape closes the mobile panel: focus to its icon.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');
    if (mobile) {
      await page.keyboard.press('Escape');
      await expect.poll(() => box.isVisible()).toBe(false);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    // No answer arrives into a closed list.
    await nothingPending(page);
    expect(await options.count()).toBe(0);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  if (!mobile) {
    it('Enter after Escape searches what is typed', async () => {
      const opened = await open(width, mobile);
      const { context, page } = opened;
      await showResults(opened);
      await page.keyboard.press('Escape');
      await expect.poll(() => opened.form.getByRole('listbox').isVisible()).toBe(false);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${origin}/haku?q=${word}`);
      await context.close();
    });
  }

  it('an empty box goes to the search page without an empty q=', async () => {
    const { context, page, box } = await open(width, mobile);
    expect(await box.inputValue()).toBe('');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/haku');
    expect(page.url()).toBe(`${origin}/haku`);
    await context.close();
    // Spaces alone are empty too (the button this time).
    const again = await open(width, mobile);
    await again.box.fill('   ');
    await again.form.locator('button[type="submit"]').click();
    await again.page.waitForURL((url) => url.pathname === '/haku');
    expect(again.page.url()).toBe(`${origin}/haku`);
    await again.context.close();
  });

  it('closes the list when focus leaves the search form, so nothing focused lies under it', async () => {
    const opened = await open(width, mobile);
    const { context, page, form, problems } = opened;
    const panel = form.getByRole('listbox', { includeHidden: true });
    const inForm = () =>
      form.evaluate((el) => el.contains(document.activeElement) && document.activeElement !== null);
    /** The element with focus is the topmost one at its own centre (not under the panel). */
    const focusedOnTop = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return 'nothing focused';
        el.scrollIntoView({ block: 'nearest' });
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return top && (el === top || el.contains(top))
          ? 'on top'
          : `under ${top?.outerHTML.slice(0, 80)}`;
      });

    // Tab moves through the form (button, 'see all results', close) with the list open...
    await showResults(opened);
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      expect(await inForm()).toBe(true);
      expect(await panel.isVisible()).toBe(true);
    }
    // ...and out of it: the list closes, the text stays.
    await page.keyboard.press('Tab');
    expect(await inForm()).toBe(false);
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await focusedOnTop()).toBe('on top');
    expect(await opened.box.inputValue()).toBe(word);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${name}-focus-left`);

    // Shift+Tab from the box leaves the form backwards.
    await opened.box.focus();
    await showResults(opened);
    await page.keyboard.press('Shift+Tab');
    expect(await inForm()).toBe(false);
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await focusedOnTop()).toBe('on top');

    // A press on a hit still opens it: the list does not close under the pointer.
    await opened.box.focus();
    await showResults(opened);
    const target = await form.getByRole('option').first().getAttribute('href');
    await form.getByRole('option').first().click();
    await page.waitForURL(`${origin}${target}`);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('closes and clears with a press outside and (mobile) the search icon', async () => {
    const opened = await open(width, mobile, true);
    const { context, page, box, form, problems } = opened;
    const options = form.getByRole('option');
    const panel = form.getByRole('listbox', { includeHidden: true });
    const toggle = page
      .locator('header')
      .getByRole('button', { name: t('header.searchToggle'), exact: true });

    // A press outside (on the page's main area).
    await showResults(opened);
    await page.locator('main').dispatchEvent('pointerdown');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await options.count()).toBe(0);
    if (mobile) {
      expect(await box.isVisible()).toBe(false);
      await toggle.click();
      expect(await box.inputValue()).toBe('');
      await toggle.click();
    }

    // The mobile search icon closes the panel and clears it.
    if (mobile) {
      await showResults(opened);
      await toggle.click();
      await expect.poll(() => box.isVisible()).toBe(false);
      await toggle.click();
      await expect.poll(() => box.isVisible()).toBe(true);
      expect(await box.inputValue()).toBe('');
      expect(await options.count()).toBe(0);
      expect(await panel.isVisible()).toBe(false);
    }
    // No answer arrives into a closed panel.
    await nothingPending(page);
    expect(await options.count()).toBe(0);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('quick search in the sticky bar and the side menu', () => {
  it('the 216 px box shows hits with thumbnails past the threshold (1280 px)', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    await page.evaluate(() => window.scrollTo(0, 250));
    const form = page.getByRole('search', { name: t('header.stickySearch') });
    await expect.poll(() => form.isVisible()).toBe(true);
    expect((await form.boundingBox())?.width).toBe(216);
    await form.getByRole('combobox').fill(word);
    const options = form.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    const panel = await form.getByRole('listbox').boundingBox();
    expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(1280);
    expect(panel?.x).toBeGreaterThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, '1280-sticky');
    await context.close();
  });

  it('the side menu’s box shows hits in the mobile layout and Tab skips the options (375 px)', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    await page
      .locator('header')
      .getByRole('button', { name: t('menu.label') })
      .click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const form = dialog.getByRole('search');
    const box = form.getByRole('combobox');
    await box.fill(word);
    const options = form.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    expect(await form.locator('img').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, '375-side-menu');
    // From the box, Tab goes to the button and then past the options to 'see all results'.
    await box.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('submit');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      t('search.showAll'),
    );
    await context.close();
  });
});
