import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
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
 * Accessibility of the page frame in Chromium at 1280 and 375 px: a followed link's target is
 * not hidden under the sticky header (WCAG 2.4.11), pages reflow at 320 px and with text-only
 * zoom to 200 % (1.4.10, 1.4.4), the language menu opens on a click or key only (3.2.1) and card
 * and news pictures have no alt text that repeats the heading or only names a category (1.1.1).
 * That the logo's visible text is in its name (2.5.3) is checked where the header's tests open
 * each site's home page (`header.spec.ts`).
 */

const port = serverPort();
const t = serverT('fi');
let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

const origin = (site: string) => `http://${site}.localhost:${port}`;

async function open(
  site: string,
  url: string,
  width: number,
): Promise<{ context: BrowserContext; page: Page; problems: ReturnType<typeof watchProblems> }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(`${origin(site)}${url}`);
  expect(response?.status()).toBe(200);
  await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
  return { context, page, problems };
}

/** Two frames: scroll handlers, resize observers and the header's sticky state have run. */
const settle = (page: Page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Text-only zoom to 200 %, as a browser's text size setting does it: the root font size doubles,
 * so every size in rem or em does, while the layout viewport and pixel sizes stay.
 */
async function zoomText(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.documentElement.style.fontSize = '200%';
  });
  await settle(page);
}

const shot = screenshots('accessibility');

/** The lowest edge of what the header keeps fixed or sticky at the top of the window. */
function stickyBottom(page: Page): Promise<number> {
  return page.evaluate(() => {
    const header = document.querySelector('header');
    if (!header) return 0;
    let bottom = 0;
    for (const el of [header, ...header.querySelectorAll('*')]) {
      const { position } = getComputedStyle(el);
      if (position !== 'fixed' && position !== 'sticky') continue;
      const rect = el.getBoundingClientRect();
      if (rect.height > 0 && rect.top <= 1) bottom = Math.max(bottom, rect.bottom);
    }
    return bottom;
  });
}

/** Where an element is, and whether what shows at its centre is the element itself. */
function placeOf(locator: Locator) {
  return locator.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return { top: rect.top, bottom: rect.bottom, onTop: !!hit && (hit === el || el.contains(hit)) };
  });
}

