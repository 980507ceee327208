import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AUTOPLAY_SECONDS } from '../../src/features/content/carousel/slides.ts';
import { serverT } from '../../src/i18n/catalogues.ts';
import { chromiumForFile, idle, screenshots, seriousViolations, watchProblems } from './browser.ts';
import { SHOP_ORIGIN } from './shop-support.ts';

/**
 * The picture carousel of the shop's product pages (shop spec §4 "Carousel: cycles images with
 * wraparound; arrow keys move"), at 1280 and 375 px: previous and next by mouse wrap around both
 * ways, Left and Right move while focus is inside, the counter 'Kuva N / M' follows, nothing moves
 * by itself; the server HTML shows the first picture; axe finds nothing serious or critical.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop-carousel');

/** A product page of the shop with a picture carousel, and how many pictures it has. */
async function galleryPage(page: Page): Promise<{ url: string; count: number; html: string }> {
  return page.evaluate(async () => {
    const search = await fetch('/api/search/lihakauppa-products?pageSize=60');
    const { hits } = (await search.json()) as { hits: { url: string }[] };
    for (const hit of hits) {
      const html = await (await fetch(hit.url)).text();
      const doc = new DOMParser().parseFromString(html, 'text/html');
      const island = doc.querySelector('k-island[data-name="product-gallery"]');
      if (!island) continue;
      const props = JSON.parse(island.getAttribute('data-props') ?? '{}') as { images: unknown[] };
      return { url: hit.url, count: props.images.length, html: island.outerHTML };
    }
    throw new Error('no product page with a picture carousel');
  });
}

describe.each([1280, 375])('product picture carousel at %i px', (width) => {
  it('moves by mouse and keyboard with wrap-around and announces the picture', async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${origin}/`);
      const { url, count, html } = await galleryPage(page);
      expect(count).toBeGreaterThan(1);
      // The server HTML: every picture in a strip, the first loaded at once, no buttons yet.
      const doc = html.replaceAll('&quot;', '"');
      expect(doc.match(/<img /g)?.length).toBe(count);
      expect(doc).toMatch(/<img [^>]*loading="eager"/);
      expect(doc).not.toContain(t('product.gallery.next'));

      await page.goto(`${origin}${url}`);
      await page.locator('k-island[data-name="product-gallery"][data-hydrated]').waitFor();
      const gallery = page.getByRole('region', { name: t('product.gallery.label') });
      expect(await gallery.getAttribute('aria-roledescription')).toBe('carousel');
      const counter = gallery.locator('p[aria-live="polite"]');
      const current = gallery.locator('[aria-roledescription="slide"]:not([inert])');
      const label = (n: number) => t('product.gallery.slide', { index: n, count });
      const at = async (n: number) => {
        await expect.poll(() => counter.textContent()).toBe(label(n));
        await expect.poll(() => current.getAttribute('aria-label')).toBe(label(n));
        expect(await current.count()).toBe(1);
      };
      await at(1);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-first`);

      // Mouse: next to the end and round to the first; previous from the first to the last.
      const next = gallery.getByRole('button', { name: t('product.gallery.next') });
      const previous = gallery.getByRole('button', { name: t('product.gallery.previous') });
      for (let n = 2; n <= count; n++) {
        await next.click();
        await at(n);
      }
      await shot(page, `${width}-last`);
      await next.click();
      await at(1);
      await previous.click();
      await at(count);
      await previous.click();
      await at(count - 1);

      // Keyboard: Tab to the carousel, then the arrow keys; both ends wrap. The page's timers run
      // on Playwright's clock from here on, so time can pass at once below.
      await context.clock.install();
      await page.goto(`${origin}${url}`);
      await page.locator('k-island[data-name="product-gallery"][data-hydrated]').waitFor();
      let reached = false;
      for (let i = 0; i < 80 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await previous.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('ArrowLeft');
      await at(count);
      await page.keyboard.press('ArrowRight');
      await at(1);
      await page.keyboard.press('ArrowRight');
      await at(2);
      await page.keyboard.press('Tab'); // to the next button, still inside
      await page.keyboard.press('ArrowRight');
      await at(count >= 3 ? 3 : 1);
      // Focus stays on the pressed control and nothing moves by itself (no autoplay).
      expect(await next.evaluate((el) => el === document.activeElement)).toBe(true);
      // Longer than the site's autoplaying carousels take per step passes on the page's clock.
      await page.clock.runFor(AUTOPLAY_SECONDS * 1000 + 1000);
      await idle(page);
      await at(count >= 3 ? 3 : 1);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-keyboard`);

      // The picture stays in its square box at this width.
      const box = await gallery.boundingBox();
      expect(box?.width).toBeGreaterThan(200);
      expect(box?.width).toBeLessThanOrEqual(width);
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
