import type { Page } from 'playwright-core';
import type { ShopSearchResult } from '../../src/features/search/shop-search.ts';
import { CART_API, CHECKOUT_API } from '../../src/features/shop/schemas.ts';
import { siteOrigin } from './browser.ts';

/** What the shop's browser tests share: its address, its calls, and products to buy. */

export { CART_API, CHECKOUT_API };
export const SHOP_ORIGIN = siteOrigin('lihakauppa');

export interface ProductForSale {
  url: string;
  code: string;
  name: string;
  price: string;
  stock: number | null;
  productId: number;
}

/**
 * Up to `wanted` shop products with a price and at least `min` pieces for sale (null stock is
 * unlimited), as the shop's search grid lists them. `page` must be on a shop page.
 */
export function productsForSale(page: Page, wanted: number, min = 1): Promise<ProductForSale[]> {
  return page.evaluate(
    async ({ wanted, min }) => {
      const search = await fetch('/api/search/lihakauppa-products?pageSize=40');
      const { hits } = (await search.json()) as ShopSearchResult;
      const found: ProductForSale[] = [];
      for (const { product } of hits) {
        if (!product?.price || (product.stock !== null && product.stock < min)) continue;
        if (found.some((f) => f.code === product.code)) continue;
        found.push({
          url: new URL(product.url, location.href).pathname,
          code: product.code,
          name: product.title,
          price: product.price,
          stock: product.stock,
          productId: product.productId,
        });
        if (found.length === wanted) break;
      }
      return found;
    },
    { wanted, min },
  );
}

/** A gift card the shop sells (a product with `isGiftCard`), from the shop's product search. */
export async function giftCardForSale(page: Page): Promise<ProductForSale> {
  const found = await page.evaluate(async () => {
    const search = await fetch('/api/search/lihakauppa-products?pageSize=40&q=lahjakortti');
    const { hits } = (await search.json()) as ShopSearchResult;
    const card = hits.find((hit) => hit.product?.isGiftCard && hit.product.price)?.product;
    return card?.price
      ? {
          url: new URL(card.url, location.href).pathname,
          code: card.code,
          name: card.title,
          price: card.price,
          stock: card.stock,
          productId: card.productId,
        }
      : null;
  });
  if (!found) throw new Error('the shop sells no gift card');
  return found;
}

/**
 * A forged cart answer on a brand page: a message that claims to come from the shop frame's
 * window but from `foreignOrigin`, saying the cart is empty. The page must ignore it.
 */
export function forgeEmptyCartAnswer(page: Page, foreignOrigin: string): Promise<void> {
  return page.evaluate(
    ({ foreignOrigin }) => {
      const frame = document.querySelector<HTMLIFrameElement>('iframe[data-cart-sync]');
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: foreignOrigin,
          source: frame?.contentWindow ?? null,
          data: {
            type: 'cart',
            cart: { lineItems: [], lineItemCount: 0, loading: false, total: '0,00' },
          },
        }),
      );
    },
    { foreignOrigin },
  );
}

/**
 * The token of the newest registration confirmation link mailed to `email` (decision 075), read
 * from the server's outbox page (`DEV_OUTBOX_PAGE`, set by global-server.ts) in the page's context.
 */
export async function mailedConfirmToken(page: Page, email: string): Promise<string> {
  const token = await page.evaluate(async (email) => {
    const outbox = await (await fetch('/dev/outbox')).text();
    const mail = outbox
      .split('<article')
      .find((article) => article.includes(email) && article.includes('/rekisteroidy/vahvista?'));
    return /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail ?? '')?.[1];
  }, email);
  if (!token) throw new Error(`no confirmation link mailed to ${email}`);
  return token;
}

/**
 * Confirms the registration of `email` as its owner does: opens the mailed link's page and presses
 * its button; the browser lands where the registration's `paluu` said (or on Oma tili).
 */
export async function confirmMailedRegistration(page: Page, email: string): Promise<void> {
  const token = await mailedConfirmToken(page, email);
  await page.goto(`${SHOP_ORIGIN}/rekisteroidy/vahvista?token=${token}`);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== '/rekisteroidy/vahvista'),
    page.click('main button[type="submit"]'),
  ]);
}

/**
 * Registers a new customer in the page's session as its owner does through the API: the account
 * exists once its mailed link is used (decision 075), which also verifies the address (reviews
 * need it, decisions 082 and 083); the link is read from the outbox page. With `firstName` an
 * address is saved too (Katu 1, 00100 Helsinki). The answers' statuses, in order.
 */
export function registerInPage(page: Page, email: string, firstName?: string): Promise<number[]> {
  return page.evaluate(
    async ({ email, firstName }) => {
      const token = () => decodeURIComponent(/XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const post = (url: string, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-xsrf-token': token() },
          body: JSON.stringify(body),
        });
      const registered = await post('/api/lk/account/register', {
        email,
        password: 'oikea-salasana-1',
      });
      const outbox = await (await fetch('/dev/outbox')).text();
      const mail = outbox.split('<article').find((article) => article.includes(email));
      const linkToken = /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail ?? '')?.[1];
      const confirmed = await post('/api/lk/account/register/confirm', { token: linkToken });
      if (firstName === undefined) return [registered.status, confirmed.status];
      const address = await post('/api/lk/customer', {
        firstName,
        lastName: 'Asiakas',
        streetAddress: 'Katu 1',
        postalCode: '00100',
        city: 'Helsinki',
        phoneCountryCode: '+358',
        phoneNumber: '50123123',
        isPrivateCustomer: true,
      });
      return [registered.status, confirmed.status, address.status];
    },
    { email, firstName },
  );
}
