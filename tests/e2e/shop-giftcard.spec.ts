import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { centsOfMoney } from '../../src/features/shop/schemas.ts';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  hydrated,
  isFocused,
  newPage,
  screenshots,
  seriousViolations,
  tabTo,
} from './browser.ts';
import { CART_API, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * The cart page's gift-card box at 1280 and 375 px, by keyboard only: a wrong code refused with
 * its error tied to the field, the demo card LAHJA-DEMO-2000 entered (the summary shows what it
 * pays and the sum left to pay falls), then removed; and the same as plain form posts, with the
 * app's scripts not loaded (the failed-submit pattern: title, focused error summary, typed code
 * kept). Axe finds nothing serious or critical in each state.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');
/** The seed's demo card (README); other specs may spend part of it, never all (20 €). */
const CARD = 'LAHJA-DEMO-2000';
const WRONG = 'EIOLE-1234';

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop-giftcard', { fullPage: true });

/** One shop product in the page's cart, added through the cart API as the buy control does. */
async function cartWithProduct(page: Page): Promise<void> {
  await page.goto(`${origin}/tuotteet`);
  const [product] = await productsForSale(page, 1, 2);
  expect(product).toBeDefined();
  const status = await page.evaluate(
    async ({ api, code }) => {
      const xsrf = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
      const added = await fetch(`${api}/add?language=fi&code=${code}&quantity=2`, {
        method: 'POST',
        headers: { 'x-xsrf-token': decodeURIComponent(xsrf) },
      });
      return added.status;
    },
    { api: CART_API, code: product?.code ?? '' },
  );
  expect(status).toBe(200);
}

/** The summary's figures in cents; null for a line it does not show. */
async function sums(page: Page) {
  const read = async (name: string) => {
    const cell = page.locator(`[data-sum="${name}"]`);
    if ((await cell.count()) === 0) return null;
    const text = ((await cell.textContent()) ?? '').replace(/[^\d,-]/g, '');
    return centsOfMoney(text.replace(/^-/, ''));
  };
  return {
    total: await read('total'),
    used: await read('usedGiftCardAmount'),
    payable: await read('payable'),
  };
}

/** Types into a field by keyboard, replacing what it held. */
async function retype(page: Page, text: string) {
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

const field = (page: Page) =>
  page.getByRole('textbox', { name: t('shop.giftCardBox.label'), exact: true });
const chips = (page: Page) => page.getByRole('list', { name: t('shop.giftCardBox.applied') });
const removeButton = (page: Page) =>
  page.getByRole('button', {
    name: new RegExp(`^${t('shop.giftCardBox.remove', { balance: '' })}`),
  });

/** The field's error as its `aria-describedby` names it. */
async function describedError(page: Page): Promise<string> {
  const id = await field(page).getAttribute('aria-describedby');
  expect(id).toBeTruthy();
  return (await page.locator(`[id="${id}"]`).textContent()) ?? '';
}

describe.each([1280, 375])('gift-card box at %i px', (width) => {
  it('by keyboard: a wrong code is refused at the field, the demo card pays, then it is removed', async () => {
    const { context, page } = await newPage(browser, width);
    try {
      await cartWithProduct(page);
      await page.goto(`${origin}/ostoskori#tuotteet`);
      await hydrated(page, 'shop-cart');
      const before = await sums(page);
      expect(before.used).toBeNull();
      expect(await chips(page).count()).toBe(0);

      // A wrong code: refused with the API's text, tied to the field, which keeps it and the focus.
      await tabTo(page, field(page));
      await page.keyboard.type(WRONG);
      await page.keyboard.press('Enter');
      await expect.poll(() => field(page).getAttribute('aria-invalid')).toBe('true');
      expect(await describedError(page)).toBe(t('shop.giftCard.invalid'));
      expect(await field(page).inputValue()).toBe(WRONG);
      expect(await isFocused(field(page))).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-invalid`);

      // The demo card: announced by its last characters, listed, paid from the total.
      await retype(page, CARD.toLowerCase());
      expect(await field(page).getAttribute('aria-invalid')).toBeNull();
      await page.keyboard.press('Enter');
      await expect
        .poll(() =>
          page
            .getByRole('status')
            .filter({ hasText: t('shop.giftCardBox.added', { code: '•••• 2000' }) })
            .count(),
        )
        .toBe(1);
      expect(await chips(page).getByRole('listitem').count()).toBe(1);
      expect(await field(page).inputValue()).toBe('');
      const paid = await sums(page);
      expect(paid.total).toBe(before.total);
      expect(paid.used).toBeGreaterThan(0);
      expect(paid.payable).toBe((paid.total ?? 0) - (paid.used ?? 0));
      expect(paid.payable).toBeLessThan(before.total ?? 0);
      expect(await page.content()).not.toContain(CARD);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-entered`);

      // Removed by keyboard: the summary is as before, the focus back in the field.
      await tabTo(page, removeButton(page));
      await page.keyboard.press('Enter');
      await expect.poll(() => chips(page).count()).toBe(0);
      expect(await sums(page)).toEqual(before);
      expect(await isFocused(field(page))).toBe(true);
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: t('shop.giftCardBox.removed') })
          .count(),
      ).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('without the app scripts: plain form posts with a focused error summary, then the card and its removal', async () => {
    const { context, page } = await newPage(browser, width);
    try {
      await cartWithProduct(page);
      // The app's scripts never load: the page is what a visitor without script gets, while axe
      // and the test may still run script in it.
      await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
      await page.goto(`${origin}/ostoskori#tuotteet`);
      const before = await sums(page);
      const title = await page.title();

      await tabTo(page, field(page));
      await page.keyboard.type(WRONG);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(page.url()).toBe(`${origin}/ostoskori`);
      expect(await page.title()).toBe(t('content.errorTitle', { title }));
      const summary = page.locator('[data-error-summary]');
      await expect.poll(() => isFocused(summary)).toBe(true);
      expect(await summary.getByRole('link').textContent()).toBe(t('shop.giftCard.invalid'));
      expect(await field(page).inputValue()).toBe(WRONG);
      expect(await field(page).getAttribute('aria-invalid')).toBe('true');
      expect(await describedError(page)).toBe(t('shop.giftCard.invalid'));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-nojs-invalid`);

      // The summary's link leads to the field.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => isFocused(field(page))).toBe(true);
      await retype(page, CARD);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(await page.title()).toBe(title);
      expect(await page.locator('[data-error-summary]').count()).toBe(0);
      expect(await page.getByText(t('shop.giftCardBox.added', { code: '•••• 2000' })).count()).toBe(
        1,
      );
      expect(await chips(page).getByRole('listitem').count()).toBe(1);
      const paid = await sums(page);
      expect(paid.used).toBeGreaterThan(0);
      expect(paid.payable).toBe((paid.total ?? 0) - (paid.used ?? 0));
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-nojs-entered`);

      await tabTo(page, removeButton(page));
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(await chips(page).count()).toBe(0);
      expect(await page.getByText(t('shop.giftCardBox.removed')).count()).toBe(1);
      expect(await sums(page)).toEqual(before);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});
