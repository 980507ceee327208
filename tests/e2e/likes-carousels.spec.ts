import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BRAND_AUTOPLAY_SECONDS } from '../../src/features/content/carousel/brand-logo-carousel.tsx';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  animationsDone,
  chromiumForFile,
  hydrated,
  idle,
  isFocused,
  screenshots,
  scrollIslandIntoView,
  seriousViolations,
  siteOrigin,
  watchProblems,
} from './browser.ts';

/**
 * Issue 15's likes, recipe banner and carousels in the browser, at 1280 and 375 px: the like
 * button counts once across reloads; the banner shows on phones, closes and stays closed; the card
 * carousel and the brand-logo carousel work by keyboard and with reduced motion; axe finds nothing
 * serious in any state.
 */

const t = serverT('fi');
const SITE = 'jyvabroiler';
const CORPORATE = 'konsernifi';
const shot = screenshots('likes-carousels');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

async function open(
  url: string,
  width: number,
  options: {
    reducedMotion?: 'reduce' | 'no-preference';
    /** The page's timers on Playwright's clock, so a test can run them ahead. */
    clock?: boolean;
  } = {},
) {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  context.setDefaultTimeout(10_000);
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(url);
  expect(response?.status()).toBe(200);
  return { context, page, problems };
}

/** A recipe page of the site: the first card of the home page's card carousel. */
async function recipeUrl(): Promise<string> {
  const { context, page } = await open(`${siteOrigin(SITE)}/`, 1280);
  const href = await page
    .locator('k-island[data-name="card-carousel"] li a')
    .first()
    .getAttribute('href');
  await context.close();
  if (!href) throw new Error('no recipe card in the carousel');
  return new URL(href, siteOrigin(SITE)).toString();
}

const countText = (page: Page) => page.locator('[data-like-count]').textContent();

describe('like button', () => {
  for (const width of [1280, 375]) {
    // The reloads (the count stored, counted once per visitor) do not depend on the width: at
    // 375 px the button before and after a like, with axe (decision 155).
    const title =
      width === 1280
        ? `at ${width} px counts once across reloads and starts disabled once liked`
        : `at ${width} px counts a like and shows it disabled`;
    it(title, async () => {
      const url = await recipeUrl();
      const { context, page, problems } = await open(url, width);
      const button = page.locator('[data-like-button]');
      await button.hover();
      await hydrated(page, 'like-button');
      expect(await button.isEnabled()).toBe(true);
      const before = Number((await countText(page))?.match(/\d+/)?.[0]);
      expect(Number.isFinite(before)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `like-before-${width}`);

      const answer = page.waitForResponse((r) => r.url().includes('/api/contentlikecount/'));
      await button.click();
      const response = await answer;
      expect(response.status()).toBe(200);
      // The stored count: the page may be up to a minute older than another visitor's like
      // (decision 053), so it is at least one more than the page showed.
      const stored = ((await response.json()) as { likeCount: number }).likeCount;
      expect(stored).toBeGreaterThanOrEqual(before + 1);
      await expect.poll(() => countText(page)).toBe(t('likes.count', { count: stored }));
      expect(await button.isDisabled()).toBe(true);
      expect(await button.textContent()).toContain(t('likes.liked'));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `like-after-${width}`);

      if (width === 1280) {
        // Reload: the stored count, and the button disabled from local storage.
        await page.reload();
        await page.locator('[data-like-button]').hover();
        await hydrated(page, 'like-button');
        await expect.poll(() => page.locator('[data-like-button]').isDisabled()).toBe(true);
        expect(await countText(page)).toBe(t('likes.count', { count: stored }));

        // Even with local storage cleared the server counts this visitor once.
        await page.evaluate(() => window.localStorage.clear());
        await page.reload();
        await page.locator('[data-like-button]').hover();
        await hydrated(page, 'like-button');
        const again = page.waitForResponse((r) => r.url().includes('/api/contentlikecount/'));
        await page.locator('[data-like-button]').click();
        expect(((await (await again).json()) as { counted: boolean }).counted).toBe(false);
        await expect.poll(() => countText(page)).toBe(t('likes.count', { count: stored }));
        await page.reload();
        expect(await countText(page)).toBe(t('likes.count', { count: stored }));
      }
      expect(problems.console).toEqual([]);
      await context.close();
    });
  }
});

