import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  hydrated,
  isFocused,
  newPage,
  screenshots,
  scrollIslandIntoView,
  seriousViolations,
  slowPoll,
  watchProblems,
} from './browser.ts';
import {
  CART_API,
  CHECKOUT_API,
  confirmMailedRegistration,
  productsForSale,
  SHOP_ORIGIN,
} from './shop-support.ts';

/**
 * What the shop shows after the shopper's own actions, at 1280 px with pictures also at 375 px:
 * the step to the order details follows an address saved in the modal; a quantity beyond the
 * stock says why it became what it did; the cart's delivery check agrees with its lines; the
 * checkout says why there is no delivery date and what to change; an empty cart offers the way to
 * the products and nothing else; the review button goes once the review is sent; an add from a
 * product card carries the product's category to the data layer as the product page's does; and
 * a cart whose delivery time is held reads only, with a way on and a way to edit. Axe finds
 * nothing serious or critical in any of these states.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');
const PASSWORD = 'tilan-testi-salasana';
/** Seeded areas (README, "Shop demo data"): Helsinki region Tue+Thu, Tampere Wed. */
const HELSINKI = '00100';
const TAMPERE = '33100';
/**
 * Seeded products made to order (Tuesdays and Fridays) and sold on Thursdays only: neither has a
 * Wednesday, so neither comes to Tampere (issue "rough edges a shopper meets", items 3 and 4).
 */
const NOT_TO_TAMPERE = ['102002', '102004'];

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop-states', { fullPage: true });

