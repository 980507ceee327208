import type { Browser, Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  idle,
  screenshots,
  seriousViolations,
  settled,
  siteOrigin,
  watchProblems,
} from './browser.ts';
import { CART_API, forgeEmptyCartAnswer, productsForSale, SHOP_ORIGIN } from './shop-support.ts';

/**
 * Cart sync in the browser at 1280 and 375 px: a brand site that sells through the shop
 * (jyvabroiler) opens the shop's /cart-sync page as a hidden frame, adds to the shop cart through
 * it with postMessage, and its header's badge shows the count of line items; a second add of the
 * same code sums the quantity; the shop's cart API (in the frame's session) holds the line; the
 * local copy is in localStorage under `cart`. Messages with a foreign origin change nothing on
 * either side: a forged shop answer on the brand page, a forged add inside the shop frame, and a
 * real add from a site that is not allowed (sibylla) framing the shop. Axe and console errors are
 * checked.
 */

const shopOrigin = SHOP_ORIGIN;
const brandOrigin = siteOrigin('jyvabroiler');
const foreignOrigin = siteOrigin('sibylla');
const t = serverT('fi');

let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});

const shot = screenshots('cart-sync');

async function shopFrame(page: Page): Promise<Frame> {
  // With no stored cart the frame opens on the visitor's first use of the page (decision 063).
  await page.mouse.move(10, 10);
  await page.locator('iframe[data-cart-sync]').waitFor({ state: 'attached' });
  await expect
    .poll(() => page.frames().find((f) => f.url() === `${shopOrigin}/cart-sync`) !== undefined)
    .toBe(true);
  const frame = page.frames().find((f) => f.url() === `${shopOrigin}/cart-sync`) as Frame;
  // The frame's script marks its element once it answers messages (decision 061).
  await frame.locator('#cart-sync[data-ready]').waitFor({ state: 'attached' });
  return frame;
}

/** The shop cart as its API answers it in the frame's session. */
function shopCart(frame: Frame) {
  return frame.evaluate(async (url) => {
    const response = await fetch(url, { credentials: 'same-origin' });
    return (await response.json()) as {
      lineItemCount: number;
      lineItems: { code: string; quantity: number }[];
    };
  }, `${CART_API}/load?language=fi`);
}

/** The brand page posts to its shop frame, as its buy controls do. */
function postToShop(page: Page, message: unknown) {
  return page.evaluate(
    ({ message, shopOrigin }) => {
      const frame = document.querySelector<HTMLIFrameElement>('iframe[data-cart-sync]');
      frame?.contentWindow?.postMessage(message, shopOrigin);
    },
    { message, shopOrigin },
  );
}

const localCart = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? 'null'));

