import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  hydrated,
  isFocused,
  newPage,
  type PageProblems,
  screenshots,
  seriousViolations,
  slowPoll,
  tabTo,
  watchProblems,
} from './browser.ts';
import {
  CART_API,
  CHECKOUT_API,
  confirmMailedRegistration,
  giftCardForSale,
  productsForSale,
  SHOP_ORIGIN,
} from './shop-support.ts';

/**
 * The checkout in the browser at 1280 and 375 px, by keyboard (decision 029): a product into
 * the cart, the cart's login view with the postal-code check, registering (paluu back to the
 * checkout), the address modal (Escape closes it, the checkout opens it again; a wrong phone
 * number, then a save), the delivery date and time (the hold), the payment step, the test bank,
 * the confirmation, the order under 'Oma tili' and a review of the product bought (waiting for
 * moderation, decision 148: its verified-purchase mark is seen by the moderator in
 * `admin-reviews.spec.ts`); then a cart paid by a gift card, confirmed at
 * once through purchase-form; then a gift card bought, which needs no delivery time. The failed-submit pattern on each step (the summary focused, the
 * title prefixed), axe on each step, and screenshots.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');
const POSTAL_CODE = '00100';
const PASSWORD = 'kassan-testi-salasana';

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shop-checkout', { fullPage: true });

async function noSeriousViolations(page: Page, where: string) {
  expect(await seriousViolations(page), where).toEqual([]);
}

/** The data layer's events so far. */
const events = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => (entry as { event?: string }).event)
      .filter((event): event is string => typeof event === 'string'),
  );

/** A call of the shop's API from the page, with the anti-forgery header its widgets send. */
function apiCall(page: Page, method: string, url: string) {
  return page.evaluate(
    async ({ method, url }) => {
      const match = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie);
      const token = match?.[1] ? decodeURIComponent(match[1]) : '';
      const response = await fetch(url, {
        method,
        credentials: 'same-origin',
        headers: { 'x-xsrf-token': token },
      });
      return response.status;
    },
    { method, url },
  );
}

async function press(page: Page, target: Locator, key = 'Enter') {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Types into a field reached by Tab, replacing what it had. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(text);
}

/** Puts a product in the cart from its page with the keyboard. */
async function buyOnProductPage(page: Page, url: string) {
  await page.goto(`${origin}${url}`);
  await hydrated(page, 'shop-buy-control');
  const add = page.getByRole('button', { name: t('shop.buy.add') }).first();
  await press(page, add);
  await slowPoll(() => page.getByText(t('shop.buy.added')).first().isVisible()).toBe(true);
}

/** The delivery step: the first date and its first time by arrow keys; the hold is taken. */
async function chooseDeliveryTime(page: Page) {
  const date = page.locator('#checkout-date');
  await tabTo(page, date);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => date.inputValue()).not.toBe('');
  const time = page.locator('#checkout-time');
  await expect.poll(() => time.isEnabled()).toBe(true);
  await tabTo(page, time);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => time.inputValue()).not.toBe('');
  const held = page.getByText(/on varattu sinulle klo \d{1,2}\.\d{2} asti/);
  await slowPoll(() => held.isVisible()).toBe(true);
}

async function expectFailedSubmit(page: Page, text: string) {
  const summary = page.locator('#error-summary');
  await slowPoll(() => summary.isVisible()).toBe(true);
  await expect.poll(() => summary.textContent()).toContain(text);
  await expect.poll(() => isFocused(summary)).toBe(true);
  await expect.poll(() => page.title()).toMatch(/^Virhe: /);
}

/** Every answer of 400 or more the page got, as `METHOD /path status`. */
function watchRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    refused.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
  });
  return refused;
}

function consoleErrors(problems: PageProblems) {
  // The browser logs each refused answer as a failed resource; `watchRefusals` checks those.
  return problems.console.filter((line) => !/^Failed to load resource/.test(line));
}