describe('a followed error-summary link leaves its field below the sticky header', () => {
  it.each([1280, 375])('at %i px', async (width) => {
    // A long form: its first field lies far above the summary at its foot.
    const { context, page, problems } = await open('sibylla', '/ota-yhteytta', width);
    const island = page.locator('k-island[data-name="form-retail-contact"]');
    await island.and(page.locator('[data-hydrated]')).waitFor();
    await island.getByRole('button', { name: 'Lähetä', exact: true }).press('Enter');
    const link = island.getByRole('alert').getByRole('link').first();
    await link.waitFor();
    const id = ((await link.getAttribute('href')) ?? '').slice(1);
    const field = page.locator(`[id="${id}"]`);
    const label = page.locator(`label[for="${id}"]`);
    expect(await label.count()).toBe(1);
    // A field high enough above the summary that the window scrolls up to it, under the bar.
    const follow = async () => {
      await link.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, window.innerHeight));
      await settle(page);
      await link.focus();
      await page.keyboard.press('Enter');
      await settle(page);
      await settle(page);
      return { field: await placeOf(field), bar: await stickyBottom(page) };
    };

    // The measurement sees a covered field: without the page's scroll padding it lies under the bar.
    await page.evaluate(() =>
      document.documentElement.style.setProperty('scroll-padding-top', '0'),
    );
    const unpadded = await follow();
    expect(unpadded.bar).toBeGreaterThan(0);
    expect(unpadded.field.top).toBeLessThan(unpadded.bar);

    await page.evaluate(() => document.documentElement.style.removeProperty('scroll-padding-top'));
    const { field: place, bar } = await follow();
    expect(bar).toBeGreaterThan(0);
    expect(place.top).toBeGreaterThanOrEqual(bar);
    expect(place.onTop).toBe(true);
    // Its label, above it, shows too.
    const labelPlace = await placeOf(label);
    expect(labelPlace.top).toBeGreaterThanOrEqual(bar);
    expect(labelPlace.onTop).toBe(true);
    expect(page.url()).toContain(`#${id}`);
    await shot(page, `summary-link-${width}`);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

/** A long Finnish compound that is the title of a seeded recipe in the shop. */
const LONG_WORD = 'Jauhelihaperunalaatikko';

/** The recipe, its section's listing (cards) and the site search for it (results). */
async function longWordPages(page: Page): Promise<string[]> {
  const hits = await page.evaluate(
    (q) =>
      fetch(`/api/search/content/?language=fi&q=${q}`)
        .then((r) => r.json())
        .then((r: { hits: { title: string; url: string }[] }) => r.hits),
    LONG_WORD.toLowerCase(),
  );
  const recipe = hits.find((h) => h.title === LONG_WORD)?.url;
  if (!recipe) throw new Error(`no recipe titled ${LONG_WORD}`);
  const listing = recipe.slice(0, recipe.lastIndexOf('/'));
  return [listing, recipe, `/haku?q=${LONG_WORD.toLowerCase()}`];
}

/**
 * What is wrong with the page's layout: sideways scrolling, and any element showing the long
 * word that reaches out of the window or out of a box that clips it (a card), or overflows its
 * own box.
 */
function reflowProblems(word: string): { found: number; problems: string[] } {
  const problems: string[] = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  }
  const holders = [...document.querySelectorAll('main *')].filter((el) =>
    [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.includes(word)),
  );
  for (const el of holders) {
    const name = `<${el.tagName.toLowerCase()}> "${el.textContent?.trim().slice(0, 40)}"`;
    const rects = [...el.getClientRects()];
    if (rects.some((r) => r.left < -1 || r.right > width + 1)) {
      problems.push(`${name} reaches out of the window`);
    }
    if (getComputedStyle(el).display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name} overflows its box: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const clip = box.getBoundingClientRect();
      if (rects.some((r) => r.left < clip.left - 1 || r.right > clip.right + 1)) {
        problems.push(`${name} is clipped by <${box.tagName.toLowerCase()}>`);
      }
    }
  }
  return { found: holders.length, problems };
}