/** Pictures of the page as it is at 1280 and 375 px wide; the page is left at 1280 px. */
async function shots(page: Page, name: string) {
  // From the top, so the sticky header stands where it belongs in a whole-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, `1280-${name}`);
  await page.setViewportSize({ width: 375, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, `375-${name}`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function noSeriousViolations(page: Page, where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

/** A call of the shop's API from the page, with the anti-forgery header its widgets send. */
function api(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body }) => {
      const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
      const response = await fetch(url, {
        method,
        credentials: 'same-origin',
        headers: {
          'x-xsrf-token': match?.[1] ? decodeURIComponent(match[1]) : '',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
    },
    { method, url, body },
  );
}

async function ok(page: Page, method: string, url: string, body?: unknown) {
  const answer = await api(page, method, url, body);
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

let customers = 0;
/** Registers the page's visitor as a customer, with a delivery address when a postal code is given. */
async function becomeCustomer(page: Page, postalCode?: string) {
  customers += 1;
  const email = `tila${customers}-${Date.now()}@example.fi`;
  await page.goto(`${origin}/`);
  await ok(page, 'POST', `${ACCOUNT_API}/register`, { email, password: PASSWORD });
  // The account is made from the mailed link (decision 075).
  await confirmMailedRegistration(page, email);
  if (postalCode) {
    await ok(page, 'POST', CUSTOMER_API, {
      firstName: 'Maija',
      lastName: 'Meikäläinen',
      streetAddress: 'Lihakuja 3',
      postalCode,
      city: postalCode === TAMPERE ? 'Tampere' : 'Helsinki',
      phoneNumber: '040 123 4567',
      isPrivateCustomer: true,
    });
  }
}

const addToCart = (page: Page, code: string, quantity = 1) =>
  ok(page, 'POST', `${CART_API}/add?language=fi&code=${code}&quantity=${quantity}`);

const cartOf = async (page: Page) =>
  (await ok(page, 'GET', `${CART_API}/load?language=fi`)) as {
    lineItems: { code: string; name: string; category: string; quantity: number }[];
    isEditable: boolean;
  };

async function openCart(page: Page) {
  await page.goto(`${origin}/ostoskori#tuotteet`);
  await hydrated(page, 'shop-cart');
}

type Layer = { event?: string; ecommerce?: { items: Record<string, unknown>[] } }[];
const addEvents = async (page: Page) =>
  ((await page.evaluate(() => window.dataLayer ?? [])) as Layer).filter(
    (entry) => entry.event === 'add_to_cart',
  );

describe('the shop follows what the shopper just did', () => {
  it('an address saved in the modal leads the next step to the checkout at once', async () => {
    const { context, page } = await newPage(browser, 1280);
    const problems = watchProblems(page);
    try {
      await becomeCustomer(page);
      const [product] = await productsForSale(page, 1);
      if (!product) throw new Error('nothing for sale');
      await addToCart(page, product.code);
      await openCart(page);
      const toDetails = page.locator('a[data-to-details]');
      expect(await toDetails.getAttribute('href')).toBe('#kirjaudu');

      const modal = page.locator('[data-address-modal]');
      await modal.waitFor();
      const fill = (label: string, value: string) => modal.getByLabel(label).fill(value);
      await fill(t('account.field.firstName'), 'Maija');
      await fill(t('account.field.lastName'), 'Meikäläinen');
      await fill(t('account.field.streetAddress'), 'Lihakuja 3');
      await fill(t('account.field.postalCode'), HELSINKI);
      await fill(t('account.field.city'), 'Helsinki');
      await fill(t('account.field.phoneNumber'), '0401234567');
      await modal.getByLabel(t('account.field.isPrivateCustomer')).check();
      await modal.getByRole('button', { name: t('checkout.address.save') }).click();
      await modal.waitFor({ state: 'detached' });

      // No reload: the step goes to the checkout with the postal code just saved.
      await slowPoll(() => toDetails.getAttribute('href')).toBe(
        `/kassa?postinumero=${HELSINKI}#toimitus`,
      );
      await noSeriousViolations(page, 'cart after the address');
      await shots(page, 'address-saved');
      await toDetails.click();
      await page.waitForURL(`${origin}/kassa?postinumero=${HELSINKI}#toimitus`);
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('a quantity beyond the stock says why it became the stock', async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      await page.goto(`${origin}/`);
      const products = await productsForSale(page, 40, 2);
      const product = products.find((p) => p.stock !== null && p.stock < 99);
      if (!product?.stock) throw new Error('no product with a stock below 99');
      await addToCart(page, product.code);
      await openCart(page);
      const line = page.locator(`li[data-code="${product.code}"]`);
      const field = line.getByRole('spinbutton');
      await field.fill('150');
      await slowPoll(() => field.inputValue()).toBe(String(product.stock));
      const why = t('shop.cart.quantityCapped', { name: product.name, max: product.stock });
      const warning = line.getByText(why, { exact: true });
      await slowPoll(() => warning.isVisible()).toBe(true);
      expect(await page.getByText(t('shop.cart.updated'), { exact: true }).count()).toBe(0);
      // The field names the warning, and the change is announced with it.
      const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
      expect(describedBy.split(' ')).toContain(await warning.getAttribute('id'));
      expect(await page.locator('[role="status"]', { hasText: why }).count()).toBeGreaterThan(0);
      await noSeriousViolations(page, 'quantity capped');
      await shots(page, 'quantity-capped');
    } finally {
      await context.close();
    }
  });

  it("the cart's delivery check agrees with its lines: the area is served, these products are not", async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      await page.goto(`${origin}/`);
      for (const code of NOT_TO_TAMPERE) await addToCart(page, code);
      const names = (await cartOf(page)).lineItems.map((line) => line.name);
      await openCart(page);
      const code = page.getByRole('textbox', { name: t('shop.delivery.postalCode') });
      await code.fill(TAMPERE);
      await page.getByRole('button', { name: t('shop.delivery.check'), exact: true }).click();
      const verdict = t('shop.delivery.productsNotDelivered', {
        postalCode: TAMPERE,
        products: names.join(', '),
      });
      await slowPoll(() => page.getByText(verdict, { exact: true }).count()).toBe(1);
      for (const product of NOT_TO_TAMPERE) {
        await slowPoll(() =>
          page
            .locator(`li[data-code="${product}"] [data-availability]`)
            .getAttribute('data-availability'),
        ).toBe('none');
      }
      expect(
        await page
          .getByText(t('shop.delivery.available', { postalCode: TAMPERE }), { exact: true })
          .count(),
      ).toBe(0);
      await noSeriousViolations(page, 'cart, Tampere');
      await shots(page, 'cart-tampere');
    } finally {
      await context.close();
    }
  });

  it('the checkout says why there is no delivery date, and what to change', async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      await becomeCustomer(page, TAMPERE);
      for (const code of NOT_TO_TAMPERE) await addToCart(page, code);
      const names = (await cartOf(page)).lineItems.map((line) => line.name);
      await page.goto(`${origin}/kassa?postinumero=${TAMPERE}#toimitus`);
      await hydrated(page, 'shop-checkout');
      const why = t('shop.delivery.productsNotDelivered', {
        postalCode: TAMPERE,
        products: names.join(', '),
      });
      await slowPoll(() => page.getByText(why, { exact: true }).count()).toBe(1);
      const editCart = page.getByRole('link', { name: t('checkout.delivery.editCart') });
      expect(await editCart.getAttribute('href')).toBe('/ostoskori#tuotteet');
      expect(
        await page.getByRole('link', { name: t('checkout.delivery.changePostalCode') }).count(),
      ).toBe(1);
      await noSeriousViolations(page, 'checkout, Tampere');
      await shots(page, 'checkout-tampere');
    } finally {
      await context.close();
    }
  });

  it('an empty cart says so and offers the way to the products, nothing else', async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      await page.goto(`${origin}/`);
      const [product] = await productsForSale(page, 1);
      if (!product) throw new Error('nothing for sale');
      const main = page.locator('main');
      const expectEmpty = async () => {
        await slowPoll(() => main.getByText(t('shop.cart.empty'), { exact: true }).count()).toBe(1);
        const back = main.getByRole('link', { name: t('shop.cart.continue') });
        expect(await back.getAttribute('href')).toBe('/tuotteet');
        expect(await main.getByRole('heading', { name: t('shop.cart.summary') }).count()).toBe(0);
        expect(await main.getByRole('textbox').count()).toBe(0);
        expect(await main.locator('[data-sum]').count()).toBe(0);
        expect(await main.getByRole('link', { name: t('shop.cart.toDetails') }).count()).toBe(0);
      };
      await openCart(page);
      await expectEmpty();
      await noSeriousViolations(page, 'empty cart');
      await shots(page, 'cart-empty');

      // The last line removed: the same, and the focus goes to what the cart now says.
      await addToCart(page, product.code);
      const [line] = (await cartOf(page)).lineItems;
      await page.reload();
      await hydrated(page, 'shop-cart');
      const remove = page.getByRole('button', {
        name: t('shop.cart.remove', { name: line?.name ?? '' }),
      });
      await remove.focus();
      await page.keyboard.press('Enter');
      await expectEmpty();
      await slowPoll(() => isFocused(main.getByText(t('shop.cart.empty'), { exact: true }))).toBe(
        true,
      );
      await noSeriousViolations(page, 'cart emptied');
    } finally {
      await context.close();
    }
  });

  it('the review button goes once the review is sent, also after a reload', async () => {
    const { context, page } = await newPage(browser, 1280);
    const problems = watchProblems(page);
    try {
      await becomeCustomer(page, HELSINKI);
      const [product] = await productsForSale(page, 1);
      if (!product) throw new Error('nothing for sale');
      await page.goto(`${origin}${product.url}`);
      const reviews = page.locator('#reviews');
      await scrollIslandIntoView(page.locator('k-island[data-name="shop-reviews"]'));
      await hydrated(page, 'shop-reviews');
      const write = reviews.getByRole('button', { name: t('review.write') });
      await write.click();
      const dialog = page.getByRole('dialog');
      await dialog
        .getByRole('radio', { name: t('review.field.ratingOption', { stars: 4 }) })
        .focus();
      await page.keyboard.press('Space');
      await dialog.getByLabel(t('review.field.text')).fill('Mureaa ja maukasta.');
      await dialog.getByRole('button', { name: t('review.submit') }).click();
      await dialog.getByRole('heading', { name: t('review.thanks.title') }).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // Under the shop's default pre-moderation the text says the review waits (decision 148).
      const reviewed = reviews.getByText(t('review.reviewedPending'), { exact: true });
      await slowPoll(() => reviewed.isVisible()).toBe(true);
      expect(await write.count()).toBe(0);
      // The focus had the button, which is gone: it is on what took its place.
      await slowPoll(() => isFocused(reviewed)).toBe(true);
      await noSeriousViolations(page, 'reviewed');
      await scrollIslandIntoView(page.locator('k-island[data-name="shop-reviews"]'));
      await shots(page, 'reviewed');

      await page.reload();
      await scrollIslandIntoView(page.locator('k-island[data-name="shop-reviews"]'));
      await hydrated(page, 'shop-reviews');
      expect(await reviewed.isVisible()).toBe(true);
      expect(await write.count()).toBe(0);
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("add_to_cart from product cards carries the product's category, as from its page", async () => {
    const { context, page } = await newPage(browser, 1280);
    try {
      const added = async (card: Locator) => {
        const before = (await addEvents(page)).length;
        await card.getByRole('button', { name: t('shop.buy.add') }).click();
        await slowPoll(async () => (await addEvents(page)).length).toBe(before + 1);
        const item = (await addEvents(page)).at(-1)?.ecommerce?.items[0] ?? {};
        const line = (await cartOf(page)).lineItems.find((l) => l.code === item.item_id);
        expect(line?.category).toBeTruthy();
        return { item, category: line?.category };
      };

      // The shop's search grid.
      await page.goto(`${origin}/tuotteet`);
      await page.locator('k-island[data-name="shop-product-search"][data-hydrated]').waitFor();
      const gridCard = page
        .locator('k-island[data-name="shop-product-search"] article')
        .filter({ has: page.getByRole('button', { name: t('shop.buy.add') }) })
        .first();
      await hydrated(page, 'shop-product-search');
      const fromGrid = await added(gridCard);
      expect(fromGrid.item.item_category).toBe(fromGrid.category);

      // A card of the home page's carousel (a content card with the shop's buy control).
      await page.goto(`${origin}/`);
      const carousel = page.locator('k-island[data-name="product-card-carousel"]');
      await scrollIslandIntoView(carousel);
      await page.locator('k-island[data-name="product-card-carousel"][data-hydrated]').waitFor();
      const carouselCard = carousel
        .locator('li:not([inert]) article')
        .filter({ has: page.getByRole('button', { name: t('shop.buy.add') }) })
        .first();
      const fromCarousel = await added(carouselCard);
      expect(fromCarousel.item.item_category).toBe(fromCarousel.category);

      // The product's own page gives the same item.
      const detail = (await ok(
        page,
        'GET',
        `/api/products/${String(fromGrid.item.item_id)}?language=fi`,
      )) as { url: string };
      await page.goto(`${origin}${new URL(detail.url, origin).pathname}`);
      await hydrated(page, 'shop-buy-control');
      const fromPage = await added(page.locator('k-island[data-name="shop-buy-control"]'));
      expect(fromPage.item).toEqual(fromGrid.item);
    } finally {
      await context.close();
    }
  });

  it('a cart whose delivery time is held reads only, with the way on and the way to edit', async () => {
    const { context, page } = await newPage(browser, 1280);
    const problems = watchProblems(page);
    try {
      await becomeCustomer(page, HELSINKI);
      const products = await productsForSale(page, 40, 2);
      let added: string | null = null;
      let slot: { date: string; time: string } | null = null;
      for (const product of products) {
        await addToCart(page, product.code);
        const delivery = (await ok(
          page,
          'GET',
          `${CHECKOUT_API}/delivery?postalCode=${HELSINKI}&language=fi`,
        )) as { dates: { value: string; times: { value: string }[] }[] };
        const first = delivery.dates[0];
        if (first?.times[0]) {
          added = product.code;
          slot = { date: first.value, time: first.times[0].value };
          break;
        }
        await ok(
          page,
          'POST',
          `${CART_API}/changequantity?language=fi&code=${product.code}&quantity=0`,
        );
      }
      if (!added || !slot) throw new Error('no product to deliver to Helsinki');
      await ok(page, 'POST', `${CHECKOUT_API}/hold?language=fi`, {
        postalCode: HELSINKI,
        ...slot,
        useDeliveryAddressForBilling: true,
      });

      await openCart(page);
      const line = page.locator(`li[data-code="${added}"]`);
      const field = line.getByRole('spinbutton');
      expect(await field.getAttribute('readonly')).not.toBeNull();
      expect(
        await line.getByRole('button', { name: new RegExp(t('shop.buy.increase')) }).isDisabled(),
      ).toBe(true);
      const notice = page.locator('[data-cart-locked]');
      await notice.waitFor();
      expect(await notice.textContent()).toContain(t('shop.cart.toPayment'));
      const onwards = notice.getByRole('link', { name: t('shop.cart.toPayment') });
      expect(await onwards.getAttribute('href')).toBe(`/kassa?postinumero=${HELSINKI}#maksu`);
      await noSeriousViolations(page, 'cart held');
      await shots(page, 'cart-held');

      const unlock = notice.getByRole('button', { name: t('shop.cart.unlock') });
      await unlock.focus();
      await page.keyboard.press('Enter');
      await slowPoll(() => field.getAttribute('readonly')).toBeNull();
      await slowPoll(() => page.getByText(t('shop.cart.unlocked'), { exact: true }).count()).toBe(
        1,
      );
      expect((await cartOf(page)).isEditable).toBe(true);
      expect(await notice.count()).toBe(0);
      await noSeriousViolations(page, 'cart released');
      await shots(page, 'cart-released');
      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
