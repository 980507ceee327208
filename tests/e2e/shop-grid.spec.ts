import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  isFocused,
  newPage,
  screenshots,
  screenshotsWanted,
  scrollIslandIntoView,
  seriousViolations,
  siteOrigin,
  tabTo,
  watchProblems,
} from './browser.ts';
import { SHOP_ORIGIN } from './shop-support.ts';

/**
 * The shop's product search grid at 1280 and 375 px: each product an `lkProductCard` with price
 * and stock (also without script), adding by mouse and by keyboard (the header's badge counts),
 * the product modal opened by mouse and by keyboard (loading, then the product; adding from it;
 * Escape closes and the focus returns to its button), a modal whose product call fails, axe in
 * each state, and the island that brings the shop's code only to the shop's search page.
 */

const shop = SHOP_ORIGIN;
const brand = siteOrigin('jyvabroiler');
const SEARCH_PAGE = '/tuotteet';
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

/** The whole page; with a dialog open, the window (a full-page shot moves fixed layers). */
const shot = screenshots('shop-grid', { fullPage: true });

function badge(page: Page, count: number) {
  return page.locator('header').getByRole('link', { name: t('header.cartWithCount', { count }) });
}

/** The grid's cards that offer a buy control (not sold out), hydrated. */
async function openGrid(page: Page) {
  await page.goto(`${shop}${SEARCH_PAGE}`);
  const grid = page.locator('k-island[data-name="shop-product-search"]');
  await page.locator('k-island[data-name="shop-product-search"][data-hydrated]').waitFor();
  const cards = grid
    .locator('article')
    .filter({ has: page.getByRole('button', { name: t('shop.buy.add') }) });
  return { grid, cards };
}

const titleOf = async (card: Locator) => ((await card.locator('h3').textContent()) ?? '').trim();

const quickView = (card: Locator, name: string) =>
  card.getByRole('button', { name: t('shop.buy.quickView', { name }) });

const isProductCall = (url: URL) => url.pathname.startsWith('/api/products/');

