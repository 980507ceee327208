import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * Keyboard use of whole pages (WCAG 2.1.1, 2.1.2, 2.4.7, 2.4.11): Tab and Shift+Tab through inner
 * pages of several sites, at 1280 px (desktop header with its sticky bar) and 375 px (mobile bar
 * with the side menu), and at every stop the focused element must be shown, inside the window,
 * not covered (by the sticky header or anything else) and outside every closed menu, and the walk
 * must reach the end of the page. The pages lie inside navigation sections with children, so the
 * side menu holds an expanded accordion for them: the case where a closed side menu used to take
 * focus and keep it.
 */

const port = serverPort();
const shot = screenshots('keyboard');
const t = serverT('fi');
let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

/** At most this many stops in one direction; a page that needs more has a trap. */
const MAX_STOPS = 400;

interface Stop {
  /**
   * The end of the page: focus left the last element for the document, or came round to the
   * walk's first element again (Shift+Tab wraps from the first element to the last).
   */
  end: boolean;
  /** The element, readably. */
  what: string;
  /** Which stop of the walk first focused the same element, if any. */
  seenAt: number | undefined;
  /** Whether the element is inside the page's main content. */
  inMain: boolean;
  problems: string[];
}

/**
 * Where focus is and what is wrong with it, measured in the page. Runs in the browser (no
 * closures): it keeps the elements already seen in a WeakMap on the window to find cycles.
 */
function inspectFocus(step: number): Stop {
  const w = window as unknown as { __seen?: WeakMap<Element, number> };
  w.__seen ??= new WeakMap();
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) {
    return { end: true, what: 'body', seenAt: undefined, inMain: false, problems: [] };
  }
  const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
  const label = el.getAttribute('aria-label') ?? el.getAttribute('name') ?? '';
  const what = `<${el.tagName.toLowerCase()}> "${label || text}"`;
  const seenAt = w.__seen.get(el);
  if (seenAt === undefined) w.__seen.set(el, step);
  const problems: string[] = [];
  const rect = el.getBoundingClientRect();
  const shown =
    rect.width > 0 &&
    rect.height > 0 &&
    el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  if (!shown) problems.push('not visible');
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  if (rect.left < -1 || rect.right > window.innerWidth + 1 || y < 0 || y > window.innerHeight) {
    problems.push(
      `outside the window (${Math.round(rect.left)},${Math.round(rect.top)} ${Math.round(rect.width)}×${Math.round(rect.height)})`,
    );
  } else {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit))) {
      const cover = hit?.closest('header')
        ? 'the sticky header'
        : `<${hit?.tagName.toLowerCase()}>`;
      problems.push(`covered by ${cover}`);
    }
  }
  // A disclosure that says it is closed must hold no focus: the side menu behind its burger,
  // a desktop menu behind its toggle, an accordion.
  for (const toggle of document.querySelectorAll('[aria-controls][aria-expanded="false"]')) {
    const controlled = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    if (controlled?.contains(el)) {
      problems.push(
        `inside a closed menu (${toggle.getAttribute('aria-label') ?? toggle.textContent})`,
      );
    }
  }
  return { end: false, what, seenAt, inMain: el.closest('main') !== null, problems };
}

/** Two frames: scroll handlers and the header's sticky state have run. */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Presses `key` until focus reaches the end of the page, a cycle or the limit, and gives every
 * stop. Focus starts wherever it is (the document on a fresh page).
 */
async function walk(page: Page, key: 'Tab' | 'Shift+Tab'): Promise<Stop[]> {
  await page.evaluate(() => {
    (window as unknown as { __seen?: WeakMap<Element, number> }).__seen = new WeakMap();
  });
  const stops: Stop[] = [];
  for (let step = 0; step < MAX_STOPS; step++) {
    await page.keyboard.press(key);
    await settle(page);
    const stop = await page.evaluate(inspectFocus, step);
    if (stop.seenAt === 0) stop.end = true;
    stops.push(stop);
    if (stop.end || stop.seenAt !== undefined) break;
  }
  return stops;
}

/** Lines of the stops with problems, and of a walk that did not end. */
function findings(stops: Stop[]): string[] {
  const lines = stops.flatMap((s, i) =>
    s.problems.length > 0 ? [`stop ${i} ${s.what}: ${s.problems.join('; ')}`] : [],
  );
  const last = stops.at(-1);
  if (!last?.end) {
    const tail = stops
      .slice(-6)
      .map((s) => s.what)
      .join(' → ');
    lines.push(
      last?.seenAt !== undefined
        ? `focus went round in a cycle, back to stop ${last.seenAt}: … ${tail}`
        : `focus did not reach the end of the page in ${MAX_STOPS} stops: … ${tail}`,
    );
  }
  return lines;
}

