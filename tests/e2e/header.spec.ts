import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { getSite } from '../../src/sites/registry.ts';
import type { Site } from '../../src/sites/types.ts';
import {
  animationsDone,
  axeViolations,
  chromiumForFile,
  frames,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';
import {
  expectHomeBasics,
  expectOneWholeRow,
  headerSiteIds,
  hexToRgb,
  measure,
} from './home-page.ts';

/**
 * The site header in the browser, on the sites of every header variant, at 1280 px (desktop) and
 * 375 px (mobile): no layout shift from the first paint through hydration, mode per width, the
 * sticky bar, mega menus and dropdowns by mouse and keyboard, the side menu (focus trap,
 * accordions, Escape), the mobile bar's row of links, the logo's shown text in its name, the language switch, axe with menus open and closed, and no console errors.
 * It runs on whatever page tree the server has (the seed when it exists); the checks that need
 * tabs say so when a site has none.
 */

const port = serverPort();
const siteIds = headerSiteIds;

let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

function siteOf(id: string): Site {
  const site = getSite(id);
  if (!site) throw new Error(`no site ${id}`);
  return site;
}

const shot = screenshots('header');

/** Layout shifts as the page reports them, with each moved node's place. */
interface Shift {
  value: number;
  hadRecentInput: boolean;
  sources: { inHeader: boolean | null; node: string; from: number[]; to: number[] }[];
}

/**
 * Records every layout shift from the first paint on (buffered), with whether each moved node
 * belongs to the header island; `null` when the node has left the document before it could be
 * looked at.
 */
function recordLayoutShifts(): void {
  const shifts: unknown[] = [];
  const w = window as unknown as { __shifts: unknown[]; __shiftsSupported: boolean };
  w.__shifts = shifts;
  w.__shiftsSupported = PerformanceObserver.supportedEntryTypes.includes('layout-shift');
  const rect = (r: DOMRectReadOnly) => [r.x, r.y, r.width, r.height].map(Math.round);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const shift = entry as PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: {
          node: Node | null;
          previousRect: DOMRectReadOnly;
          currentRect: DOMRectReadOnly;
        }[];
      };
      shifts.push({
        value: shift.value,
        hadRecentInput: shift.hadRecentInput,
        sources: (shift.sources ?? []).map((source) => {
          const node = source.node;
          const el = node instanceof Element ? node : (node?.parentElement ?? null);
          return {
            inHeader: el?.isConnected ? !!el.closest('k-island[data-name^="site-header"]') : null,
            node: el ? `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}` : 'gone',
            from: rect(source.previousRect),
            to: rect(source.currentRect),
          };
        }),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const readShifts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts.slice());

/**
 * The header did not move from the first paint through its hydration, and the page's layout did
 * not shift at all: read once the fonts are in and two more frames are drawn, before any input.
 */
async function expectNoLayoutShift(page: Page, id: string, width: number) {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await frames(page);
  expect(
    await page.evaluate(
      () => (window as unknown as { __shiftsSupported: boolean }).__shiftsSupported,
    ),
  ).toBe(true);
  const shifts = await readShifts(page);
  const header = shifts.filter((s) => s.sources.some((src) => src.inHeader !== false));
  const cls = shifts.reduce((sum, s) => sum + (s.hadRecentInput ? 0 : s.value), 0);
  console.info(`${id} ${width}px: page CLS ${cls.toFixed(4)}, header shifts ${header.length}`);
  expect(header, JSON.stringify(shifts)).toEqual([]);
  expect(cls, JSON.stringify(shifts)).toBe(0);
}

/** The measurement sees a header that does move: its bar moves down when the header grows. */
async function expectShiftSeen(page: Page) {
  await page.evaluate(() => {
    const header = document.querySelector('header');
    if (header) header.style.paddingTop = '40px';
  });
  await expect
    .poll(async () =>
      (await readShifts(page)).some((s) => s.sources.some((src) => src.inHeader === true)),
    )
    .toBe(true);
}

async function open(
  id: string,
  width: number,
  url = '/',
): Promise<{ context: BrowserContext; page: Page; problems: ReturnType<typeof watchProblems> }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  context.setDefaultTimeout(10_000);
  await context.addInitScript(recordLayoutShifts);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(`http://${id}.localhost:${port}${url}`);
  expect(response?.status()).toBe(200);
  await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
  return { context, page, problems };
}

/** The sites whose logo shows the site's name as text (the others' logos are pictures only). */
const logoWithText = new Set(['lihakauppa', 'sibylla', 'konsernifi', 'export']);

/**
 * Every logo link in sight has its shown text in its accessible name (WCAG 2.5.3), read from the
 * accessibility tree and by axe's own check of it (an experimental rule, off by default).
 */
async function expectLogoNamesHoldTheirText(page: Page) {
  const logos = page.locator('a:has(svg[data-logo])').filter({ visible: true });
  expect(await logos.count()).toBeGreaterThan(0);
  for (const logo of await logos.all()) {
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what counts
    const shown = (await logo.innerText()).replace(/\s+/g, ' ').trim();
    const name = /- link "([^"]*)"/.exec(await logo.ariaSnapshot())?.[1] ?? '';
    expect(shown.length).toBeGreaterThan(0);
    expect(name.toLowerCase()).toContain(shown.toLowerCase());
  }
  const mismatch = await axeViolations(page, {
    runOnly: { type: 'rule', values: ['label-content-name-mismatch'] },
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
  expect(mismatch.map((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
}

const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);

/** The panel a disclosure toggle controls. */
function panelOf(page: Page, toggle: Locator): Promise<Locator> {
  return toggle
    .getAttribute('aria-controls')
    .then((id) => page.locator(`[id="${id ?? 'missing'}"]`));
}

describe.each(siteIds.map((id) => [id, siteOf(id)] as const))('%s header', (id, site) => {
  const lang = site.languages[0];
  const t = serverT(lang);

  it('at 1280 px: language, title, logo, theme, no layout shift, desktop mode, menus by mouse and keyboard, sticky bar, axe, no errors', async () => {
    const { context, page, problems } = await open(id, 1280);
    await expectNoLayoutShift(page, id, 1280);
    await expectHomeBasics(page, site);
    const header = page.locator('header');
    // By CSS, not by role, so that "hidden" is a finding and not a missing element.
    const burger = header.locator(`button[aria-label="${t('menu.label')}"]`);
    const bottomNav = page.getByRole('navigation', { name: t('layout.mainNavigation') });

    // Desktop mode: tabs and the search box show, the mobile bar's controls do not.
    expect(await burger.isVisible()).toBe(false);
    const search = header.getByRole('search', { name: t('search.label') });
    expect(await search.isVisible()).toBe(true);
    expect(await search.getAttribute('action')).toBe(
      { fi: '/haku', sv: '/sok', en: '/search' }[lang],
    );
    // The quick search: a combobox over its results.
    expect(await search.getByRole('combobox').getAttribute('placeholder')).toBe(
      t('search.placeholder'),
    );
    expect(await search.getByRole('button', { name: t('search.button') }).isVisible()).toBe(true);
    if (site.header.variant === 'shop') {
      const cart = header.getByRole('link', { name: t('header.cart') });
      expect(await cart.getAttribute('href')).toBe('/ostoskori#tuotteet');
      // An anonymous visitor sees the login link (the session holds no customer).
      const login = header.getByRole('link', { name: t('header.login') });
      expect(await login.isVisible()).toBe(true);
      expect(await login.getAttribute('href')).toBe(site.account?.loginHref);
      expect(await header.getByRole('link', { name: t('header.account') }).count()).toBe(0);
    }
    if (site.header.variant === 'master-chef') {
      expect(await page.getByRole('navigation', { name: t('header.topNavigation') }).count()).toBe(
        0,
      );
    }
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${id}-1280`);
    if (logoWithText.has(id)) await expectLogoNamesHoldTheirText(page);

    const tabCount = await bottomNav.count();
    // By CSS, not by role: the row leaves the accessibility tree at the mobile width.
    const toggles = page.locator('[data-header-row="bottom"] nav button[aria-expanded]');
    const toggleCount = tabCount ? await toggles.count() : 0;
    if (toggleCount === 0) {
      console.warn(`${id}: no tabs with children; menu checks skipped`);
    } else {
      // Mouse: hovering a tab opens its panel, leaving closes it.
      const first = toggles.first();
      const panel = await panelOf(page, first);
      const item = bottomNav.locator('li:has(> button[aria-expanded])').first();
      await item.hover();
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      const kind = site.header.variant === 'corporate' || site.header.variant === 'simple-dropdown';
      const panelWidth = (await panel.boundingBox())?.width ?? 0;
      // A mega menu spans the window; a simple dropdown is narrow.
      expect(kind ? panelWidth < 600 : panelWidth >= 1200).toBe(true);
      expect(await panel.getByRole('link').count()).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-1280-menu`);
      await page.mouse.move(640, 780);
      await expect.poll(() => panel.isVisible()).toBe(false);

      // Keyboard: Enter opens, Down enters the panel, Escape closes and returns focus.
      await first.focus();
      await page.keyboard.press('Enter');
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => panel.isVisible()).toBe(true);
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => panel.getByRole('link').first().evaluate(isActive)).toBe(true);
      await page.keyboard.press('Escape');
      expect(await first.getAttribute('aria-expanded')).toBe('false');
      expect(await panel.isVisible()).toBe(false);
      expect(await isFocused(first)).toBe(true);

      if (toggleCount > 1) {
        // Arrows move between the row's toggles; one panel at a time.
        const second = toggles.nth(1);
        await page.keyboard.press('ArrowRight');
        expect(await isFocused(second)).toBe(true);
        await page.keyboard.press('ArrowLeft');
        expect(await isFocused(first)).toBe(true);
        await page.keyboard.press('End');
        expect(await isFocused(toggles.last())).toBe(true);
        await first.click();
        await second.click();
        expect(await first.getAttribute('aria-expanded')).toBe('false');
        expect(await second.getAttribute('aria-expanded')).toBe('true');
        await page.keyboard.press('Escape');
        expect(await second.getAttribute('aria-expanded')).toBe('false');
      }
    }

    // Sticky: below the threshold the bottom row is in the header; at it, fixed with the compact search.
    if (tabCount) {
      const row = page.locator('[data-header-row="bottom"]');
      const compact = page.getByRole('search', { name: t('header.stickySearch') });
      const threshold = site.header.stickyThreshold;
      const scrollTo = async (y: number) => {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
      };
      const position = () => row.evaluate((el) => getComputedStyle(el).position);
      await scrollTo(threshold - 1);
      expect(await position()).toBe('absolute');
      expect(await compact.isVisible()).toBe(false);
      await scrollTo(threshold);
      await expect.poll(position).toBe('fixed');
      expect((await row.boundingBox())?.y).toBe(0);
      expect(await compact.isVisible()).toBe(true);
      expect((await compact.boundingBox())?.width).toBe(216);
      const background = await row.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background).toBe(
        site.header.variant === 'master-chef' ? hexToRgb(site.theme.brand) : 'rgb(255, 255, 255)',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-1280-sticky`);
      await scrollTo(0);
      await expect.poll(position).toBe('absolute');
    }

    // Switching to the mobile width closes a desktop menu, 100 ms after the last resize event.
    if (toggleCount > 0) {
      await toggles.first().click();
      expect(await toggles.first().getAttribute('aria-expanded')).toBe('true');
      const delay = await watchCollapse(toggles.first());
      await page.setViewportSize({ width: 375, height: 800 });
      await expect.poll(() => toggles.first().getAttribute('aria-expanded')).toBe('false');
      expectDebounced(await delay());
      expect(await burger.isVisible()).toBe(true);
    }

    await expectShiftSeen(page);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('at 375 px: no layout shift, mobile bar, side menu with focus trap and accordions, quick search, axe, no errors', async () => {
    const { context, page, problems } = await open(id, 375);
    await expectNoLayoutShift(page, id, 375);
    const header = page.locator('header');
    // By CSS, not by role, so that "hidden" is a finding and not a missing element.
    const burger = header.locator(`button[aria-label="${t('menu.label')}"]`);
    const dialog = page.getByRole('dialog');

    // The mobile bar: one 56 px row whose links all show whole.
    await expectOneWholeRow(page, t, id);

    // Mobile mode: the bar with the burger and search toggle; the desktop rows are hidden.
    expect(await burger.isVisible()).toBe(true);
    expect(await header.locator(`form[aria-label="${t('search.label')}"]`).isVisible()).toBe(false);
    expect(await page.locator('[data-header-row="bottom"]').isVisible()).toBe(false);
    for (const control of [
      burger,
      header.getByRole('button', { name: t('header.searchToggle') }),
    ]) {
      const box = await control.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(44);
      expect(box?.height).toBeGreaterThanOrEqual(44);
    }
    // With an empty cart the shop's bar shows no cart icon.
    if (site.header.variant === 'shop') {
      expect(await header.getByRole('link', { name: t('header.cart') }).isVisible()).toBe(false);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${id}-375`);

    // The bar stays at the top of the window; on the shop the logo leaves after any scroll.
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(async () => (await header.boundingBox())?.y).toBe(0);
    const logo = header.getByRole('link', { name: t('layout.homeLink', { name: site.name }) });
    await expect.poll(() => logo.isVisible()).toBe(site.header.variant !== 'shop');
    await page.evaluate(() => window.scrollTo(0, 0));

    // Quick search: opens with focus in the box; Escape closes and returns focus.
    const searchToggle = header.getByRole('button', { name: t('header.searchToggle') });
    await searchToggle.click();
    const quick = page.getByRole('search', { name: t('header.quickSearch') });
    await expect.poll(() => quick.isVisible()).toBe(true);
    expect(await isFocused(quick.getByRole('combobox'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => quick.isVisible()).toBe(false);
    expect(await isFocused(searchToggle)).toBe(true);

    // Side menu: opens from the burger with focus on its close button.
    await burger.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await burger.getAttribute('aria-expanded')).toBe('true');
    const close = dialog.getByRole('button', { name: t('menu.close') });
    await expect.poll(() => isFocused(close)).toBe(true);
    // The bar's logo and the side menu's.
    if (logoWithText.has(id)) await expectLogoNamesHoldTheirText(page);
    const hasSearch = await dialog.getByRole('search').count();
    expect(hasSearch).toBe(site.header.variant === 'master-chef' ? 0 : 1);
    if (site.header.variant === 'third-brand') {
      const home = dialog.getByRole('link', { name: t('menu.home'), exact: true });
      expect(await home.isVisible()).toBe(true);
    }

    // Focus stays inside: Tab past the last element wraps to the first, Shift+Tab back.
    const inside = () => dialog.evaluate((el) => el.contains(document.activeElement));
    const steps = (await dialog.locator('a:visible, button:visible, input:visible').count()) + 2;
    for (let i = 0; i < steps; i++) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    await close.focus();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside()).toBe(true);
    }

    // Accordions: a toggle opens its children (export lists them open; master-chef has links only).
    const accordions = dialog.locator('nav button[aria-expanded]');
    const accordionCount = await accordions.count();
    if (site.header.variant === 'master-chef' || site.header.variant === 'export') {
      expect(await accordions.count()).toBe(0);
    } else if (accordionCount === 0) {
      console.warn(`${id}: no navigation entries with children; accordion check skipped`);
    } else {
      const accordion = accordions.first();
      const panel = await panelOf(page, accordion);
      expect(await accordion.getAttribute('aria-expanded')).toBe('false');
      expect(await panel.getByRole('link').first().isVisible()).toBe(false);
      await accordion.click();
      expect(await accordion.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => panel.getByRole('link').first().isVisible()).toBe(true);
      // It grows to its content (after a 250 ms transition), never past 800 px.
      const height = () => panel.evaluate((el) => el.getBoundingClientRect().height);
      await expect.poll(height).toBeGreaterThan(100);
      await animationsDone(panel);
      expect(await height()).toBeLessThanOrEqual(800);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${id}-375-side`);

    // Escape closes and returns focus to the burger.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await burger.getAttribute('aria-expanded')).toBe('false');
    expect(await isFocused(burger)).toBe(true);

    // The close button does too; the third brand also closes on a press outside.
    await burger.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    if (site.header.variant === 'third-brand') {
      await page.mouse.click(365, 400);
      await expect.poll(() => dialog.isVisible()).toBe(false);
      await burger.click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
    }
    await close.click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await isFocused(burger)).toBe(true);

    // Switching to the desktop width closes the side menu, 100 ms after the last resize event.
    await burger.click();
    await expect.poll(() => dialog.isVisible()).toBe(true);
    const delay = await watchCollapse(burger);
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => burger.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expectDebounced(await delay());

    await expectShiftSeen(page);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('the shop inside a frame', () => {
  /**
   * A page of `parent`'s origin that frames the home page of `id`: the shop is framed by the
   * other sites for cart sync, which the frame policy allows; any site may frame itself.
   */
  async function framing(id: string, width: number, parent = id, wait = true) {
    const origin = `http://${parent}.localhost:${port}`;
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    // A real page of the parent site (a page made up by the test would count as a public
    // address, and Chromium keeps public pages from framing local ones), emptied but for the frame.
    await page.goto(`${origin}/`);
    await page.evaluate(
      ({ src, title, width }) => {
        const frame = document.createElement('iframe');
        Object.assign(frame, { src, title });
        frame.style.cssText = `border:0;width:${width}px;height:800px`;
        document.body.replaceChildren(frame);
        document.body.style.margin = '0';
      },
      { src: `http://${id}.localhost:${port}/`, title: id, width },
    );
    const frame = page.frameLocator('iframe');
    if (wait) {
      await frame
        .locator('k-island[data-name^="site-header"][data-hydrated]')
        .waitFor({ state: 'attached' });
    }
    return { context, page, frame, problems };
  }

  it('a brand site may not be framed by another one', async () => {
    const { context, page } = await framing('konsernifi', 1280, 'sibylla', false);
    await expect.poll(() => page.frames()[1]?.url() ?? '').toMatch(/^chrome-error:/);
    await context.close();
  });

  it.each([1280, 375])('shows no header at %i px; the page itself still does', async (width) => {
    const { context, page, frame, problems } = await framing('lihakauppa', width, 'sibylla');
    expect(await frame.locator('header').count()).toBe(0);
    expect(await frame.getByRole('dialog', { includeHidden: true }).count()).toBe(0);
    // The page's content is all there.
    expect(await frame.locator('main#main').isVisible()).toBe(true);
    await shot(page, `lihakauppa-framed-${width}`);
    expect(problems.console).toEqual([]);
    await context.close();

    // The same page at the top level keeps its header.
    const top = await open('lihakauppa', width);
    expect(await top.page.locator('header').isVisible()).toBe(true);
    await top.context.close();
  });

  it('leaves the header of another site in a frame', async () => {
    const { context, frame } = await framing('sibylla', 1280);
    await expect.poll(() => frame.locator('header').isVisible()).toBe(true);
    await context.close();
  });
});