describe.each([1280, 375])('cart sync at %i px', (width) => {
  // Which messages the frame and the page take is the same at any width: at 375 px the test keeps
  // the badge's states in the mobile header (decision 155).
  const whole = width === 1280;
  it(`adds through the frame, sums, shows the count${whole ? '; foreign messages change nothing' : ''}`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const problems = watchProblems(page);
    try {
      await page.goto(`${shopOrigin}/`);
      const [code] = (await productsForSale(page, 1)).map((product) => product.code);
      expect(code).toBeTruthy();

      await page.goto(`${brandOrigin}/`);
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      const cartLink = page.locator(`header a[href="${shopOrigin}/ostoskori#tuotteet"]`);
      expect(await cartLink.count()).toBe(1);
      // Nothing stored and nothing done yet: no frame, and the empty badge is not loading. With a
      // stored cart the frame would open at the browser's first idle time: one has passed.
      await idle(page);
      expect(await page.locator('iframe[data-cart-sync]').count()).toBe(0);
      expect(await cartLink.getAttribute('aria-busy')).toBeNull();
      const frame = await shopFrame(page);
      // The frame answered 'sync-cart': the badge is no longer loading; the cart is empty.
      await expect.poll(() => cartLink.getAttribute('aria-busy')).toBeNull();
      expect(await cartLink.getAttribute('data-cart-count')).toBe('0');
      // The badge reads the same before the frame answers: wait for the stored cart itself.
      await expect.poll(() => localCart(page)).toMatchObject({ lineItems: [], lineItemCount: 0 });
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-empty`);

      // Add 2, then 1 more of the same code: one line of 3.
      await postToShop(page, { type: 'add', code, quantity: 2 });
      await expect.poll(() => cartLink.getAttribute('data-cart-count')).toBe('1');
      await postToShop(page, { type: 'add', code, quantity: 1 });
      await expect
        .poll(async () => (await localCart(page))?.lineItems)
        .toEqual([{ code, quantity: 3 }]);
      expect(await cartLink.getAttribute('data-cart-count')).toBe('1');
      expect(await cartLink.getAttribute('aria-label')).toBe(
        t('header.cartWithCount', { count: 1 }),
      );
      expect(await cartLink.isVisible()).toBe(true);
      expect((await cartLink.textContent())?.trim()).toBe('1');
      // The shop holds the line in the frame's session.
      const held = await shopCart(frame);
      expect(held.lineItems.map((line) => [line.code, line.quantity])).toEqual([[code, 3]]);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${width}-one`);
      if (!whole) {
        expect(problems.console).toEqual([]);
        return;
      }

      // A forged shop answer on the brand page, from a foreign origin: ignored.
      await forgeEmptyCartAnswer(page, foreignOrigin);
      // A forged add inside the shop frame, claiming a foreign origin: ignored.
      await frame.evaluate(
        ({ foreignOrigin, code }) => {
          window.dispatchEvent(
            new MessageEvent('message', {
              origin: foreignOrigin,
              source: window.parent,
              data: { type: 'add', code, quantity: 5 },
            }),
          );
        },
        { foreignOrigin, code },
      );
      // A site that is not allowed frames the shop and posts an add for real.
      const foreign = await context.newPage();
      await foreign.goto(`${foreignOrigin}/`);
      await foreign.evaluate((src) => {
        const iframe = document.createElement('iframe');
        iframe.src = src;
        iframe.hidden = true;
        iframe.dataset.foreignTest = '';
        document.body.append(iframe);
      }, `${shopOrigin}/cart-sync`);
      await expect
        .poll(() => foreign.frames().some((f) => f.url() === `${shopOrigin}/cart-sync`))
        .toBe(true);
      const foreignFrame = foreign
        .frames()
        .find((f) => f.url() === `${shopOrigin}/cart-sync`) as Frame;
      // The frame answers messages from here on (its script marks it, decision 061); after its
      // own listener, one of the test's echoes a marker back, so the page knows when the frame
      // has handled everything posted before it.
      await foreignFrame.locator('#cart-sync[data-ready]').waitFor({ state: 'attached' });
      await foreignFrame.evaluate(() => {
        window.addEventListener('message', (event) => {
          if ((event.data as { type?: string } | null)?.type === 'test-marker')
            (event.source as Window | null)?.postMessage({ type: 'test-marker' }, event.origin);
        });
      });
      await foreign.evaluate(
        async ({ shopOrigin, code }) => {
          const iframe = document.querySelector<HTMLIFrameElement>('iframe[data-foreign-test]');
          const w = window as unknown as { answers: number };
          w.answers = 0;
          const handled = new Promise<void>((resolve) => {
            window.addEventListener('message', (event) => {
              if ((event.data as { type?: string } | null)?.type === 'test-marker') resolve();
              else w.answers += 1;
            });
          });
          for (let i = 0; i < 10; i++) {
            iframe?.contentWindow?.postMessage({ type: 'sync-cart' }, shopOrigin);
            iframe?.contentWindow?.postMessage({ type: 'add', code, quantity: 4 }, shopOrigin);
          }
          iframe?.contentWindow?.postMessage({ type: 'test-marker' }, shopOrigin);
          await handled;
        },
        { shopOrigin, code },
      );
      // An add the frame took would be a request to the shop and then an answer: none is left.
      await settled(foreign);
      const answered = await foreign.evaluate(
        () => (window as unknown as { answers: number }).answers,
      );
      expect(answered).toBe(0);
      await foreign.close();

      // The forged messages above set nothing off either: whatever they started is over.
      await settled(page);
      expect(await cartLink.getAttribute('data-cart-count')).toBe('1');
      expect((await localCart(page))?.lineItems).toEqual([{ code, quantity: 3 }]);
      expect((await shopCart(frame)).lineItems.map((l) => [l.code, l.quantity])).toEqual([
        [code, 3],
      ]);

      // A reload shows the stored copy at once and the shop's cart after it answers.
      await page.reload();
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      await expect.poll(() => cartLink.getAttribute('aria-busy')).toBeNull();
      expect(await cartLink.getAttribute('data-cart-count')).toBe('1');

      expect(problems.console).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