describe.each([
  [1280, 'LAHJA-DEMO-2000'],
  [375, 'LAHJA-DEMO-5000'],
] as const)('checkout at %i px', (width, giftCard) => {
  // At 375 px the steps as the narrow window shows them, with axe; what the server decides
  // whatever the width (an expired hold, a review, a total of 0,00 €) is checked at 1280 px only
  // (decision 155).
  const wide = width === 1280;
  const title = wide
    ? 'product → cart → register → address → delivery time → test bank → confirmation → Oma tili → a review; then 0,00 € and gift cards only'
    : 'product → cart → register → address → delivery time → test bank → confirmation → Oma tili; then gift cards only';
  it(title, async () => {
    const { context, page } = await newPage(browser, width);
    context.setDefaultTimeout(15_000);
    const problems = watchProblems(page);
    const refusals = watchRefusals(page);
    try {
      await page.goto(`${origin}/`);
      const products = await productsForSale(page, 12, 2);
      expect(products.length).toBeGreaterThan(1);
      const cents = (price: string) => Number(price.replace(',', ''));
      const cheap = [...products].sort((a, b) => cents(a.price) - cents(b.price));
      const [main, small] = [cheap[1] ?? cheap[0], cheap[0]];
      if (!main || !small) throw new Error('no products');

      // --- product → cart ------------------------------------------------------------------
      await buyOnProductPage(page, main.url);
      const cartLink = page.locator('header a[href="/ostoskori#tuotteet"]:visible').first();
      await press(page, cartLink);
      await page.waitForURL(/\/ostoskori/);
      await hydrated(page, 'shop-cart');
      const toDetails = page.locator('a[data-to-details]');
      expect(await toDetails.getAttribute('href')).toBe('#kirjaudu');
      // With script the login view is closed until its link is followed (hidden, not shown
      // under the cart as an always-open box).
      const loginView = page.locator('#kirjaudu');
      expect(await loginView.isVisible()).toBe(false);
      await press(page, toDetails);
      await slowPoll(() => loginView.isVisible()).toBe(true);
      // The view's postal-code check; then the links carry paluu to the checkout.
      const postal = loginView.locator('input[name="postalCode"]');
      await typeInto(page, postal, POSTAL_CODE);
      await page.keyboard.press('Enter');
      await slowPoll(() =>
        loginView.getByText(t('shop.delivery.available', { postalCode: POSTAL_CODE })).isVisible(),
      ).toBe(true);
      const register = loginView.locator('a[data-register]');
      await expect
        .poll(() => register.getAttribute('href'))
        .toBe(
          `/rekisteroidy?paluu=${encodeURIComponent(`/kassa?postinumero=${POSTAL_CODE}#toimitus`)}`,
        );
      await noSeriousViolations(page, 'cart login view');
      await shot(page, `${width}-1-cart-login`);

      // --- register (a failed submit first) ---------------------------------------------------
      await press(page, register);
      await page.waitForURL(/\/rekisteroidy/);
      const registerButton = page.locator('main button[type="submit"]');
      await press(page, registerButton);
      await page.waitForLoadState();
      await slowPoll(() => page.locator('#error-summary').isVisible()).toBe(true);
      await expect.poll(() => isFocused(page.locator('#error-summary'))).toBe(true);
      expect(await page.title()).toMatch(/^Virhe: /);
      await noSeriousViolations(page, 'register, refused');
      const email = `kassa-${width}-${Date.now()}@example.fi`;
      await typeInto(page, page.locator('#field-email'), email);
      await typeInto(page, page.locator('#field-password'), PASSWORD);
      await page.keyboard.press('Enter');
      // The account waits for its mailed link (decision 075), which brings the shopper back.
      await slowPoll(() => page.locator('main p[role="status"]').isVisible()).toBe(true);
      await confirmMailedRegistration(page, email);
      await page.waitForURL(/\/kassa\?postinumero=00100#toimitus$/);
      await hydrated(page, 'shop-checkout');
      expect((await events(page)).includes('begin_checkout')).toBe(true);

      // --- the address modal: Escape closes it, the checkout opens it again -----------------
      const dialog = page.getByRole('dialog');
      await slowPoll(() => dialog.isVisible()).toBe(true);
      await noSeriousViolations(page, 'address modal');
      await shot(page, `${width}-2-address-modal`, false);
      await page.keyboard.press('Escape');
      await slowPoll(() => dialog.count()).toBe(0);
      const addAddress = page.getByRole('button', { name: t('checkout.delivery.addAddress') });
      await press(page, addAddress);
      await slowPoll(() => dialog.isVisible()).toBe(true);
      const save = dialog.getByRole('button', { name: t('checkout.address.save') });
      expect(await save.isDisabled()).toBe(true);
      const field = (name: string) => dialog.locator(`[name="${name}"]`);
      await typeInto(page, field('firstName'), 'Kerttu');
      await typeInto(page, field('lastName'), 'Kassala');
      await typeInto(page, field('streetAddress'), 'Maksukuja 7');
      await typeInto(page, field('postalCode'), POSTAL_CODE);
      await typeInto(page, field('city'), 'Helsinki');
      await typeInto(page, field('phoneNumber'), 'ei numero');
      expect(await save.isDisabled()).toBe(true);
      await press(page, field('isPrivateCustomer'), 'Space');
      await expect.poll(() => save.isDisabled()).toBe(false);
      await press(page, save);
      const phoneError = dialog.getByText(t('account.error.phone'));
      await slowPoll(() => phoneError.isVisible()).toBe(true);
      await expect.poll(() => isFocused(field('phoneNumber'))).toBe(true);
      await noSeriousViolations(page, 'address modal, refused');
      await shot(page, `${width}-3-address-refused`, false);
      await typeInto(page, field('phoneNumber'), '040 123 4567');
      await press(page, save);
      await slowPoll(() => dialog.count()).toBe(0);
      await slowPoll(() => page.locator('[data-address]').textContent()).toContain('Maksukuja 7');

      // --- delivery: next without a time is refused; then a date and a time ---------------
      const next = page.locator('#checkout-next');
      await press(page, next);
      await expectFailedSubmit(page, t('checkout.error.chooseDate'));
      await noSeriousViolations(page, 'delivery, refused');
      await shot(page, `${width}-4-delivery-refused`);
      await chooseDeliveryTime(page);
      expect((await events(page)).includes('add_shipping_info')).toBe(true);
      await noSeriousViolations(page, 'delivery, held');
      await shot(page, `${width}-5-delivery-held`);
      await press(page, next);
      await page.waitForURL(/#maksu$/);
      const payStep = page.locator('#maksu');
      await slowPoll(() => payStep.isVisible()).toBe(true);
      expect(await page.locator('#toimitus').isVisible()).toBe(false);
      await slowPoll(async () => (await events(page)).includes('add_payment_info')).toBe(true);
      await noSeriousViolations(page, 'payment step');
      await shot(page, `${width}-6-payment`);

      // --- payment refused by the server: the hold went meanwhile --------------------------
      if (wide) {
        expect(await apiCall(page, 'DELETE', `${CHECKOUT_API}/hold`)).toBe(204);
        const pay = page.locator('#checkout-pay');
        await press(page, pay);
        await page.waitForURL(/\/kassa\?postinumero=00100$/);
        await hydrated(page, 'shop-checkout');
        await expectFailedSubmit(page, t('checkout.error.holdExpired'));
        await noSeriousViolations(page, 'payment, refused');
        await shot(page, `${width}-7-payment-refused`);
        await chooseDeliveryTime(page);
        await press(page, page.locator('#checkout-next'));
        await page.waitForURL(/#maksu$/);
      }

      // --- the test bank, the confirmation, Oma tili -----------------------------------------
      await press(page, page.locator('#checkout-pay'));
      await page.waitForURL(/\/maksu\/testipankki/);
      await noSeriousViolations(page, 'test bank');
      await press(page, page.getByRole('button', { name: t('shop.testBank.approve') }));
      await page.waitForURL(/\/kassa\/vahvistus\?tilaus=/);
      const confirmation = page.locator('main');
      await slowPoll(() => confirmation.textContent()).toContain(t('shop.order.number'));
      const number = (await page.locator('main dd').first().textContent())?.trim() ?? '';
      expect(number).toMatch(/^\d{6,}$/);
      await noSeriousViolations(page, 'confirmation');
      await shot(page, `${width}-8-confirmation`);

      await page.goto(`${origin}/oma-tili`);
      await slowPoll(() => page.locator('main').textContent()).toContain(number);
      await noSeriousViolations(page, 'Oma tili');
      await shot(page, `${width}-9-oma-tili`);

      if (wide) {
        // --- a review of the product just bought, by keyboard: it waits for moderation ----------
        await page.goto(`${origin}${main.url}#reviews`);
        await hydrated(page, 'shop-reviews');
        const write = page.getByRole('button', { name: t('review.write') });
        await tabTo(page, write);
        await page.keyboard.press('Enter');
        const reviewDialog = page.getByRole('dialog');
        await reviewDialog.waitFor();
        const oneStar = reviewDialog.getByRole('radio', { name: t('review.field.ratingOne') });
        await tabTo(page, oneStar, 10);
        await page.keyboard.press('Space');
        for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
        expect(
          await reviewDialog
            .getByRole('radio', { name: t('review.field.ratingOption', { stars: 5 }) })
            .isChecked(),
        ).toBe(true);
        const reviewText = `Mureaa ja maukasta, tilaus ${number} tuli ajallaan.`;
        await tabTo(page, reviewDialog.getByLabel(t('review.field.text')), 5);
        await page.keyboard.type(reviewText);
        // The nickname comes from the address; Enter in it sends the review.
        const nickname = reviewDialog.getByLabel(t('review.field.userName'));
        await tabTo(page, nickname, 5);
        expect(await nickname.inputValue()).not.toBe('');
        await page.keyboard.press('Enter');
        await reviewDialog.getByRole('heading', { name: t('review.thanks.title') }).waitFor();
        expect(await reviewDialog.textContent()).toContain(t('review.thanks.pending'));
        await noSeriousViolations(page, 'review written');
        await shot(page, `${width}-9b-review-thanks`, false);
        await page.keyboard.press('Escape');
        await reviewDialog.waitFor({ state: 'detached' });
        // One review per account: the button gave way to a text saying it waits for a moderator,
        // which has the focus; it is not listed yet.
        const reviewed = page.getByText(t('review.reviewedPending'), { exact: true });
        await expect.poll(() => isFocused(reviewed)).toBe(true);
        expect(await write.count()).toBe(0);
        expect(await page.locator('[data-review]', { hasText: reviewText }).count()).toBe(0);

        // --- 0,00 €: a gift card pays all; the next-step button confirms at once -------------
        await buyOnProductPage(page, small.url);
        expect(
          await apiCall(page, 'POST', `${CART_API}/addgiftcard?language=fi&code=${giftCard}`),
        ).toBe(200);
        await page.goto(`${origin}/ostoskori`);
        await hydrated(page, 'shop-cart');
        expect(await toDetails.getAttribute('href')).toBe(
          `/kassa?postinumero=${POSTAL_CODE}#toimitus`,
        );
        await press(page, toDetails);
        await page.waitForURL(/\/kassa\?postinumero=00100#toimitus$/);
        await hydrated(page, 'shop-checkout');
        await chooseDeliveryTime(page);
        expect(await page.locator('#checkout-next').textContent()).toBe(t('checkout.confirm'));
        await shot(page, `${width}-10-zero`);
        await press(page, page.locator('#checkout-next'));
        await page.waitForURL(/\/kassa\/vahvistus\?tilaus=/);
        await slowPoll(() => page.locator('main').textContent()).toContain(
          t('shop.order.status.paid'),
        );
        await noSeriousViolations(page, 'confirmation, 0,00');
        await shot(page, `${width}-11-zero-confirmation`);
      }

      // --- gift cards only: mailed, so no delivery time; paid at the test bank ---------------
      const bought = await giftCardForSale(page);
      await buyOnProductPage(page, bought.url);
      await page.goto(`${origin}/ostoskori`);
      await hydrated(page, 'shop-cart');
      await press(page, toDetails);
      await page.waitForURL(/\/kassa\?postinumero=00100#toimitus$/);
      await hydrated(page, 'shop-checkout');
      const byEmail = page.locator('[data-delivery="email"]');
      await slowPoll(() => byEmail.isVisible()).toBe(true);
      expect(await byEmail.textContent()).toContain(email);
      expect(await page.locator('#checkout-date').count()).toBe(0);
      await noSeriousViolations(page, 'gift cards only, delivery');
      await shot(page, `${width}-12-gift-card-delivery`);
      await press(page, page.locator('#checkout-next'));
      await page.waitForURL(/#maksu$/);
      await slowPoll(() => page.locator('[data-hold]').textContent()).toBe(
        t('checkout.byEmail.label'),
      );
      await noSeriousViolations(page, 'gift cards only, payment');
      await shot(page, `${width}-13-gift-card-payment`);
      await press(page, page.locator('#checkout-pay'));
      await page.waitForURL(/\/maksu\/testipankki/);
      await press(page, page.getByRole('button', { name: t('shop.testBank.approve') }));
      await page.waitForURL(/\/kassa\/vahvistus\?tilaus=/);
      await slowPoll(() => page.locator('[data-gift-cards]').textContent()).toBe(
        t('shop.order.giftCardsMailed', { email }),
      );
      expect(await page.locator('main').textContent()).toContain(t('checkout.byEmail.label'));
      await noSeriousViolations(page, 'confirmation, gift cards');
      await shot(page, `${width}-14-gift-card-confirmation`);

      expect(consoleErrors(problems)).toEqual([]);
      // The one refusal on the way: the empty registration form (the failed-submit step).
      expect(refusals).toEqual(['POST /rekisteroidy 400']);
    } finally {
      await context.close();
    }
  }, 360_000);
});

/**
 * A shop API call from outside the page (its script is off), with the context's cookies and the
 * anti-forgery header; cookies the answer sets go back into the context. Node does not resolve
 * `*.localhost` as Chromium does, so the call goes to 127.0.0.1 with the shop's Host.
 */
async function shopApi(context: BrowserContext, method: 'GET' | 'POST', path: string) {
  const cookies = await context.cookies(origin);
  const { port, hostname } = new URL(origin);
  const response = await context.request.fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      host: `${hostname}:${port}`,
      cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'x-xsrf-token': decodeURIComponent(cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? ''),
    },
  });
  for (const header of response.headersArray()) {
    if (header.name.toLowerCase() !== 'set-cookie') continue;
    const [pair = ''] = header.value.split(';');
    const at = pair.indexOf('=');
    await context.addCookies([
      { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: '/' },
    ]);
  }
  return response;
}

describe('checkout without script', () => {
  it('the steps as plain forms: a refused post, the hold, purchase-form, the test bank', async () => {
    // The app's scripts never load (as in shop-nojs.spec.ts): the page is what a visitor without
    // script gets, and axe (which needs script of its own) can still look at it.
    const { context, page } = await newPage(browser, 1280);
    await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
    const problems = watchProblems(page);
    try {
      // The checkout sends a visitor to log in; register instead, then the address on Oma tili.
      await page.goto(`${origin}/kassa?postinumero=${POSTAL_CODE}`);
      expect(new URL(page.url()).pathname).toBe('/kirjaudu');
      // A refused login comes back with its summary focused (autofocus, no script), the way back kept.
      await page.fill('#field-email', 'ei-tilia@example.fi');
      await Promise.all([page.waitForLoadState(), page.click('main button[type="submit"]')]);
      await slowPoll(() => page.locator('#error-summary').isVisible()).toBe(true);
      await expect.poll(() => isFocused(page.locator('#error-summary'))).toBe(true);
      expect(await page.title()).toMatch(/^Virhe: Kirjaudu sisään/);
      expect(await page.inputValue('#field-email')).toBe('ei-tilia@example.fi');
      expect(await page.inputValue('input[name="paluu"]')).toContain('/kassa');
      await noSeriousViolations(page, 'no script, login refused');
      await shot(page, 'nojs-0-login-refused');
      await page.goto(`${origin}/rekisteroidy`);
      const email = `kassa-nojs-${Date.now()}@example.fi`;
      await page.fill('#field-email', email);
      await page.fill('#field-password', PASSWORD);
      await Promise.all([page.waitForLoadState(), page.click('main button[type="submit"]')]);
      await confirmMailedRegistration(page, email);
      await page.waitForURL(/\/oma-tili/);
      for (const [name, value] of Object.entries({
        firstName: 'Ilmari',
        lastName: 'Ilmanskripti',
        streetAddress: 'Lomakekatu 1',
        postalCode: POSTAL_CODE,
        city: 'Helsinki',
        phoneNumber: '0401234567',
      })) {
        await page.fill(`#field-${name}`, value);
      }
      await page.check('#field-isPrivateCustomer');
      await Promise.all([
        page.waitForURL(/tallennettu=1/),
        page
          .locator('form', { has: page.locator('#field-city') })
          .locator('button')
          .click(),
      ]);

      // A product in the cart through the cart API (the product page's buy control needs script).
      const search = await shopApi(context, 'GET', '/api/search/lihakauppa-products?pageSize=40');
      const { hits } = (await search.json()) as {
        hits: { product?: { code: string; price: string | null; stock: number | null } }[];
      };
      const product = hits.find(
        (hit) => hit.product?.price && (hit.product.stock === null || hit.product.stock > 1),
      )?.product;
      if (!product) throw new Error('no product for sale');
      const added = await shopApi(
        context,
        'POST',
        `${CART_API}/add?language=fi&code=${product.code}&quantity=1`,
      );
      expect(added.status(), await added.text()).toBe(200);

      // The checkout: both steps on the page; 'Jatka maksamaan' without a time is refused.
      await page.goto(`${origin}/kassa`);
      await page.waitForURL(/\/kassa\?postinumero=00100#toimitus$/);
      expect(await page.locator('k-island[data-hydrated]').count()).toBe(0);
      expect(await page.locator('#maksu').isVisible()).toBe(true);
      await Promise.all([
        page.waitForURL(/\/kassa\?postinumero=00100$/),
        page.click('#checkout-next'),
      ]);
      expect(await page.title()).toMatch(/^Virhe: Kassa/);
      await expect.poll(() => isFocused(page.locator('#error-summary'))).toBe(true);
      expect(await page.locator('#error-summary').textContent()).toContain(
        t('checkout.error.chooseDate'),
      );
      await noSeriousViolations(page, 'no script, refused');
      await shot(page, 'nojs-1-refused');

      // Back from a cancelled payment (the payment return's path): the notice above the steps.
      await page.goto(`${origin}/kassa?postinumero=${POSTAL_CODE}&maksu=peruttu`);
      expect(await page.locator('[data-notice="payment-cancelled"]').textContent()).toBe(
        t('shop.order.paymentCancelled'),
      );
      await noSeriousViolations(page, 'no script, payment cancelled');
      await shot(page, 'nojs-1-payment-cancelled', false);
      await page.setViewportSize({ width: 375, height: 900 });
      await shot(page, 'nojs-1-payment-cancelled-375', false);
      await page.setViewportSize({ width: 1280, height: 900 });

      // A date and time from the one select: the hold, then the payment step.
      const slot = page.locator('#checkout-slot');
      const first = await slot.locator('option[value*=" "]').first().getAttribute('value');
      await slot.selectOption(first ?? '');
      await Promise.all([page.waitForURL(/#maksu$/), page.click('#checkout-next')]);
      expect(await page.title()).not.toMatch(/^Virhe/);
      expect(await page.locator('[data-hold]').textContent()).toMatch(/klo/);
      await noSeriousViolations(page, 'no script, held');
      await shot(page, 'nojs-2-held');
      await Promise.all([page.waitForURL(/\/maksu\/testipankki/), page.click('#checkout-pay')]);
      await Promise.all([
        page.waitForURL(/\/kassa\/vahvistus\?tilaus=/),
        page.getByRole('button', { name: t('shop.testBank.approve') }).click(),
      ]);
      expect(await page.locator('main').textContent()).toContain(t('shop.order.number'));
      await shot(page, 'nojs-3-confirmation');
      expect(consoleErrors(problems)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