describe('language switch in the header', () => {
  it.each([
    ['konsernifi', 'In English', 'Suomeksi'],
    ['koncernse', 'In English', 'På svenska'],
    ['sibylla', 'In English', 'Suomeksi'],
  ] as const)('%s: to /en/ and back to /', async (id, there, back) => {
    const { context, page, problems } = await open(id, 1280);
    const origin = `http://${id}.localhost:${port}`;
    const header = page.locator('header');
    const follow = async (label: string) => {
      const link = header.getByRole('link', { name: label, exact: true });
      if (!(await link.isVisible())) {
        // Sites with more than two languages list them in a menu under the current one.
        await header.locator('[data-disclosure="language"]').hover();
        await expect.poll(() => link.isVisible()).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
      }
      await link.click();
    };
    await follow(there);
    await page.waitForURL(`${origin}/en/`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    await follow(back);
    await page.waitForURL(`${origin}/`);
    expect(await page.getAttribute('html', 'lang')).toBe(siteOf(id).languages[0]);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('the mobile bar on every site', () => {
  it('where the links do not fit, the row fades at the end it hides and scrolls to it', async () => {
    const { context, page, problems } = await open('ammattilaiset', 320);
    const t = serverT('fi');
    const row = page.getByRole('navigation', { name: t('header.shortcuts') }).locator('ul');
    await expect
      .poll(async () => (await measure(page, t)).more)
      .toEqual({ start: false, end: true });
    const before = await measure(page, t);
    expect(before.bar).toBe(56);
    expect(before.hidden).toBeGreaterThan(0);
    expect(before.mask).not.toBe('none');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'bar-ammattilaiset-320');

    // Tab to the last link: the row scrolls it clear of the fade, and the fade moves to the start.
    const last = row.getByRole('link').last();
    await last.focus();
    await expect
      .poll(async () => (await measure(page, t)).more)
      .toEqual({ start: true, end: false });
    const [link, box] = await Promise.all([last.boundingBox(), row.boundingBox()]);
    expect((link?.x ?? 0) + (link?.width ?? 0)).toBeLessThanOrEqual(
      (box?.x ?? 0) + (box?.width ?? 0),
    );
    await shot(page, 'bar-ammattilaiset-320-end');
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

/**
 * Watches a toggle with aria-expanded="true" and the window's resize events; the returned
 * function gives the milliseconds from the last resize event to the toggle's collapse.
 */
async function watchCollapse(toggle: Locator): Promise<() => Promise<number>> {
  await toggle.evaluate((el) => {
    const times: { resize: number; collapse: number } = { resize: -1, collapse: -1 };
    (window as unknown as { __collapse: typeof times }).__collapse = times;
    window.addEventListener('resize', () => {
      times.resize = performance.now();
    });
    new MutationObserver(() => {
      if (times.collapse < 0 && el.getAttribute('aria-expanded') === 'false') {
        times.collapse = performance.now();
      }
    }).observe(el, { attributes: true, attributeFilter: ['aria-expanded'] });
  });
  return async () => {
    const times = await toggle.evaluate(
      () => (window as unknown as { __collapse: { resize: number; collapse: number } }).__collapse,
    );
    expect(times.resize).toBeGreaterThan(0);
    expect(times.collapse).toBeGreaterThan(0);
    return times.collapse - times.resize;
  };
}

/** The mode is re-read 100 ms after the last resize (spec §9), not at once and not much later. */
function expectDebounced(ms: number): void {
  // The test's listener runs just after the header's, so the timer may seem a hair early.
  expect(ms).toBeGreaterThanOrEqual(95);
  expect(ms).toBeLessThan(1_000);
}

function isActive(el: Element): boolean {
  return el === document.activeElement;
}
