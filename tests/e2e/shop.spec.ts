import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { QUANTITY_DEBOUNCE_MS } from '../../src/features/shop/cart-page.tsx';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  settled,
  watchProblems,
} from './browser.ts';
import { CART_API, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * The shop's buying widgets in the browser at 1280 and 375 px, by mouse and by keyboard: the buy
 * control on a product page (one add for a double click, the header's badge follows, view_item and
 * add_to_cart in the data layer), the cart page with its lines, the debounced quantity change (one
 * request after 1 s), 0 removing a line, the summary, the coupon box's texts and the delivery
 * checks' texts. Axe finds nothing serious or critical in these states.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop', { fullPage: true });

/** Every request to one of the cart's calls, as the page sends them. */
function watchCartCalls(page: Page) {
  const calls: { call: string; query: URLSearchParams }[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith(CART_API) || request.method() !== 'POST') return;
    calls.push({ call: url.pathname.slice(CART_API.length + 1), query: url.searchParams });
  });
  return calls;
}

type Layer = {
  event?: string;
  ecommerce?: { currency: string; items: Record<string, unknown>[] };
}[];
const dataLayer = (page: Page) => page.evaluate(() => (window.dataLayer ?? []) as unknown as Layer);
const events = async (page: Page, name: string) =>
  (await dataLayer(page)).filter((entry) => entry.event === name);

async function hydrated(page: Page, name: string) {
  await page.locator(`k-island[data-name="${name}"][data-hydrated]`).first().waitFor();
}

function badge(page: Page, count: number) {
  return page.locator('header').getByRole('link', { name: t('header.cartWithCount', { count }) });
}

async function newPage(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(10_000);
  return { context, page: await context.newPage() };
}

/** Presses Tab until `target` has the focus (at most `limit` times). */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('never reached by Tab');
}

