import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import { CHECKOUT_HOLD_API, CHECKOUT_ORDER_API } from '../../src/features/shop/orders/schemas.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '../../src/server/plugins/xsrf.ts';
import {
  chromiumForFile,
  newPage,
  screenshots,
  seriousViolations,
  watchProblems,
} from './browser.ts';
import { CART_API, CHECKOUT_API, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * Paying an order in the browser (decision 028): an order placed through the checkout's API by a
 * new customer, its payment at the built-in test bank ('Hyväksy maksu' or 'Peruuta'), and where
 * the shopper lands: the confirmation page (paid, its `purchase` event pushed once per browser
 * session) or back at the checkout's payment step. 'Oma tili' lists the order. At 1280 and 375
 * px; axe finds nothing serious or critical.
 */

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('shop-payment', { fullPage: true });

/** Registers, saves an address, fills the cart, holds the first delivery time, places the order. */
async function placeOrder(
  page: Page,
): Promise<{ orderId: string; orderNumber: number; next: string }> {
  await page.goto(`${SHOP_ORIGIN}/`);
  const products = await productsForSale(page, 2, 2);
  expect(products.length).toBeGreaterThan(0);
  return page.evaluate(
    async ({ products, api }) => {
      const xsrf = () =>
        decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith(`${api.xsrfCookie}=`))
            ?.split('=')[1] ?? '',
        );
      const call = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(url, {
          method,
          headers: {
            [api.xsrfHeader]: xsrf(),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
        return res.json();
      };
      const email = `maksaja-${Math.random().toString(36).slice(2)}@example.fi`;
      await call('POST', `${api.account}/register`, { email, password: 'salasana-joka-on-pitka' });
      // The account exists once its mailed link is used (decision 075): read from the outbox page.
      const outbox = await (await fetch('/dev/outbox')).text();
      const mail = outbox.split('<article').find((article) => article.includes(email));
      const token = /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail ?? '')?.[1];
      await call('POST', `${api.account}/register/confirm`, { token });
      await call('POST', api.customer, {
        firstName: 'Maija',
        lastName: 'Meikäläinen',
        streetAddress: 'Lihakuja 3',
        postalCode: '00100',
        city: 'Helsinki',
        phoneNumber: '040 123 4567',
        isPrivateCustomer: true,
      });
      for (const p of products) {
        await call('POST', `${api.cart}/add?language=fi&code=${p.code}&quantity=2`);
      }
      const delivery = await call('GET', `${api.checkout}/delivery?postalCode=00100&language=fi`);
      const date = delivery.dates[0];
      if (!date) throw new Error('no delivery date for 00100');
      const held = await call('POST', `${api.hold}?language=fi`, {
        postalCode: '00100',
        date: date.value,
        time: date.times[0].value,
        useDeliveryAddressForBilling: true,
      });
      // The totals the checkout shows are what the order charges (decision 080).
      return call('POST', api.order, {
        checkoutId: held.hold.checkoutId,
        PaymentMethodCode: 'FI54',
        total: held.cart.total,
        usedGiftCardAmount: held.cart.usedGiftCardAmount,
      });
    },
    {
      products: products.map((p) => ({ code: p.code })),
      api: {
        account: ACCOUNT_API,
        customer: CUSTOMER_API,
        cart: CART_API,
        checkout: CHECKOUT_API,
        hold: CHECKOUT_HOLD_API,
        order: CHECKOUT_ORDER_API,
        xsrfCookie: XSRF_COOKIE,
        xsrfHeader: XSRF_HEADER,
      },
    },
  );
}

const purchases = (page: Page) =>
  page.evaluate(
    () =>
      (window.dataLayer ?? []).filter((e) => (e as { event?: string }).event === 'purchase').length,
  );

describe('paying an order at the test bank', () => {
  for (const width of [1280, 375]) {
    it(`approve: the confirmation page, the purchase event once, the order on Oma tili (${width} px)`, async () => {
      const { context, page } = await newPage(browser, width);
      const problems = watchProblems(page);
      const placed = await placeOrder(page);
      await page.goto(placed.next);
      await page.getByRole('button', { name: 'Hyväksy maksu' }).click();
      await page.waitForURL(`**/kassa/vahvistus?tilaus=${placed.orderId}`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent())
        .toBe('Tilausvahvistus');
      expect(await page.locator('main [role="status"]').textContent()).toContain(
        'Maksu on vastaanotettu',
      );
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain(String(placed.orderNumber));
      expect(text).toContain('Maksettu');
      expect(text).toContain('Lihakuja 3');
      await expect.poll(() => purchases(page)).toBe(1);
      const event = await page.evaluate(() =>
        (window.dataLayer ?? []).find((e) => (e as { event?: string }).event === 'purchase'),
      );
      expect(event).toMatchObject({
        ecommerce: {
          transaction_id: String(placed.orderNumber),
          currency: 'EUR',
          payment_type: 'Mobile pay',
        },
      });
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `paid-${width}`);
      // A reload in the same browser session pushes nothing again.
      await page.reload();
      await page
        .locator('k-island[data-name="shop-purchase"][data-hydrated]')
        .waitFor({ state: 'attached' });
      expect(await purchases(page)).toBe(0);

      await page.goto(`${SHOP_ORIGIN}/oma-tili`);
      const link = page.getByRole('link', { name: `Näytä tilaus ${placed.orderNumber}` });
      await expect.poll(() => link.count()).toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `account-${width}`);
      await link.click();
      await page.waitForURL(`**/kassa/vahvistus?tilaus=${placed.orderId}`);
      expect(problems.console).toEqual([]);
      await context.close();
    });
  }

  it('cancel: back to the checkout payment step; the page says cancelled; another browser gets 404', async () => {
    const { context, page } = await newPage(browser, 1280);
    const placed = await placeOrder(page);
    await page.goto(placed.next);
    const back = page.waitForResponse((r) => new URL(r.url()).pathname === '/kassa/maksu/paluu');
    await page.getByRole('button', { name: 'Peruuta' }).click();
    const answer = await back;
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('/kassa?postinumero=00100&maksu=peruttu#maksu');
    await page.goto(`${SHOP_ORIGIN}/kassa/vahvistus?tilaus=${placed.orderId}`);
    expect((await page.locator('main').textContent()) ?? '').toContain('Peruttu');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'cancelled-1280');
    const other = await newPage(browser, 1280);
    const res = await other.page.goto(`${SHOP_ORIGIN}/kassa/vahvistus?tilaus=${placed.orderId}`);
    expect(res?.status()).toBe(404);
    await other.context.close();
    await context.close();
  });
});