describe.each([1280, 375])('shop search grid at %i px', (width) => {
  it('adds from the grid by mouse and keyboard, and from the modal opened by mouse and keyboard', async () => {
    const { context, page } = await newPage(browser, width);
    const problems = watchProblems(page);
    try {
      const { cards } = await openGrid(page);
      expect(await cards.count()).toBeGreaterThanOrEqual(3);
      const first = cards.nth(0);
      // Each card: its price with the euro sign and a stock text.
      expect(await first.textContent()).toMatch(/\d+,\d{2}\s€/);
      expect(
        await first.getByText(/^Varastossa|^Tuote on juuri nyt loppuunmyyty/).count(),
      ).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      // The cards' pictures load lazily; for the full-page shot, all of them now.
      await page.evaluate(() => {
        for (const img of document.querySelectorAll('img')) img.loading = 'eager';
      });
      await page.waitForLoadState('networkidle');
      await shot(page, `${width}`);

      // Mouse: the first card's 'Lisää ostoskoriin'.
      await first.getByRole('button', { name: t('shop.buy.add') }).click();
      await expect.poll(() => first.getByRole('status').textContent()).toBe(t('shop.buy.added'));
      await expect.poll(() => badge(page, 1).count()).toBe(1);

      // Keyboard: from the second card's title link, Tab to its control and Enter.
      const second = cards.nth(1);
      await second.locator('h3 a').focus();
      const addSecond = second.getByRole('button', { name: t('shop.buy.add') });
      await tabTo(page, addSecond, 20);
      await page.keyboard.press('Enter');
      await expect.poll(() => second.getByRole('status').textContent()).toBe(t('shop.buy.added'));
      await expect.poll(() => badge(page, 2).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);

      // Mouse: the third card's modal says it is loading until the product arrives.
      const third = cards.nth(2);
      const thirdName = await titleOf(third);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(isProductCall, async (route) => {
        await held;
        await route.continue();
      });
      const quickThird = quickView(third, thirdName);
      await quickThird.click();
      const dialog = page.getByRole('dialog', { name: thirdName });
      await dialog.waitFor();
      await expect
        .poll(() => dialog.getByRole('status').textContent())
        .toBe(t('shop.modal.loading'));
      release();
      await dialog.getByRole('link', { name: t('shop.modal.toProduct') }).waitFor();
      await page.unroute(isProductCall);
      expect(await dialog.textContent()).toMatch(/\d+,\d{2}\s€/);
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-modal`, false);

      // Adding from the modal; Escape closes it and the focus is back on its button.
      await dialog.getByRole('button', { name: t('shop.buy.add') }).click();
      await expect.poll(() => dialog.getByRole('status').textContent()).toBe(t('shop.buy.added'));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-modal-added`, false);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => isFocused(quickThird)).toBe(true);
      await expect.poll(() => badge(page, 3).count()).toBe(1);

      // Keyboard: Tab from the first card's title to its modal button, Enter; the focus stays
      // inside while Tab goes round; Escape gives it back to the button.
      const firstName = await titleOf(first);
      const quickFirst = quickView(first, firstName);
      await first.locator('h3 a').focus();
      await tabTo(page, quickFirst, 20);
      await page.keyboard.press('Enter');
      const firstDialog = page.getByRole('dialog', { name: firstName });
      await firstDialog.getByRole('link', { name: t('shop.modal.toProduct') }).waitFor();
      await expect
        .poll(() => firstDialog.evaluate((el) => el.contains(document.activeElement)))
        .toBe(true);
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        expect(await firstDialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect.poll(() => firstDialog.count()).toBe(0);
      await expect.poll(() => isFocused(quickFirst)).toBe(true);
      await expect.poll(() => badge(page, 3).count()).toBe(1);
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("says 'Tuotteen lataaminen epäonnistui.' when the product call fails", async () => {
    const { context, page } = await newPage(browser, width);
    try {
      const { cards } = await openGrid(page);
      // The real widget with a failing network: the product call answers 500.
      await page.route(isProductCall, (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/problem+json',
          body: JSON.stringify({
            type: 'about:blank',
            title: 'Internal Server Error',
            status: 500,
          }),
        }),
      );
      const card = cards.nth(0);
      const name = await titleOf(card);
      const quick = quickView(card, name);
      await quick.click();
      const dialog = page.getByRole('dialog', { name });
      await expect.poll(() => dialog.getByRole('status').textContent()).toBe(t('shop.modal.error'));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-modal-error`, false);
      await dialog.getByRole('button', { name: t('shop.modal.close') }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => isFocused(quick)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

describe('the grid without script and the island’s code', () => {
  it('shows each card’s price, stock and buy button from the server', async () => {
    const { context, page } = await newPage(browser, 375, { javaScriptEnabled: false });
    try {
      await page.goto(`${shop}${SEARCH_PAGE}`);
      const cards = page.locator('k-island[data-name="shop-product-search"] article');
      expect(await cards.count()).toBeGreaterThan(0);
      const texts = await cards.allTextContents();
      for (const text of texts) expect(text).toMatch(/\d+,\d{2}\s€/);
      expect(await page.getByText(/^Varastossa|loppuunmyyty$/).count()).toBe(texts.length);
      expect(await page.getByRole('button', { name: t('shop.buy.add') }).count()).toBeGreaterThan(
        0,
      );
    } finally {
      await context.close();
    }
  });

  it('loads the shop’s grid code on the shop’s search page only', async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${brand}${SEARCH_PAGE}`);
      await page.locator('k-island[data-name="facet-search"][data-hydrated]').waitFor();
      expect(scripts.some((s) => s.includes('/facet-search-'))).toBe(true);
      // Neither the brand's search nor the header on every page loads the shop's card.
      expect(
        scripts.filter((s) => /shop-product-search|product-card|product-dialog/.test(s)),
      ).toEqual([]);
      scripts.length = 0;
      await openGrid(page);
      expect(scripts.some((s) => s.includes('/shop-product-search-'))).toBe(true);
      expect(scripts.some((s) => s.includes('/product-card-'))).toBe(true);
      // The modal's dialog comes only when a visitor goes for it.
      expect(scripts.some((s) => s.includes('/product-dialog-'))).toBe(false);
    } finally {
      await context.close();
    }
  });
});

/**
 * Issue 15: the `lkProductCard`s of the shop's home page, in the product card carousel and in the
 * gift cards' grid, carry the shop's buy control. By keyboard: from a card's title, Tab to '+',
 * Enter (quantity 2), Tab to 'Lisää ostoskoriin', Enter; the header's badge follows the cart.
 */