interface InnerPage {
  site: string;
  /** The page, or how to find it (the shop's product is found from its listing). */
  path: (page: Page, origin: string) => Promise<string>;
}

const fixed = (p: string) => async () => p;

/** The first product of a product listing: a product page inside the shop's 'Tuotteet' section. */
async function firstProduct(page: Page, origin: string, listing: string): Promise<string> {
  await page.goto(`${origin}${listing}`);
  const href = await page.locator(`main a[href^="${listing}/"]`).first().getAttribute('href');
  if (!href) throw new Error(`no product on ${listing}`);
  return href;
}

/** Inner pages, each inside a navigation section that has children. */
const innerPages: InnerPage[] = [
  {
    site: 'lihakauppa',
    path: (page, origin) => firstProduct(page, origin, '/tuotteet/naudanliha'),
  },
  { site: 'sibylla', path: fixed('/reseptit/keitot') },
  { site: 'konsernifi', path: fixed('/yritys/strategia') },
  { site: 'jyvabroiler', path: fixed('/vinkit-ja-ideat/grillaus') },
];

describe.each(innerPages)('keyboard on an inner page of $site', ({ site, path: find }) => {
  it.each([1280, 375])(
    'at %i px: every focus stop is shown, uncovered and outside closed menus',
    async (width) => {
      const origin = `http://${site}.localhost:${port}`;
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const problems = watchProblems(page);
      const pagePath = await find(page, origin);
      const response = await page.goto(`${origin}${pagePath}`);
      expect(response?.status()).toBe(200);
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();

      // The page lies in a section with children: its accordion in the (closed) side menu is open.
      const burger = page.locator(`header button[aria-label="${t('menu.label')}"]`);
      const menu = page.locator(`[id="${await burger.getAttribute('aria-controls')}"]`);
      expect(await menu.locator('nav button[aria-expanded="true"]').count()).toBeGreaterThan(0);

      const forward = await walk(page, 'Tab');
      expect(findings(forward), `${site} ${pagePath} at ${width} px, Tab`).toEqual([]);
      // The walk went on from the header into the page's content.
      expect(forward.filter((s) => s.inMain).length).toBeGreaterThan(0);

      // Backwards, each element comes into view at the top edge: under the sticky bar if the page
      // does not keep it clear.
      const backward = await walk(page, 'Shift+Tab');
      expect(findings(backward), `${site} ${pagePath} at ${width} px, Shift+Tab`).toEqual([]);
      expect(backward.length).toBe(forward.length);

      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${site}-${width}`);
      expect(problems.console).toEqual([]);
      await context.close();
    },
  );
});

describe('the side menu and the page behind it', () => {
  it('at 375 px: the open menu keeps focus, the page behind is inert; closed, the menu is inert', async () => {
    const origin = `http://lihakauppa.localhost:${port}`;
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const product = await firstProduct(page, origin, '/tuotteet/naudanliha');
    await page.goto(`${origin}${product}`);
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    const burger = page.locator(`header button[aria-label="${t('menu.label')}"]`);
    const menu = page.locator(`[id="${await burger.getAttribute('aria-controls')}"]`);
    const inert = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => el.closest('[inert]') !== null);

    // Closed: the menu is inert, the page is not.
    expect(await menu.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    expect(await inert('main')).toBe(false);
    expect(await inert('footer')).toBe(false);

    await burger.click();
    await expect.poll(() => menu.evaluate((el) => (el as HTMLElement).inert)).toBe(false);
    const close = menu.getByRole('button', { name: t('menu.close') });
    await expect.poll(() => close.evaluate((el) => el === document.activeElement)).toBe(true);
    // Open: everything but the menu is inert, so neither a pointer nor a screen reader's
    // virtual cursor reaches the page behind.
    expect(await inert('main')).toBe(true);
    expect(await inert('footer')).toBe(true);
    expect(await inert('header')).toBe(true);
    expect(await inert('a[href="#main"]')).toBe(true);
    // Tab stays inside, both ways, through the expanded accordion too.
    const inside = () => menu.evaluate((el) => el.contains(document.activeElement));
    const count = await menu.locator('a:visible, button:visible, input:visible').count();
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await inside()).toBe(true);
    }
    for (let i = 0; i < count + 2; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await inside()).toBe(true);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // Escape closes it: focus back on the burger, the page live again, the menu inert.
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.evaluate((el) => (el as HTMLElement).inert)).toBe(true);
    expect(await burger.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await inert('main')).toBe(false);
    expect(await inert('header')).toBe(false);
    // Tab goes on from the burger into the page, not into the closed menu.
    await page.keyboard.press('Tab');
    expect(await inside()).toBe(false);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});
