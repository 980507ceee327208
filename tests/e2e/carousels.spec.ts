import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  animationsDone,
  chromiumForFile,
  idle,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * The carousels in the browser (spec navigation-and-search §2, §4, §9): the hero carousel on a
 * brand's home page (every seeded home page starts with one) and the third brand's image carousel
 * on jyvabroiler's. Without script both are strips that show the first slide; with script the hero
 * slides in 500 ms and wraps around, and the image carousel autoplays every 5 s between its first
 * two images, pausing on hover, on focus and by its button.
 */

const port = serverPort();
const t = serverT('fi');
const HERO_SITE = 'sibylla';
const GALLERY_SITE = 'jyvabroiler';

let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

async function open(
  site: string,
  options: {
    width?: number;
    javaScript?: boolean;
    reducedMotion?: 'reduce' | 'no-preference';
    /** The page's timers on Playwright's clock, which `nextChange` runs ahead. */
    clock?: boolean;
  } = {},
): Promise<{ context: BrowserContext; page: Page; problems: ReturnType<typeof watchProblems> }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 800 },
    javaScriptEnabled: options.javaScript ?? true,
    reducedMotion: options.reducedMotion ?? 'no-preference',
  });
  // Long enough for a loaded machine: a click waits for the button to hold still over two
  // frames, and a busy renderer has stalled that past 10 s once in CI.
  context.setDefaultTimeout(20_000);
  if (options.clock) await context.clock.install();
  const page = await context.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(`http://${site}.localhost:${port}/`);
  expect(response?.status()).toBe(200);
  return { context, page, problems };
}

const shot = screenshots('carousels');

function heroOf(page: Page) {
  const island = page.locator('k-island[data-name="hero-carousel"]');
  return {
    island,
    root: island.locator('section[aria-roledescription="carousel"]'),
    slides: island.locator('[aria-roledescription="slide"]'),
    current: island.locator('[aria-roledescription="slide"][data-state="current"]'),
    next: island.getByRole('button', { name: t('carousel.next'), exact: true }),
    previous: island.getByRole('button', { name: t('carousel.previous'), exact: true }),
  };
}

function galleryOf(page: Page) {
  const island = page.locator('k-island[data-name="image-carousel"]');
  return {
    island,
    root: island.locator('section[aria-roledescription="carousel"]'),
    track: island.locator('[aria-live]'),
    slides: island.locator('[aria-roledescription="slide"]'),
    current: island.locator('[aria-roledescription="slide"][data-state="current"]'),
    dots: island.locator('button[aria-label^="Dia "]'),
    pause: island.getByRole('button', { name: t('carousel.pause'), exact: true }),
    play: island.getByRole('button', { name: t('carousel.play'), exact: true }),
  };
}

/** The slide in view: its left edge at the carousel's, and not hidden. */
async function slideInView(root: Locator, slides: Locator): Promise<number> {
  const box = await root.boundingBox();
  if (!box) throw new Error('carousel has no box');
  const count = await slides.count();
  for (let i = 0; i < count; i++) {
    const slide = slides.nth(i);
    const b = await slide.boundingBox();
    const visible = await slide.evaluate((el) => getComputedStyle(el).visibility !== 'hidden');
    if (b && visible && Math.abs(b.x - box.x) < 2 && b.width > 0) return i + 1;
  }
  return 0;
}

const currentLabel = (current: Locator) => current.getAttribute('aria-label');

/** Waits until a move has ended: the slides' animations over and the track no longer moving. */
async function slideSettled(island: Locator): Promise<void> {
  await animationsDone(island);
  await expect.poll(() => island.locator('[data-moving]').count()).toBe(0);
}

/**
 * Clicks a button in the page and measures, in the page's own clock, the time until the slide
 * that comes in has finished its animation.
 */
function timeSlide(button: Locator): Promise<{ ms: number; duration: string }> {
  return button.evaluate(
    (el) =>
      new Promise<{ ms: number; duration: string }>((resolve, reject) => {
        const root = el.closest('section');
        if (!root) return reject(new Error('no carousel'));
        const timeout = setTimeout(() => reject(new Error('no animationend in 3 s')), 3000);
        let duration = '';
        const start = performance.now();
        root.addEventListener('animationend', function done(event) {
          const target = event.target as HTMLElement;
          if (target.dataset.state !== 'current') return;
          root.removeEventListener('animationend', done);
          clearTimeout(timeout);
          resolve({ ms: performance.now() - start, duration });
        });
        (el as HTMLElement).click();
        requestAnimationFrame(() => {
          const current = root.querySelector<HTMLElement>('[data-state="current"]');
          duration = current ? getComputedStyle(current).animationDuration : '';
        });
      }),
  );
}