describe.each([1280, 375])('lkProductCards of the home page at %i px', (width) => {
  it('adds from a card of the carousel and of the grid by keyboard; the badge counts; axe', async () => {
    const { context, page } = await newPage(browser, width);
    const problems = watchProblems(page);
    try {
      await page.goto(`${shop}/`);
      const adds = async (card: Locator, quantity: number) => {
        const title = card.locator('h2 a, h3 a').first();
        await title.focus();
        if (quantity > 1) {
          await tabTo(page, card.getByRole('button', { name: t('shop.buy.increase') }), 10);
          for (let i = 1; i < quantity; i++) await page.keyboard.press('Enter');
          await expect
            .poll(() => card.getByRole('spinbutton', { name: t('shop.buy.quantity') }).inputValue())
            .toBe(String(quantity));
        }
        const answer = page.waitForResponse(
          (r) => r.url().includes('/shoppingcart/add') && r.request().method() === 'POST',
        );
        await tabTo(page, card.getByRole('button', { name: t('shop.buy.add') }), 10);
        await page.keyboard.press('Enter');
        const response = await answer;
        expect(response.status()).toBe(200);
        expect(new URL(response.url()).searchParams.get('quantity')).toBe(String(quantity));
        const cart = (await response.json()) as { lineItemCount: number };
        await expect.poll(() => card.getByRole('status').textContent()).toBe(t('shop.buy.added'));
        await expect.poll(() => badge(page, cart.lineItemCount).count()).toBe(1);
        return cart.lineItemCount;
      };

      // The carousel: its first visible card for sale.
      const carousel = page.locator('k-island[data-name="product-card-carousel"]');
      await scrollIslandIntoView(carousel);
      await page.locator('k-island[data-name="product-card-carousel"][data-hydrated]').waitFor();
      const carouselCard = carousel
        .locator('li:not([inert]) article')
        .filter({ has: page.getByRole('button', { name: t('shop.buy.add') }) })
        .first();
      const afterCarousel = await adds(carouselCard, 2);
      expect(afterCarousel).toBeGreaterThanOrEqual(1);
      expect(await seriousViolations(page)).toEqual([]);
      // The island's element has no box of its own (display: contents): its section has.
      await shot(carousel.locator('section').first(), `home-carousel-${width}`);

      // The gift cards' grid: a card marked as a gift card.
      const grid = page.locator('k-island[data-name="product-card-grid"]');
      await scrollIslandIntoView(grid);
      await page.locator('k-island[data-name="product-card-grid"][data-hydrated]').waitFor();
      const giftCard = grid
        .locator('li:not([hidden]) article')
        .filter({ hasText: t('product.giftCard') })
        .filter({ has: page.getByRole('button', { name: t('shop.buy.add') }) })
        .first();
      const afterGrid = await adds(giftCard, 1);
      expect(afterGrid).toBe(afterCarousel + 1);
      expect(await seriousViolations(page)).toEqual([]);
      if (screenshotsWanted) {
        // Every picture of the grid in the screenshot, not only those near the window.
        await page.evaluate(() => {
          for (const img of document.querySelectorAll('img')) img.loading = 'eager';
        });
        await page.waitForLoadState('networkidle');
      }
      await shot(grid.locator('section').first(), `home-grid-${width}`);
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('lkProductCards without script and the shop’s code', () => {
  it('without script each card for sale links to its product, and its form goes there', async () => {
    const { context, page } = await newPage(browser, 375, { javaScriptEnabled: false });
    try {
      await page.goto(`${shop}/`);
      const cards = page.locator('article').filter({ has: page.locator('[data-card-buy] form') });
      expect(await cards.count()).toBeGreaterThan(0);
      for (const card of await cards.all()) {
        const href = await card.locator('h2 a, h3 a').first().getAttribute('href');
        expect(href).toBeTruthy();
        expect(await card.locator('[data-card-buy] form').getAttribute('action')).toBe(href);
      }
    } finally {
      await context.close();
    }
  });

  it('loads the card buy control only on pages with such cards', async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${brand}/`);
      await scrollIslandIntoView(page.locator('k-island[data-name="card-carousel"]'));
      await page.locator('k-island[data-name="card-carousel"][data-hydrated]').waitFor();
      expect(scripts.filter((s) => /card-buy|buy-control/.test(s))).toEqual([]);
      scripts.length = 0;
      await page.goto(`${shop}/`);
      await scrollIslandIntoView(page.locator('k-island[data-name="product-card-carousel"]'));
      await page.locator('k-island[data-name="product-card-carousel"][data-hydrated]').waitFor();
      expect(scripts.some((s) => s.includes('/card-buy-'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
