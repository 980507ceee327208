import type { Browser, BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { chromiumForFile, screenshots, seriousViolations } from './browser.ts';
import { CART_API, type ProductForSale, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * The cart page in a browser without JavaScript (decision 022), at 1280 and 375 px: a quantity
 * typed and sent with 'Päivitä ostoskori', Enter in the field, the + and × buttons, a coupon code
 * entered, refused and removed. Each post comes back to /ostoskori#tuotteet with its notice.
 * Axe needs script in the page: its check runs in a context where the page may run script but
 * the app's own scripts are blocked, so the islands stay the server's HTML.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop-nojs', { fullPage: true });

/**
 * A cart made in a context with script (Node cannot resolve `*.localhost`, Chromium can): two shop
 * products with at least `min` pieces for sale, one of each in the cart; its cookies go to the
 * context without script.
 */
async function cartWithTwoProducts(into: BrowserContext, min: number): Promise<ProductForSale[]> {
  const helper = await browser.newContext();
  try {
    const page = await helper.newPage();
    await page.goto(`${origin}/ostoskori`);
    const found = await productsForSale(page, 2, min);
    await page.evaluate(
      async ({ found, api }) => {
        for (const product of found) {
          // The first add stores the session under a new token: read the cookie each time.
          const xsrf = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
          const added = await fetch(`${api}/add?language=fi&code=${product.code}&quantity=1`, {
            method: 'POST',
            headers: { 'x-xsrf-token': xsrf },
          });
          if (!added.ok) throw new Error(`add ${product.code}: ${added.status}`);
        }
      },
      { found, api: CART_API },
    );
    await into.addCookies(await helper.cookies());
    return found;
  } finally {
    await helper.close();
  }
}

/** The cart as the API answers it, read with the same cookies. */
async function apiCart(context: BrowserContext) {
  const helper = await browser.newContext();
  try {
    await helper.addCookies(await context.cookies());
    const page = await helper.newPage();
    await page.goto(`${origin}${CART_API}/load?language=fi`);
    return JSON.parse((await page.locator('body').textContent()) ?? '{}') as {
      lineItems: { code: string; quantity: number }[];
      couponCodes: string[];
    };
  } finally {
    await helper.close();
  }
}

describe.each([1280, 375])('cart page without JavaScript at %i px', (width) => {
  // What the server does with each post is the same at any width: at 375 px the test keeps the
  // states whose layout is its own (the updated cart, the refused code's summary; decision 155).
  const whole = width === 1280;
  it(`changes quantities and coupon codes with plain form posts${whole ? '' : ' (the notices’ layout)'}`, async () => {
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      javaScriptEnabled: false,
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      const products = await cartWithTwoProducts(context, 4);
      expect(products).toHaveLength(2);
      const [a, b] = products as [ProductForSale, ProductForSale];

      await page.goto(`${origin}/ostoskori#tuotteet`);
      // No script ran: the island is the server's HTML.
      expect(await page.locator('k-island[data-name="shop-cart"][data-hydrated]').count()).toBe(0);
      const update = page.getByRole('button', { name: t('shop.cart.update') });
      expect(await update.isVisible()).toBe(true);
      const quantityOf = (p: ProductForSale) =>
        page.getByRole('spinbutton', { name: t('shop.cart.quantityOf', { name: p.name }) });
      const lineOf = (p: ProductForSale) => page.locator(`li[data-code="${p.code}"]`);
      const priceOf = (p: ProductForSale) => lineOf(p).locator('[data-line-price]').textContent();
      const before = await priceOf(a);
      await shot(page, `${width}-cart`);

      // A typed quantity and 'Päivitä ostoskori': 303 back to the page, with the notice.
      await quantityOf(a).fill('3');
      await Promise.all([page.waitForURL(`${origin}/ostoskori#tuotteet`), update.click()]);
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: t('shop.cart.updated') })
          .count(),
      ).toBe(1);
      expect(await quantityOf(a).inputValue()).toBe('3');
      expect(await priceOf(a)).not.toBe(before);
      await shot(page, `${width}-updated`);

      if (!whole) {
        const couponField = page.getByRole('textbox', { name: t('shop.couponBox.label') });
        await couponField.fill('EIOLE');
        await Promise.all([page.waitForNavigation(), couponField.press('Enter')]);
        const summary = page.locator('[data-box="coupon"] [data-error-summary]');
        expect(await summary.getByRole('link').textContent()).toBe(t('shop.coupon.invalid'));
        expect(await couponField.inputValue()).toBe('EIOLE');
        await shot(page, `${width}-coupon-refused`);
        return;
      }

      // Enter in a field sends the update too (not a line's − button).
      await quantityOf(b).fill('2');
      await Promise.all([page.waitForNavigation(), quantityOf(b).press('Enter')]);
      expect(await quantityOf(a).inputValue()).toBe('3');
      expect(await quantityOf(b).inputValue()).toBe('2');

      // The line's + button.
      await Promise.all([
        page.waitForNavigation(),
        lineOf(b)
          .getByRole('button', { name: `${t('shop.buy.increase')}, ${b.name}` })
          .click(),
      ]);
      expect(await quantityOf(b).inputValue()).toBe('3');

      // 100 is refused by the field itself: no post, the page stays as it was.
      await quantityOf(a).fill('100');
      await update.click();
      expect(await quantityOf(a).evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
      // A new load (not the same document's #tuotteet): the stored quantity is still 3.
      await page.goto(`${origin}/ostoskori`);
      expect(await quantityOf(a).inputValue()).toBe('3');

      // A coupon code: entered (typed in lower case), a wrong one refused, then removed.
      const couponField = page.getByRole('textbox', { name: t('shop.couponBox.label') });
      await couponField.fill('tervetuloa10');
      await Promise.all([
        page.waitForNavigation(),
        page.getByRole('button', { name: t('shop.couponBox.add') }).click(),
      ]);
      expect(
        await page.getByText(t('shop.couponBox.added', { code: 'TERVETULOA10' })).count(),
      ).toBe(1);
      const applied = page.getByRole('list', { name: t('shop.couponBox.applied') });
      expect(await applied.textContent()).toContain('TERVETULOA10');
      expect(await page.locator('[data-sum="orderDiscount"]').count()).toBe(1);
      await shot(page, `${width}-coupon`);

      await couponField.fill('EIOLE');
      await Promise.all([page.waitForNavigation(), couponField.press('Enter')]);
      // The failed-submit pattern: the box's error summary links to the field, which keeps the code.
      const summary = page.locator('[data-box="coupon"] [data-error-summary]');
      expect(await summary.getByRole('link').textContent()).toBe(t('shop.coupon.invalid'));
      expect(await couponField.getAttribute('aria-invalid')).toBe('true');
      expect(await couponField.inputValue()).toBe('EIOLE');
      await shot(page, `${width}-coupon-refused`);

      await Promise.all([
        page.waitForNavigation(),
        page
          .getByRole('button', { name: t('shop.couponBox.remove', { code: 'TERVETULOA10' }) })
          .click(),
      ]);
      expect(
        await page.getByText(t('shop.couponBox.removed', { code: 'TERVETULOA10' })).count(),
      ).toBe(1);
      expect(await page.locator('[data-sum="orderDiscount"]').count()).toBe(0);

      // × removes the line.
      await Promise.all([
        page.waitForNavigation(),
        page.getByRole('button', { name: t('shop.cart.remove', { name: b.name }) }).click(),
      ]);
      expect(await lineOf(b).count()).toBe(0);
      expect(await lineOf(a).count()).toBe(1);

      // The cart the API sees is the one the page shows.
      const cart = await apiCart(context);
      expect(cart.lineItems.map((l) => [l.code, l.quantity])).toEqual([[a.code, 3]]);
      expect(cart.couponCodes).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('with the app scripts not loaded, Enter sends the update; axe finds nothing serious or critical in the notices', async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      const [a] = (await cartWithTwoProducts(context, 4)) as [ProductForSale];
      // The app's scripts never load: the page is what a visitor without script gets.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto(`${origin}/ostoskori#tuotteet`);
      await page
        .getByRole('spinbutton', { name: t('shop.cart.quantityOf', { name: a.name }) })
        .fill('2');
      await Promise.all([
        page.waitForNavigation(),
        page
          .getByRole('spinbutton', { name: t('shop.cart.quantityOf', { name: a.name }) })
          .press('Enter'),
      ]);
      expect(await page.getByText(t('shop.cart.updated')).count()).toBe(1);
      expect(await page.locator('k-island[data-hydrated]').count()).toBe(0);
      // Enter sent the typed 2 (the form's hidden default button), not the first line's −.
      expect(
        await page
          .getByRole('spinbutton', { name: t('shop.cart.quantityOf', { name: a.name }) })
          .inputValue(),
      ).toBe('2');
      expect(await seriousViolations(page)).toEqual([]);

      const couponField = page.getByRole('textbox', { name: t('shop.couponBox.label') });
      await couponField.fill('EIOLE');
      await Promise.all([page.waitForNavigation(), couponField.press('Enter')]);
      // In the focused error summary and under the field.
      expect(await page.getByText(t('shop.coupon.invalid')).count()).toBe(2);
      expect(
        await page.locator('[data-error-summary]').evaluate((el) => el === document.activeElement),
      ).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe.each([1280, 375])('product page without JavaScript at %i px (decision 055)', (width) => {
  it("'Lisää ostoskoriin' posts the quantity and lands on the cart with it", async () => {
    const helper = await browser.newContext();
    let product: ProductForSale | undefined;
    try {
      const page = await helper.newPage();
      await page.goto(`${origin}/ostoskori`);
      [product] = await productsForSale(page, 1, 3);
    } finally {
      await helper.close();
    }
    expect(product).toBeDefined();
    const { url, code, name } = product as ProductForSale;
    const context = await browser.newContext({
      viewport: { width, height: 900 },
      javaScriptEnabled: false,
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      await page.goto(`${origin}${url}`);
      // No script ran: the product's buy control is the server's HTML.
      const buy = page.locator('k-island[data-name="shop-buy-control"]');
      expect(
        await page.locator('k-island[data-name="shop-buy-control"][data-hydrated]').count(),
      ).toBe(0);
      await buy.getByRole('spinbutton', { name: t('shop.buy.quantity') }).fill('2');
      await Promise.all([
        page.waitForURL(`${origin}/ostoskori#tuotteet`),
        buy.getByRole('button', { name: t('shop.buy.add') }).click(),
      ]);
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: t('shop.buy.added') })
          .count(),
      ).toBe(1);
      expect(
        await page
          .getByRole('spinbutton', { name: t('shop.cart.quantityOf', { name }) })
          .inputValue(),
      ).toBe('2');
      expect((await apiCart(context)).lineItems).toEqual([
        expect.objectContaining({ code, quantity: 2 }),
      ]);
      await shot(page, `${width}-added-from-product`);
    } finally {
      await context.close();
    }
  }, 60_000);
});
