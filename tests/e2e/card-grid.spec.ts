import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  settledInWindow,
  watchProblems,
} from './browser.ts';

/**
 * The card grid in the browser (spec §2): two rows at first, 'Näytä lisää' revealing one row of
 * the columns on screen at a time (4 at 1280 px, 1 at 375 px) and leaving when every card shows,
 * focus on the first revealed card, the dropdown filter by mouse and keyboard with the count in a
 * live region, the error state and its retry, the no-script fallback, no layout shift when the
 * island takes over, axe, and screenshots. It runs on the seeded home page of a food-service site,
 * whose 'Suosituimmat reseptit' grid holds 16 recipes and a course filter.
 */

const port = serverPort();
const site = 'ammattilaiset';
const t = serverT('fi');
const base = `http://${site}.localhost:${port}`;

let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

interface Opened {
  context: BrowserContext;
  page: Page;
  grid: Locator;
  problems: ReturnType<typeof watchProblems>;
}

async function open(width: number, options: { script?: boolean } = {}): Promise<Opened> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    javaScriptEnabled: options.script ?? true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems = watchProblems(page);
  // Layout shifts from the start, to be read once the grid has hydrated.
  await page.addInitScript(() => {
    const w = window as unknown as { gridShifts: { value: number; inGrid: boolean }[] };
    w.gridShifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        const inGrid = entry.sources.some((s) =>
          s.node
            ? Boolean(document.querySelector('[data-grid-under-test]')?.contains(s.node))
            : false,
        );
        w.gridShifts.push({ value: entry.value, inGrid });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const response = await page.goto(`${base}/`);
  expect(response?.status()).toBe(200);
  const grid = page
    .locator('k-island[data-name="card-grid"]')
    .filter({ has: page.locator('select') });
  await expect(grid.count()).resolves.toBe(1);
  await grid.evaluate((el) => el.setAttribute('data-grid-under-test', ''));
  return { context, page, grid, problems };
}

async function hydrated(opened: Opened) {
  await opened.grid.locator('ul').scrollIntoViewIfNeeded();
  await opened.page
    .locator('k-island[data-name="card-grid"][data-grid-under-test][data-hydrated]')
    .waitFor();
}

const cards = (grid: Locator) => grid.locator('ul > li');
const visibleCards = (grid: Locator) => grid.locator('ul > li:visible');
const moreButton = (grid: Locator) => grid.getByRole('button', { name: t('cardGrid.showMore') });

async function waitForVisible(grid: Locator, count: number) {
  await expect.poll(() => visibleCards(grid).count(), { timeout: 5_000 }).toBe(count);
}

/** The index among the grid's cards of the element that has focus, or -1. */
function focusedCardIndex(grid: Locator): Promise<number> {
  return grid.evaluate((root) => {
    const items = Array.from(root.querySelectorAll('ul > li'));
    return items.findIndex((li) => li.contains(document.activeElement));
  });
}

/** The answer of the filtered-cards API for a dropdown choice, fetched by the page itself. */
function apiCards(page: Page, id: string): Promise<{ header: string }[]> {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  }, `/api/filtered-cards/${id}/recipeCard`);
}

const picture = screenshots('card-grid');
const cardTypePicture = screenshots('card-type');

/** The viewport as a visitor sees it, scrolled so the grid starts just under the header. */
async function shot(opened: Opened, name: string, from: 'top' | 'bottom' = 'top') {
  await opened.grid.locator('section').evaluate((el, where) => {
    const box = el.getBoundingClientRect();
    const y = where === 'top' ? box.top - 150 : box.bottom - window.innerHeight + 40;
    window.scrollTo(0, window.scrollY + y);
  }, from);
  await picture(opened.page, name);
}