/** How far `nextChange` runs the page's clock at a time. */
const CLOCK_STEP_MS = 200;

/**
 * Runs the page's clock (installed by `open`) for up to `limitMs`, in steps, and answers the
 * first change of the current slide in that time with the time it took on that clock, or a null
 * label. The clock stops within a step of the change, so the next call starts from it; between
 * steps the page runs what a timer set off (a render, the effect that sets the next timer).
 */
async function nextChange(root: Locator, limitMs: number) {
  const page = root.page();
  const watch = await root.evaluateHandle((el) => {
    const start = performance.now();
    const before = el.querySelector('[data-state="current"]');
    const seen = { label: null as string | null, ms: -1 };
    const observer = new MutationObserver(() => {
      const now = el.querySelector('[data-state="current"]');
      if (now && now !== before && seen.ms < 0) {
        seen.label = now.getAttribute('aria-label');
        seen.ms = performance.now() - start;
      }
    });
    observer.observe(el, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
    return { seen, stop: () => observer.disconnect() };
  });
  let passed = 0;
  while (passed < limitMs && (await watch.evaluate((w) => w.seen.ms)) < 0) {
    const step = Math.min(CLOCK_STEP_MS, limitMs - passed);
    await page.clock.runFor(step);
    passed += step;
  }
  // A render the last step set off is in the page before it is looked at.
  await idle(page);
  const seen = await watch.evaluate((w) => {
    w.stop();
    return w.seen;
  });
  await watch.dispose();
  return { label: seen.label, ms: seen.label === null ? passed : seen.ms };
}

/** Layout shifts inside an element since the page loaded. */
function layoutShiftInside(page: Page, selector: string): Promise<number> {
  return page.evaluate(
    (sel) =>
      new Promise<number>((resolve) => {
        const root = document.querySelector(sel);
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & {
            value: number;
            sources?: { node?: Node }[];
          })[]) {
            if (entry.sources?.some((s) => s.node && root?.contains(s.node))) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        // Once what hydration queued has run (idle), two frames lay it out and report its
        // shifts; the observer's callback runs in a task before the last one.
        requestIdleCallback(
          () =>
            requestAnimationFrame(() =>
              requestAnimationFrame(() => setTimeout(() => resolve(total))),
            ),
          { timeout: 1_000 },
        );
      }),
    selector,
  );
}

describe('without script', () => {
  it('the hero and the image carousel show their first slide, every slide reachable, no buttons', async () => {
    for (const site of [HERO_SITE, GALLERY_SITE]) {
      const { context, page } = await open(site, { javaScript: false });
      const hero = heroOf(page);
      expect(await hero.slides.count()).toBeGreaterThanOrEqual(2);
      expect(await slideInView(hero.root, hero.slides)).toBe(1);
      expect(await hero.island.locator('button').count()).toBe(0);
      expect(await hero.island.locator('[inert]').count()).toBe(0);
      // The strip scrolls by keyboard: it is focusable and the second slide lies to the right.
      expect(await hero.island.locator('[tabindex="0"]').count()).toBe(1);
      const strip = await hero.root.boundingBox();
      const second = await hero.slides.nth(1).boundingBox();
      expect(strip && second && second.x >= strip.x + strip.width - 2).toBe(true);
      if (site === GALLERY_SITE) {
        const gallery = galleryOf(page);
        expect(await gallery.slides.count()).toBeGreaterThanOrEqual(2);
        expect(await slideInView(gallery.root, gallery.slides)).toBe(1);
        expect(await gallery.island.locator('button').count()).toBe(0);
        await gallery.root.scrollIntoViewIfNeeded();
        await shot(gallery.root, 'gallery-no-script-1280');
      } else {
        await shot(hero.root, 'hero-no-script-1280');
      }
      await context.close();
    }
  });
});