describe('recipe banner', () => {
  it('at 375 px shows at the bottom, closes, and stays closed after a reload', async () => {
    const url = await recipeUrl();
    const { context, page, problems } = await open(url, 375);
    const banner = page.locator('[data-recipe-banner]');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain(t('recipeBanner.default'));
    const box = await banner.boundingBox();
    expect(box && box.y + box.height).toBeCloseTo(900, 0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'banner-375');
    const close = banner.getByRole('button', { name: t('recipeBanner.close') });
    await close.hover();
    await hydrated(page, 'recipe-banner');
    await close.click();
    await expect.poll(() => banner.count()).toBe(0);
    // Focus went to the main content, not to the body.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    expect(await seriousViolations(page)).toEqual([]);
    await page.reload();
    expect(await page.locator('[data-recipe-banner]').count()).toBe(0);
    const cookie = (await context.cookies()).find((c) => c.name === 'kattaus_recipe_banner');
    expect(cookie?.value).toBe('closed');
    expect((cookie?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(29 * 86_400);
    await shot(page, 'banner-375-closed');
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('closes without script too, and is not shown at 1280 px', async () => {
    const url = await recipeUrl();
    const context = await browser.newContext({
      viewport: { width: 375, height: 900 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(url);
    await page.locator('[data-recipe-banner] button').click();
    await page.waitForURL(url);
    expect(await page.locator('[data-recipe-banner]').count()).toBe(0);
    await context.close();
    const wide = await open(url, 1280);
    expect(await wide.page.locator('[data-recipe-banner]').isVisible()).toBe(false);
    await wide.context.close();
  });
});

function carouselOf(page: Page, name: 'card-carousel' | 'brand-logo-carousel') {
  const island = page.locator(`k-island[data-name="${name}"]`).first();
  return {
    island,
    items: island.locator('li'),
    visible: island.locator('li:not([inert])'),
    next: island.getByRole('button', { name: t('carousel.next'), exact: true }),
    previous: island.getByRole('button', { name: t('carousel.previous'), exact: true }),
    track: island.locator('ul'),
  };
}

const transitionOf = (track: Locator) =>
  track.evaluate((el) => getComputedStyle(el).transitionDuration);
/** Reduced motion: no transition (the site's global rule leaves 0.01 ms at most). */
const noTransition = async (track: Locator) => Number.parseFloat(await transitionOf(track)) < 0.001;

describe('card carousel', () => {
  for (const [width, perView] of [
    [1280, 4],
    [900, 3],
    [375, 1],
  ] as const) {
    it(`at ${width} px shows ${perView}, moves a group per arrow and arrow key, focus kept`, async () => {
      const { context, page, problems } = await open(`${siteOrigin(SITE)}/`, width);
      const c = carouselOf(page, 'card-carousel');
      await scrollIslandIntoView(c.island);
      await hydrated(page, 'card-carousel');
      const count = await c.items.count();
      expect(count).toBeGreaterThan(perView);
      expect(await c.visible.count()).toBe(perView);
      expect(await c.previous.count()).toBe(0);
      expect(await c.next.isVisible()).toBe(true);
      expect(await transitionOf(c.track)).toBe('0.5s');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `card-carousel-${width}`);

      await c.next.click();
      await expect.poll(() => c.visible.first().getAttribute('data-hidden')).toBe(null);
      expect(await c.items.nth(0).getAttribute('inert')).not.toBe(null);
      expect(await c.previous.isVisible()).toBe(true);
      await animationsDone(c.island);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `card-carousel-${width}-moved`);

      // Arrow keys from a card's link: the group moves and focus stays on a visible card.
      await c.visible.first().locator('a').focus();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => c.previous.count()).toBe(0);
      const focusedInVisible = await page.evaluate(
        () => document.activeElement?.closest('li')?.hasAttribute('inert') === false,
      );
      expect(focusedInVisible).toBe(true);
      // Right arrow to the end: the right arrow goes, focus moves to the left one.
      await c.next.focus();
      for (let i = 0; i < count; i++) {
        if ((await c.next.count()) === 0) break;
        await page.keyboard.press('Enter');
      }
      expect(await c.next.count()).toBe(0);
      expect(await isFocused(c.previous)).toBe(true);
      expect(await c.items.last().getAttribute('inert')).toBe(null);
      expect(problems.console).toEqual([]);
      await context.close();
    });
  }

  for (const width of [1280, 900, 375]) {
    it(`at ${width} px moves nothing when it hydrates; without script a phone sees the next card's edge`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // The carousel's code is held until its script-free form has been measured in view.
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/assets/group-carousel-*.js', async (route) => {
        await released;
        await route.continue();
      });
      await page.goto(`${siteOrigin(SITE)}/`);
      const c = carouselOf(page, 'card-carousel');
      const section = c.island.locator('section');
      await section.scrollIntoViewIfNeeded();
      // Two frames: the section (content-visibility: auto) has been laid out at its own size.
      await page.evaluate(
        () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
      );
      const box = async () => {
        const b = await section.boundingBox();
        const next = await section
          .locator('xpath=following::*[self::h2 or self::p][1]')
          .boundingBox();
        return { height: b?.height, top: b?.y, nextTop: next?.y };
      };
      const before = await box();
      expect(await c.island.getAttribute('data-hydrated')).toBeNull();
      release();
      await hydrated(page, 'card-carousel');
      expect(await c.next.isVisible()).toBe(true);
      expect(await box()).toEqual(before);
      await context.close();

      const noScript = await browser.newContext({
        viewport: { width, height: 900 },
        javaScriptEnabled: false,
      });
      const plain = await noScript.newPage();
      await plain.goto(`${siteOrigin(SITE)}/`);
      const list = carouselOf(plain, 'card-carousel');
      const [track, first] = await Promise.all([
        list.track.boundingBox(),
        list.items.first().boundingBox(),
      ]);
      const share = (first?.width ?? 0) / (track?.width ?? 1);
      if (width === 375) expect(share).toBeCloseTo(0.85, 2);
      else expect(share).toBeLessThan(0.5);
      // No arrows' row without script: nothing would ever fill it.
      const rows = await list.island
        .locator('section > div:empty')
        .evaluateAll((divs) => divs.map((d) => getComputedStyle(d).display));
      expect(rows).toEqual(['none']);
      await noScript.close();
    });
  }

  it('with reduced motion moves without a transition', async () => {
    const { context, page } = await open(`${siteOrigin(SITE)}/`, 1280, { reducedMotion: 'reduce' });
    const c = carouselOf(page, 'card-carousel');
    await scrollIslandIntoView(c.island);
    await hydrated(page, 'card-carousel');
    expect(await noTransition(c.track)).toBe(true);
    await c.next.click();
    expect(await c.previous.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('brand-logo carousel', () => {
  for (const width of [1280, 375]) {
    it(`at ${width} px: at least 21 logos 130 px wide, pausable, arrow keys, axe`, async () => {
      const { context, page, problems } = await open(`${siteOrigin(CORPORATE)}/`, width, {
        clock: true,
      });
      const c = carouselOf(page, 'brand-logo-carousel');
      await scrollIslandIntoView(c.island);
      await hydrated(page, 'brand-logo-carousel');
      // The repeated list is the render after hydration; wait for it rather than race it.
      await expect.poll(() => c.items.count()).toBeGreaterThanOrEqual(21);
      expect((await c.items.first().locator('a').boundingBox())?.width).toBe(130);
      const pause = c.island.getByRole('button', { name: t('carousel.pause'), exact: true });
      await pause.click();
      const play = c.island.getByRole('button', { name: t('carousel.play'), exact: true });
      expect(await play.isVisible()).toBe(true);
      const firstVisible = () =>
        c.items.evaluateAll((items) => items.findIndex((li) => !li.hasAttribute('inert')));
      const start = await firstVisible();
      // Paused: a step longer than the carousel's own (from its block, else the default) passes
      // on the page's clock at once, and it has not moved.
      const { autoplaySeconds } = JSON.parse(
        (await c.island.getAttribute('data-props')) ?? '{}',
      ) as { autoplaySeconds?: number };
      await page.clock.runFor((autoplaySeconds ?? BRAND_AUTOPLAY_SECONDS) * 1000 + 500);
      await idle(page);
      expect(await firstVisible()).toBe(start);
      await c.next.focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(firstVisible).not.toBe(start);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(firstVisible).toBe(start);
      expect(await isFocused(c.next)).toBe(true);
      await animationsDone(c.island);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `brands-${width}`);
      expect(problems.console).toEqual([]);
      await context.close();
    });
  }

  it('with reduced motion starts paused', async () => {
    const { context, page } = await open(`${siteOrigin(CORPORATE)}/`, 1280, {
      reducedMotion: 'reduce',
    });
    const c = carouselOf(page, 'brand-logo-carousel');
    await scrollIslandIntoView(c.island);
    await hydrated(page, 'brand-logo-carousel');
    expect(
      await c.island.getByRole('button', { name: t('carousel.play'), exact: true }).isVisible(),
    ).toBe(true);
    expect(await noTransition(c.track)).toBe(true);
    await context.close();
  });
});