describe('reflow with a long compound word', () => {
  it.each([
    [320, 'text at 100 %', false],
    [375, 'text zoomed to 200 %', true],
    [1280, 'text zoomed to 200 %', true],
  ] as const)('at %i px, %s', async (width, _text, zoomed) => {
    const { context, page, problems } = await open('lihakauppa', '/', width);
    const pages = await longWordPages(page);
    for (const [index, url] of pages.entries()) {
      await page.goto(`${origin('lihakauppa')}${url}`);
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      if (url.startsWith('/haku')) await page.locator('main li a').first().waitFor();
      if (zoomed) await zoomText(page);
      const found = await page.evaluate(reflowProblems, LONG_WORD);
      expect(found.found, `${url}: the long word is on the page`).toBeGreaterThan(0);
      expect(found.problems, `${url} at ${width} px${zoomed ? ', text 200 %' : ''}`).toEqual([]);

      // The header's controls stay in the window and uncovered: on the desktop the login link
      // and the search button of the tool row, on the mobile bar the menu and search buttons.
      const header = page.locator('header');
      const controls =
        width > 1024
          ? [
              header.getByRole('link', { name: t('header.login') }),
              header
                .getByRole('search', { name: t('search.label') })
                .getByRole('button', { name: t('search.button') }),
            ]
          : [
              header.getByRole('button', { name: t('menu.label') }),
              header.getByRole('button', { name: t('header.searchToggle') }),
            ];
      for (const control of controls) {
        const box = await control.boundingBox();
        expect(box, `${url}: ${control}`).not.toBeNull();
        expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
        expect((await placeOf(control)).onTop).toBe(true);
      }
      const kind = ['listing', 'recipe', 'search'][index];
      expect(await seriousViolations(page), url).toEqual([]);
      await shot(page, `reflow-${kind}-${width}${zoomed ? '-text200' : ''}`);
    }
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('the language menu', () => {
  it('opens on a click, Enter or Space, not when Tab passes it', async () => {
    const { context, page, problems } = await open('sibylla', '/', 1280);
    const toggle = page.locator('header [data-disclosure="language"]');
    const list = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    const focused = () => page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80));
    // Tab up to the menu's button: it stays closed.
    for (
      let i = 0;
      i < 30 && !(await toggle.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await page.keyboard.press('Tab');
    }
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await settle(page);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await list.isVisible()).toBe(false);
    // The next Tab leaves the menu: one stop, no language links on the way.
    await page.keyboard.press('Tab');
    expect(await list.evaluate((el) => el.contains(document.activeElement))).toBe(false);
    expect(await focused()).not.toContain('hreflang');
    await page.keyboard.press('Shift+Tab');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Enter opens it, and Tab then goes into its links; Escape closes it and returns focus.
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => list.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await list.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    // Space opens it too.
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

/** Words of a text for comparison: lower case, without punctuation. */
function words(text: string): string {
  return ` ${text
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

describe('alt texts of pictures', () => {
  it.each([
    ['sibylla', '/'],
    ['konsernifi', '/'],
    ['lihakauppa', '/reseptit/laatikot-ja-kiusaukset'],
    ['mestariforsmanfi', '/tuotteet'],
  ])('%s %s: no card picture repeats its heading in its alt text', async (site, url) => {
    const { context, page } = await open(site, url, 1280);
    const cards = await page.locator('article[data-card-type]').evaluateAll((articles) =>
      articles.flatMap((a) => {
        const img = a.querySelector('img');
        const heading = a.querySelector('h2, h3')?.textContent ?? '';
        return img ? [{ alt: img.getAttribute('alt'), heading }] : [];
      }),
    );
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.alt, card.heading).not.toBeNull();
      const alt = card.alt ?? '';
      if (alt !== '') expect(words(card.heading).includes(words(alt)), card.heading).toBe(false);
    }
    await context.close();
  });

  it('a news release: its picture is decorative, not named by its topic', async () => {
    const { context, page } = await open('konsernifi', '/uutiset', 1280);
    const release = await page.locator('main a[href^="/uutiset/20"]').first().getAttribute('href');
    await page.goto(`${origin('konsernifi')}${release}`);
    const picture = page.locator('main article img').first();
    await picture.waitFor();
    expect(await picture.getAttribute('alt')).toBe('');
    // The topics of the newsroom, none of which names a picture.
    const topics = await page.evaluate(() =>
      fetch('/api/search/newsroom?language=fi&pageSize=1')
        .then((r) => r.json())
        .then((r: { facetCategories: { facetTags: { name: string }[] }[] }) =>
          r.facetCategories.flatMap((c) => c.facetTags.map((tag) => tag.name)),
        ),
    );
    const alts = await page
      .locator('img')
      .evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')));
    for (const alt of alts) expect(topics).not.toContain(alt);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('the axe check the browser tests use', () => {
  it('finds serious violations, again after a change in the same document', async () => {
    const { context, page } = await open('sibylla', '/', 1280);
    expect(await seriousViolations(page)).toEqual([]);
    // A picture without a text alternative and pale grey text on white, made after the first
    // check: the second one runs again in the document it has already been put into.
    await page.evaluate(() => {
      const main = document.querySelector('main');
      const picture = document.createElement('img');
      picture.src = '/favicon.ico';
      picture.id = 'no-alt';
      const pale = document.createElement('p');
      pale.id = 'pale';
      pale.textContent = 'Vaalea teksti valkoisella';
      pale.style.cssText = 'color: #ddd; background: #fff';
      main?.prepend(picture, pale);
    });
    const found = await seriousViolations(page);
    expect(found.find((line) => line.startsWith('image-alt'))).toContain('#no-alt');
    expect(found.find((line) => line.startsWith('color-contrast'))).toContain('#pale');
    await context.close();
  });
});