describe('hero carousel', () => {
  it('at 1280 px: 600 px high, next and previous wrap around, 500 ms slide, arrow keys, no shift, axe', async () => {
    const { context, page, problems } = await open(HERO_SITE);
    const hero = heroOf(page);
    await page.locator('k-island[data-name="hero-carousel"][data-hydrated]').waitFor();
    const count = await hero.slides.count();
    expect(count).toBeGreaterThanOrEqual(2);
    expect((await hero.root.boundingBox())?.height).toBe(600);
    expect(await layoutShiftInside(page, 'k-island[data-name="hero-carousel"]')).toBe(0);

    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 1, count }));
    expect(await hero.island.locator('[aria-roledescription="slide"][inert]').count()).toBe(
      count - 1,
    );
    await shot(hero.root, 'hero-1280');

    // Next: the second slide comes in from the right in 500 ms.
    const timed = await timeSlide(hero.next);
    expect(timed.duration).toBe('0.5s');
    expect(timed.ms).toBeGreaterThan(450);
    expect(timed.ms).toBeLessThan(800);
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 2, count }));
    expect(await slideInView(hero.root, hero.slides)).toBe(2);
    await shot(hero.root, 'hero-1280-second');

    // Previous twice: back to the first, then around to the last.
    await hero.previous.click();
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 1, count }));
    const back = await timeSlide(hero.previous);
    expect(back.ms).toBeGreaterThan(450);
    expect(back.ms).toBeLessThan(800);
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: count, count }));
    expect(await slideInView(hero.root, hero.slides)).toBe(count);
    // Next on the last is the first.
    await hero.next.click();
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 1, count }));

    // Arrow keys while focus is in the carousel.
    await hero.next.focus();
    await page.keyboard.press('ArrowRight');
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 2, count }));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: count, count }));
    // Tab from the buttons reaches the current slide's link only; hidden slides are inert.
    await hero.next.focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.closest('[aria-roledescription="slide"]')?.getAttribute('data-state') ?? null;
    });
    expect(['current', null]).toContain(focused);
    expect(await hero.island.locator('[aria-roledescription="slide"][inert]').count()).toBe(
      count - 1,
    );
    // Arrow keys on the current slide's link, which stays the server's markup (decision 161).
    const link = hero.current.locator('a').first();
    expect(await link.count()).toBe(1);
    const before = await currentLabel(hero.current);
    await link.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => currentLabel(hero.current)).not.toBe(before);

    await slideSettled(hero.island);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('at 375 px: the same carousel fits, its buttons do not cover the text, axe', async () => {
    const { context, page, problems } = await open(HERO_SITE, { width: 375 });
    const hero = heroOf(page);
    await page.locator('k-island[data-name="hero-carousel"][data-hydrated]').waitFor();
    const box = await hero.root.boundingBox();
    expect(box?.width).toBe(375);
    expect(box?.height).toBe(600);
    // The text box (heading, text and link) ends above the buttons.
    const text = await hero.current.locator('h2').locator('xpath=../..').boundingBox();
    const button = await hero.next.boundingBox();
    expect(text && button && text.y + text.height <= button.y).toBe(true);
    await shot(hero.root, 'hero-375');
    // A swipe to the left brings the next slide, one to the right the previous.
    const count = await hero.slides.count();
    const swipe = (from: number, to: number) =>
      page.evaluate(
        ([x0, x1]) => {
          // On the current slide's picture or text, which stay the server's markup (decision 161).
          const track = document.querySelector(
            'k-island[data-name="hero-carousel"] [aria-live] [data-state="current"] > *',
          );
          const event = (type: string, x: number) =>
            new PointerEvent(type, {
              bubbles: true,
              pointerType: 'touch',
              clientX: x,
              clientY: 300,
            });
          track?.dispatchEvent(event('pointerdown', x0 ?? 0));
          track?.dispatchEvent(event('pointerup', x1 ?? 0));
        },
        [from, to],
      );
    await swipe(300, 100);
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: 2, count }));
    await swipe(100, 300);
    await swipe(100, 300);
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: count, count }));
    // A short movement is not a swipe.
    await swipe(200, 180);
    expect(await currentLabel(hero.current)).toBe(t('hero.slide', { index: count, count }));
    await hero.next.click();
    await slideSettled(hero.island);
    await shot(hero.root, 'hero-375-first-again');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('with reduced motion: the slide changes at once', async () => {
    const { context, page } = await open(HERO_SITE, { reducedMotion: 'reduce' });
    const hero = heroOf(page);
    await page.locator('k-island[data-name="hero-carousel"][data-hydrated]').waitFor();
    await hero.next.click();
    expect(await hero.island.locator('[data-moving]').count()).toBe(0);
    expect(await slideInView(hero.root, hero.slides)).toBe(2);
    await context.close();
  });
});

