import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { chromiumForFile, screenshots, seriousViolations, watchProblems } from './browser.ts';
import { CART_API, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * The shop's cart badge in the browser at 1280 and 375 px: an empty cart shows the cart link
 * without a number on the desktop and no icon on the mobile bar; after two products are added
 * through the cart API from the page (with the anti-forgery header, as the shop's widgets send
 * it) a reload shows the count of line items on the badge, linking to the cart page; emptying the
 * cart takes the number away again. Axe and console errors are checked at each step.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');

let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('cart');

async function openHome(page: Page) {
  const response = await page.goto(`${origin}/`);
  expect(response?.status()).toBe(200);
  await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
  return response;
}

/** A cart call from the page, with the anti-forgery token from its readable cookie. */
function cartCall(page: Page, call: string, query: string) {
  return page.evaluate(
    async ({ url }) => {
      const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
      const token = match?.[1] ? decodeURIComponent(match[1]) : '';
      const response = await fetch(url, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-xsrf-token': token },
      });
      const body = (await response.json()) as {
        lineItemCount?: number;
        lineItems?: { code: string; quantity: number }[];
        total?: string;
      };
      return { status: response.status, body };
    },
    { url: `${CART_API}/${call}?language=fi&${query}` },
  );
}

describe.each([
  [1280, 'desktop'],
  [375, 'mobile'],
] as const)('cart badge at %i px', (width, mode) => {
  it('no number while empty; the count of line items after adding; none after emptying', async () => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems = watchProblems(page);
    try {
      const header = page.locator('header');
      // By CSS, not by role, so that a hidden link is a finding rather than a missing element.
      const cartLink = header.locator('a[href="/ostoskori#tuotteet"]');

      // Empty: the desktop shows the cart link without a number; the mobile bar hides the icon.
      const first = await openHome(page);
      expect(first?.headers()['cache-control']).toBe('private, no-cache');
      expect(await cartLink.count()).toBe(1);
      expect(await cartLink.getAttribute('aria-label')).toBe(t('header.cart'));
      expect(await cartLink.textContent()).toBe('');
      expect(await cartLink.isVisible()).toBe(mode === 'desktop');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-empty`);

      // Two products, the first one twice: two line items, four pieces.
      const codes = (await productsForSale(page, 2)).map((product) => product.code);
      expect(codes).toHaveLength(2);
      const [a, b] = codes as [string, string];
      expect((await cartCall(page, 'add', `code=${a}&quantity=1`)).status).toBe(200);
      expect((await cartCall(page, 'add', `code=${b}&quantity=2`)).status).toBe(200);
      const again = await cartCall(page, 'add', `code=${a}&quantity=1`);
      expect(again.status).toBe(200);
      expect(again.body.lineItemCount).toBe(2);
      expect(again.body.lineItems?.map((item) => [item.code, item.quantity])).toEqual([
        [a, 2],
        [b, 2],
      ]);
      expect(again.body.total).toMatch(/^\d+,\d{2}$/);
      // Without the header the server refuses the change.
      const refused = await page.evaluate(
        async (url) => (await fetch(url, { method: 'POST' })).status,
        `${CART_API}/add?language=fi&code=${a}&quantity=1`,
      );
      expect(refused).toBe(403);

      await page.reload();
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      const labelled = header.getByRole('link', {
        name: t('header.cartWithCount', { count: 2 }),
      });
      await expect.poll(() => labelled.isVisible()).toBe(true);
      expect(await labelled.getAttribute('href')).toBe('/ostoskori#tuotteet');
      expect((await labelled.textContent())?.trim()).toBe('2');
      const box = await labelled.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(44);
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-two`);

      // Keyboard: the badge's link is reachable by Tab.
      let reached = false;
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await labelled.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);

      // Emptying the cart (quantity 0 removes) takes the number away again.
      expect((await cartCall(page, 'changequantity', `code=${a}&quantity=0`)).status).toBe(200);
      const emptied = await cartCall(page, 'changequantity', `code=${b}&quantity=0`);
      expect(emptied.body.lineItemCount).toBe(0);
      await page.reload();
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      expect(await cartLink.getAttribute('aria-label')).toBe(t('header.cart'));
      expect(await cartLink.isVisible()).toBe(mode === 'desktop');

      // The refused call above is the one expected failure the browser logs.
      expect(problems.console.filter((line) => !/status of 403/.test(line))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
