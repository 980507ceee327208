import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { SESSION_COOKIE } from '../../src/server/plugins/sessions.ts';
import { XSRF_COOKIE } from '../../src/server/plugins/xsrf.ts';
import {
  chromiumForFile,
  hydrated,
  newPage,
  screenshotDir,
  screenshots,
  screenshotsWanted,
  watchProblems,
} from './browser.ts';
import {
  CART_API,
  type ProductForSale,
  productsForSale,
  registerInPage,
  SHOP_ORIGIN,
} from './shop-support.ts';

/**
 * One shared page, three visitors (decision 157): a guest, a shopper with a cart line and a
 * logged-in customer with two, on the same product page of the shop, with script and without.
 * Each sees only their own cart count and account link; the header hydrates over the filled page
 * without an error; no visitor's session or anti-forgery token stands in a page another gets.
 */

const origin = SHOP_ORIGIN;
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('shared-pages');

interface Seen {
  count: string | null;
  cartName: string | null;
  account: string | null;
  accountText: string;
}

/** What the header shows of its visitor. */
async function seen(page: Page): Promise<Seen> {
  const cart = page.locator('header a[data-hole="header-cart"]');
  const account = page.locator('header a[data-hole="header-account"]');
  return {
    count: await cart.getAttribute('data-cart-count'),
    cartName: await cart.getAttribute('aria-label'),
    account: await account.getAttribute('href'),
    accountText: (await account.textContent()) ?? '',
  };
}

const GUEST: Seen = {
  count: '0',
  cartName: t('header.cart'),
  account: '/kirjaudu',
  accountText: t('header.login'),
};
const SHOPPER: Seen = {
  count: '1',
  cartName: t('header.cartWithCount', { count: 1 }),
  account: '/kirjaudu',
  accountText: t('header.login'),
};
const CUSTOMER: Seen = {
  count: '2',
  cartName: t('header.cartWithCount', { count: 2 }),
  account: '/oma-tili',
  accountText: t('header.account'),
};

/** Adds one of each product to the page's cart through the cart API. */
async function addToCart(page: Page, products: ProductForSale[]): Promise<void> {
  await page.evaluate(
    async ({ codes, api }) => {
      for (const code of codes) {
        // An add may store the session under a new token: read the cookie each time.
        const xsrf = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
        const added = await fetch(`${api}/add?language=fi&code=${code}&quantity=1`, {
          method: 'POST',
          headers: { 'x-xsrf-token': decodeURIComponent(xsrf) },
        });
        if (!added.ok) throw new Error(`add ${code}: ${added.status}`);
      }
    },
    { codes: products.map((p) => p.code), api: CART_API },
  );
}

/** Registers a customer in the page's session from the mailed link (decision 075). */
async function logIn(page: Page): Promise<void> {
  expect(await registerInPage(page, `jaettu-${Date.now()}@example.fi`)).toEqual([200, 200]);
}

/** The session and anti-forgery tokens a context's cookies carry. */
async function tokensOf(context: BrowserContext): Promise<string[]> {
  return (await context.cookies())
    .filter((c) => c.name === SESSION_COOKIE || c.name === XSRF_COOKIE)
    .map((c) => c.value)
    .filter((value) => value !== '');
}

describe('one shared page for a guest, a shopper and a customer', () => {
  it('shows each their own cart count and account link, with script and without', async () => {
    const contexts: BrowserContext[] = [];
    const open = async (width = 1280, javaScriptEnabled = true) => {
      const made = await newPage(browser, width, { javaScriptEnabled });
      contexts.push(made.context);
      return made;
    };
    try {
      const guest = await open();
      await guest.page.goto(`${origin}/ostoskori`);
      const products = await productsForSale(guest.page, 2);
      const url = `${origin}${(products[0] as ProductForSale).url}`;

      const shopper = await open();
      await shopper.page.goto(`${origin}/ostoskori`);
      await addToCart(shopper.page, products.slice(0, 1));
      const customer = await open();
      await customer.page.goto(`${origin}/ostoskori`);
      await logIn(customer.page);
      await addToCart(customer.page, products);

      // The customer asks for the page first: it is made and kept as a guest sees it.
      const visitors = [
        { name: 'customer', ...customer, expected: CUSTOMER },
        { name: 'guest', ...guest, expected: GUEST },
        { name: 'shopper', ...shopper, expected: SHOPPER },
      ];
      const html: Record<string, string> = {};
      for (const visitor of visitors) {
        const problems = watchProblems(visitor.page);
        const response = await visitor.page.goto(url);
        expect(response?.status()).toBe(200);
        html[visitor.name] = (await response?.text()) ?? '';
        expect(await seen(visitor.page), `${visitor.name}, server HTML`).toEqual(visitor.expected);
        // The island hydrates over the filled header without a mismatch and keeps it.
        await hydrated(visitor.page, 'site-header');
        expect(await seen(visitor.page), `${visitor.name}, hydrated`).toEqual(visitor.expected);
        expect(problems.console, visitor.name).toEqual([]);
      }
      // Only the first request made the page; the others were the kept page or its variants.
      for (const visitor of visitors) {
        for (const other of visitors) {
          if (other === visitor) continue;
          for (const token of await tokensOf(other.context)) {
            expect(
              html[visitor.name],
              `${other.name}'s token in ${visitor.name}'s page`,
            ).not.toContain(token);
          }
        }
      }
      await shot(customer.page, '1280-customer');

      // Without script: the server's HTML alone, each with their own cookies.
      for (const visitor of visitors) {
        const plain = await open(375, false);
        await plain.context.addCookies(await visitor.context.cookies());
        expect((await plain.page.goto(url))?.status()).toBe(200);
        expect(await seen(plain.page), `${visitor.name}, without script`).toEqual(visitor.expected);
        expect(await plain.page.locator('k-island[data-hydrated]').count()).toBe(0);
        // A picture without the helper's waits, which need script in the page.
        if (visitor.name === 'customer' && screenshotsWanted) {
          await plain.page.screenshot({
            path: path.join(screenshotDir, 'shared-pages-375-customer-no-script.png'),
          });
        }
      }
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  }, 60_000);
});