describe('image carousel (third brand)', () => {
  async function openGallery(
    width = 1280,
    reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
  ) {
    const opened = await open(GALLERY_SITE, { width, reducedMotion, clock: true });
    const gallery = galleryOf(opened.page);
    await gallery.root.scrollIntoViewIfNeeded();
    await opened.page.locator('k-island[data-name="image-carousel"][data-hydrated]').waitFor();
    return { ...opened, gallery };
  }

  /** Pointer and focus away from the carousel. */
  async function leave(page: Page) {
    await page.mouse.move(1, 1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  }

  it('dots choose any slide, arrow keys move and wrap, no shift, axe at 1280 px', async () => {
    const { context, page, problems, gallery } = await openGallery();
    const count = await gallery.slides.count();
    expect(count).toBeGreaterThanOrEqual(3);
    // The dots come with the render after hydration: wait for them.
    await expect.poll(() => gallery.dots.count()).toBe(count);
    expect(await layoutShiftInside(page, 'k-island[data-name="image-carousel"]')).toBe(0);
    expect(await gallery.dots.nth(0).getAttribute('aria-current')).toBe('true');
    await shot(gallery.root, 'gallery-1280');

    await gallery.dots.nth(2).click();
    expect(await currentLabel(gallery.current)).toBe(t('hero.slide', { index: 3, count }));
    expect(await gallery.dots.nth(2).getAttribute('aria-current')).toBe('true');
    expect(await gallery.dots.nth(0).getAttribute('aria-current')).toBeNull();
    // Focus is on a dot: autoplay waits and the change is announced politely.
    expect(await gallery.track.getAttribute('aria-live')).toBe('polite');
    await slideSettled(gallery.island);
    expect(await slideInView(gallery.root, gallery.slides)).toBe(3);

    await page.keyboard.press('ArrowRight');
    expect(await currentLabel(gallery.current)).toBe(
      t('hero.slide', { index: count > 3 ? 4 : 1, count }),
    );
    await gallery.dots.nth(0).focus();
    await gallery.dots.nth(0).press('Enter');
    await page.keyboard.press('ArrowLeft');
    expect(await currentLabel(gallery.current)).toBe(t('hero.slide', { index: count, count }));
    await page.keyboard.press('ArrowRight');
    expect(await currentLabel(gallery.current)).toBe(t('hero.slide', { index: 1, count }));

    await slideSettled(gallery.island);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('autoplays every 5 s between the first two images only', async () => {
    const { context, page, gallery } = await openGallery();
    const count = await gallery.slides.count();
    // Start again from the third slide, by hand, then let go.
    await gallery.dots.nth(2).click();
    await leave(page);
    expect(await gallery.track.getAttribute('aria-live')).toBe('off');
    const first = await nextChange(gallery.root, 7000);
    expect(first.label).toBe(t('hero.slide', { index: 1, count }));
    expect(first.ms).toBeGreaterThan(4500);
    expect(first.ms).toBeLessThan(5800);
    const second = await nextChange(gallery.root, 7000);
    expect(second.label).toBe(t('hero.slide', { index: 2, count }));
    expect(second.ms).toBeGreaterThan(4500);
    expect(second.ms).toBeLessThan(5800);
    const third = await nextChange(gallery.root, 7000);
    expect(third.label).toBe(t('hero.slide', { index: 1, count }));
    await context.close();
  });

  it('stops while hovered and resumes on leave; stops while focused', async () => {
    const { context, page, gallery } = await openGallery();
    await gallery.root.hover();
    expect((await nextChange(gallery.root, 6500)).label).toBeNull();
    await page.mouse.move(1, 1);
    const resumed = await nextChange(gallery.root, 6500);
    expect(resumed.label).not.toBeNull();
    expect(resumed.ms).toBeLessThan(5800);

    await gallery.dots.nth(1).focus();
    expect(await gallery.track.getAttribute('aria-live')).toBe('polite');
    expect((await nextChange(gallery.root, 6500)).label).toBeNull();
    await context.close();
  });

  it('the pause button stops autoplay until pressed again', async () => {
    const { context, page, gallery } = await openGallery();
    await gallery.pause.click();
    await expect.poll(() => gallery.play.count()).toBe(1);
    await leave(page);
    expect(await gallery.track.getAttribute('aria-live')).toBe('polite');
    expect((await nextChange(gallery.root, 6500)).label).toBeNull();
    // Keyboard: focus on the button itself does not hold autoplay back.
    await gallery.play.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => gallery.pause.count()).toBe(1);
    const resumed = await nextChange(gallery.root, 6500);
    expect(resumed.label).not.toBeNull();
    await context.close();
  });

  it('at 375 px: fits, axe; with reduced motion autoplay starts paused', async () => {
    const { context, page, problems, gallery } = await openGallery(375);
    const box = await gallery.root.boundingBox();
    expect(box && box.width <= 375).toBe(true);
    await leave(page);
    await shot(gallery.root, 'gallery-375');
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems.console).toEqual([]);
    await context.close();

    const reduced = await openGallery(1280, 'reduce');
    await expect.poll(() => reduced.gallery.play.count()).toBe(1);
    await leave(reduced.page);
    expect((await nextChange(reduced.gallery.root, 6000)).label).toBeNull();
    await reduced.context.close();
  });
});