describe('card grid', () => {
  it('at 1280 px: 4 columns, two rows, one row per press, focus on the new row, button leaves', async () => {
    const opened = await open(1280);
    const { grid, page, context, problems } = opened;
    // Before the island runs, CSS shows two rows already.
    expect(await cards(grid).count()).toBe(16);
    await waitForVisible(grid, 8);
    await hydrated(opened);
    await waitForVisible(grid, 8);
    const columns = await grid
      .locator('ul')
      .evaluate((ul) => getComputedStyle(ul).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(4);
    const shifts = await page.evaluate(
      () => (window as unknown as { gridShifts: { value: number; inGrid: boolean }[] }).gridShifts,
    );
    expect(shifts.filter((s) => s.inGrid)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(opened, '1280-first');

    await moreButton(grid).click();
    await waitForVisible(grid, 12);
    expect(await focusedCardIndex(grid)).toBe(8);

    // By keyboard: Tab back to the button, Enter.
    await moreButton(grid).focus();
    await page.keyboard.press('Enter');
    await waitForVisible(grid, 16);
    expect(await focusedCardIndex(grid)).toBe(12);
    await expect(moreButton(grid).count()).resolves.toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(opened, '1280-all', 'bottom');
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('at 375 px: 1 column, two cards, one more per press until the button leaves', async () => {
    const opened = await open(375);
    const { grid, page, context, problems } = opened;
    await waitForVisible(grid, 2);
    await hydrated(opened);
    await waitForVisible(grid, 2);
    const shifts = await page.evaluate(
      () => (window as unknown as { gridShifts: { value: number; inGrid: boolean }[] }).gridShifts,
    );
    expect(shifts.filter((s) => s.inGrid)).toEqual([]);
    await shot(opened, '375-first');
    for (let shown = 3; shown <= 16; shown++) {
      await moreButton(grid).press(shown % 2 ? 'Enter' : ' ');
      await waitForVisible(grid, shown);
      expect(await focusedCardIndex(grid)).toBe(shown - 1);
    }
    await expect(moreButton(grid).count()).resolves.toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(opened, '375-all', 'bottom');
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('filters by the dropdown, by keyboard too, announcing the count; back to all', async () => {
    const opened = await open(1280);
    const { grid, page, context, problems } = opened;
    await hydrated(opened);
    const select = grid.getByLabel('Ruokalaji');
    const options = await select
      .locator('option')
      .evaluateAll((els) =>
        els.map((el) => ({ value: (el as HTMLOptionElement).value, label: el.textContent ?? '' })),
      );
    expect(options[0]).toEqual({ value: '', label: t('cardGrid.all') });
    expect(options.length).toBeGreaterThan(2);
    const first = options[1];
    const second = options[2];
    if (!first || !second) throw new Error('no course options');

    // Keyboard: focus the select and step to the first course.
    await select.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => select.inputValue()).toBe(first.value);
    const expected = await apiCards(page, first.value);
    expect(expected.length).toBeGreaterThan(0);
    const status = grid.getByRole('status');
    await expect
      .poll(() => status.textContent())
      .toBe(t('cardGrid.count', { count: expected.length }));
    expect(await cards(grid).count()).toBe(expected.length);
    const titles = await cards(grid).locator('h3').allTextContents();
    expect(titles).toEqual(expected.map((c) => c.header));
    await waitForVisible(grid, Math.min(8, expected.length));
    expect(await seriousViolations(page)).toEqual([]);
    await shot(opened, '1280-filtered');

    // Mouse: another course, then all again.
    await select.selectOption(second.value);
    const secondCards = await apiCards(page, second.value);
    await expect
      .poll(() => cards(grid).locator('h3').allTextContents())
      .toEqual(secondCards.map((c) => c.header));
    await select.selectOption('');
    await expect.poll(() => cards(grid).count()).toBe(16);
    await expect.poll(() => status.textContent()).toBe(t('cardGrid.count', { count: 16 }));
    await waitForVisible(grid, 8);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('shows an error with a retry when the cards cannot be fetched', async () => {
    const opened = await open(1280);
    const { grid, page, context } = opened;
    await hydrated(opened);
    await page.route('**/api/filtered-cards/**', (route) => route.abort('failed'));
    const select = grid.getByLabel('Ruokalaji');
    const value = await select.locator('option').nth(1).getAttribute('value');
    await select.selectOption(value ?? '');
    await expect.poll(() => grid.getByRole('status').textContent()).toBe(t('cardGrid.error'));
    expect(await cards(grid).count()).toBe(0);
    const retry = grid.getByRole('button', { name: t('cardGrid.retry') });
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/api/filtered-cards/**');
    await retry.click();
    await expect.poll(() => cards(grid).count()).toBeGreaterThan(0);
    await expect(retry.count()).resolves.toBe(0);
    await context.close();
  });

  it('without script: two rows, the expand link shows every card, no filter offered', async () => {
    const opened = await open(1280, { script: false });
    const { grid, page, context } = opened;
    await waitForVisible(grid, 8);
    expect(await grid.locator('select').isVisible()).toBe(false);
    await grid.getByRole('link', { name: t('cardGrid.showMore') }).click();
    await waitForVisible(grid, 16);
    expect(await grid.getByRole('link', { name: t('cardGrid.showMore') }).isVisible()).toBe(false);
    expect(page.url()).toMatch(/#cards-/);
    await context.close();
  });

  // Where the demo content shows each card type of §3; every one is looked at in a screenshot.
  const gallery: [type: string, site: string, path: string][] = [
    ['headerImageSquare', 'ammattilaiset', '/'],
    ['headerImageTall', 'delise', '/'],
    ['headerImageWide', 'goohse', '/'],
    ['headerImageXtraTall', 'sibylla', '/vinkit-ja-ideat/evaat'],
    ['recipeCard', 'ammattilaiset', '/'],
    ['jyvabroilerRecipeCard', 'jyvabroiler', '/'],
    ['cisionCard', 'konsernifi', '/'],
    ['ridderheimsCard', 'ridderheimsse', '/'],
    ['sibyllaCard', 'sibylla', '/'],
    ['MFProductCard', 'mestariforsmanfi', '/'],
    ['mynewsdeskCard', 'koncernse', '/'],
  ];

  it.each(gallery)('draws %s cards (%s%s), axe clean', async (type, siteId, url) => {
    // One page, looked at 1280 px and then with the window narrowed to 375 px (the card grid's
    // own tests load each width).
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems = watchProblems(page);
    const response = await page.goto(`http://${siteId}.localhost:${port}${url}`);
    expect(response?.status()).toBe(200);
    const card = page.locator(`article[data-card-type="${type}"]`).first();
    const cardOfType = page.locator(`article[data-card-type="${type}"]`);
    const islands = page.locator('k-island[data-name="card-grid"]', { has: cardOfType });
    for (const width of [1280, 375]) {
      if (width !== 1280) await page.setViewportSize({ width, height: 900 });
      await card.evaluate((el) => {
        window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - 200);
      });
      await settledInWindow(page);
      expect(await card.isVisible()).toBe(true);
      if (await islands.count()) {
        await page
          .locator('k-island[data-name="card-grid"][data-hydrated]', { has: cardOfType })
          .first()
          .waitFor();
      }
      if (width === 1280) expect(await seriousViolations(page)).toEqual([]);
      await cardTypePicture(page, `${type}-${width}`);
    }
    expect(problems.console).toEqual([]);
    await context.close();
  });
});