describe.each([1280, 375])('shop at %i px', (width) => {
  it('buys from product pages by mouse and keyboard; the badge and the data layer follow', async () => {
    const { context, page } = await newPage(width);
    const problems = watchProblems(page);
    try {
      await page.goto(`${origin}/`);
      const products = await productsForSale(page, 2, 3);
      expect(products).toHaveLength(2);
      const [a, b] = products as [(typeof products)[0], (typeof products)[0]];
      const calls = watchCartCalls(page);

      // Mouse: a double click adds once.
      await page.goto(`${origin}${a.url}`);
      await hydrated(page, 'shop-buy-control');
      const stock = a.stock;
      await expect
        .poll(() => page.locator('main').textContent())
        .toContain(
          stock === null
            ? t('shop.stock.unlimited')
            : stock < 5
              ? t('shop.stock.few', { count: stock })
              : t('shop.stock.many'),
        );
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-product`);
      const add = page.getByRole('button', { name: t('shop.buy.add') });
      await add.dblclick();
      const status = page.locator('k-island[data-name="shop-buy-control"] [role="status"]');
      await expect.poll(() => status.textContent()).toBe(t('shop.buy.added'));
      expect(calls.filter((c) => c.call === 'add')).toHaveLength(1);
      await expect.poll(() => badge(page, 1).count()).toBe(1);
      const viewed = await events(page, 'view_item');
      expect(viewed).toHaveLength(1);
      expect(viewed[0]?.ecommerce?.currency).toBe('EUR');
      expect(viewed[0]?.ecommerce?.items[0]).toMatchObject({
        item_id: a.code,
        item_name: a.name,
        quantity: 1,
      });
      const added = await events(page, 'add_to_cart');
      expect(added).toHaveLength(1);
      expect(added[0]?.ecommerce?.items[0]).toMatchObject({
        item_id: a.code,
        item_name: a.name,
        price: Number(a.price.replace(',', '.')),
        quantity: 1,
      });
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-product-added`);

      // Keyboard: a quantity out of range is refused with the text tied to the field, the typed
      // value kept; then 2 by the + button and Enter.
      await page.goto(`${origin}${b.url}`);
      await hydrated(page, 'shop-buy-control');
      const quantity = page.getByRole('spinbutton', { name: t('shop.buy.quantity') });
      await tabTo(page, quantity);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('0');
      await page.keyboard.press('Enter');
      const rangeText = t('shop.buy.range', { min: 1, max: Math.min(99, b.stock ?? 99) });
      await expect.poll(() => page.getByText(rangeText).count()).toBe(1);
      expect(await quantity.getAttribute('aria-invalid')).toBe('true');
      expect(await quantity.inputValue()).toBe('0');
      expect(await quantity.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('1');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter'); // the + button
      expect(await quantity.inputValue()).toBe('2');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter'); // Lisää ostoskoriin
      await expect.poll(() => badge(page, 2).count()).toBe(1);
      const adds = calls.filter((c) => c.call === 'add');
      expect(adds).toHaveLength(2);
      expect(adds[1]?.query.get('quantity')).toBe('2');
      expect(adds[1]?.query.get('code')).toBe(b.code);
      expect((await events(page, 'add_to_cart'))[0]?.ecommerce?.items[0]).toMatchObject({
        item_id: b.code,
        quantity: 2,
      });

      // The cart page lists both. Its timers run on Playwright's clock from here on, so the tests
      // of its debounce let the time pass at once.
      await context.clock.install();
      await page.goto(`${origin}/ostoskori#tuotteet`);
      await hydrated(page, 'shop-cart');
      const lines = page.locator('li[data-code]');
      expect(
        await lines.evaluateAll((els) => els.map((el) => el.getAttribute('data-code'))),
      ).toEqual([a.code, b.code]);
      const viewCart = await events(page, 'view_cart');
      expect(viewCart).toHaveLength(1);
      expect(viewCart[0]?.ecommerce?.items.map((item) => [item.item_id, item.quantity])).toEqual([
        [a.code, 1],
        [b.code, 2],
      ]);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-cart`);

      // Two clicks on + within a second: one request, with the last quantity, after 1 s.
      const first = lines.first();
      const total = page.locator('[data-sum="total"]');
      const before = await total.textContent();
      const changes = () => calls.filter((c) => c.call === 'changequantity');
      const plus = first.getByRole('button', {
        name: `${t('shop.buy.increase')}, ${a.name}`,
      });
      await plus.click();
      await plus.click();
      await page.clock.runFor(700);
      expect(changes()).toHaveLength(0);
      await page.clock.runFor(QUANTITY_DEBOUNCE_MS - 700);
      await expect.poll(() => changes().length, { timeout: 3000 }).toBe(1);
      expect(changes()[0]?.query.get('quantity')).toBe('3');
      await expect.poll(() => total.textContent()).not.toBe(before);
      // No second request however long one waits: more than the debounce time passes at once.
      await page.clock.runFor(QUANTITY_DEBOUNCE_MS + 200);
      await settled(page);
      expect(changes()).toHaveLength(1);
      expect((await events(page, 'add_to_cart')).at(-1)?.ecommerce?.items[0]).toMatchObject({
        item_id: a.code,
        quantity: 2,
      });

      // Keyboard: 0 in the second line's field removes the line after the pause.
      const secondInput = lines.nth(1).getByRole('spinbutton');
      await tabTo(page, secondInput);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('0');
      await expect.poll(() => lines.count(), { timeout: 4000 }).toBe(1);
      expect(changes()).toHaveLength(2);
      expect(changes()[1]?.query.get('quantity')).toBe('0');
      await expect.poll(() => badge(page, 1).count()).toBe(1);
      expect((await events(page, 'remove_from_cart')).at(-1)?.ecommerce?.items[0]).toMatchObject({
        item_id: b.code,
        quantity: 2,
      });
      expect(await seriousViolations(page)).toEqual([]);

      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the coupon box and the delivery checks show the spec texts', async () => {
    const { context, page } = await newPage(width);
    try {
      await page.goto(`${origin}/`);
      const [product] = await productsForSale(page, 1, 1);
      expect(product).toBeDefined();
      await page.goto(`${origin}${product?.url}`);
      await hydrated(page, 'shop-buy-control');

      // Per-product availability: a code that is not a postal code. The check hydrates when it
      // comes into view (below the fold on a phone).
      const code = page.getByRole('textbox', { name: t('shop.availability.label') });
      await code.scrollIntoViewIfNeeded();
      await hydrated(page, 'shop-availability-check');
      await code.fill('12');
      await code.press('Enter');
      await expect.poll(() => page.getByText(t('shop.availability.invalid')).count()).toBe(1);
      expect(await code.getAttribute('aria-invalid')).toBe('true');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-availability-invalid`);

      await page.getByRole('button', { name: t('shop.buy.add') }).click();
      await expect.poll(() => badge(page, 1).count()).toBe(1);

      await page.goto(`${origin}/ostoskori#tuotteet`);
      await hydrated(page, 'shop-cart');

      // Coupon: empty is refused before any call, the field keeps focus.
      const coupon = page.getByRole('textbox', { name: t('shop.couponBox.label') });
      await coupon.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByText(t('shop.coupon.empty')).count()).toBe(1);
      expect(await coupon.getAttribute('aria-invalid')).toBe('true');
      await coupon.fill('EIOLEOLEMASSA');
      await coupon.press('Enter');
      await expect.poll(() => page.getByText(t('shop.coupon.invalid')).count()).toBe(1);
      expect(await coupon.inputValue()).toBe('EIOLEOLEMASSA');
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-coupon-invalid`);

      // Delivery-area check: not a postal code.
      const postal = page.getByRole('textbox', { name: t('shop.delivery.postalCode') });
      await postal.fill('abc');
      await postal.press('Enter');
      await expect.poll(() => page.getByText(t('shop.delivery.unrecognised')).count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-delivery-unrecognised`);
    } finally {
      await context.close();
    }
  });
});
