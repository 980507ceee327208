import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import { CHECKOUT_HOLD_API, CHECKOUT_ORDER_API } from '../../src/features/shop/orders/schemas.ts';
import { stepAt, totpCode } from '../../src/features/staff/totp.server.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '../../src/server/plugins/xsrf.ts';
import { freePort } from '../helpers/server-process.ts';
import { CART_API, CHECKOUT_API } from './shop-support.ts';

/**
 * What the browser tests of the back office share: shoppers' paid orders made through the shop's
 * own API and the test bank, a staff member's enrolment and TOTP codes, and waiting until the
 * server asks for re-authentication again.
 */

/**
 * The staff member's TOTP codes from the secret the enrolment page shows, each used once. The
 * server takes the code of now and of one step either side: a code is never of a step that ends
 * within 5 s, or the step could be over by the time the server looks at it.
 */
export function codes(secret: string) {
  let last = -1;
  return async (): Promise<string> => {
    for (;;) {
      const step = Math.max(stepAt(Date.now() + 5_000) - 1, last + 1);
      if (step <= stepAt(Date.now()) + 1) {
        last = step;
        return totpCode(secret, step);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
}

/**
 * Enrols a staff member from the link `npm run staff -- create` printed, as a person does: the
 * password, a code from the secret the page shows, the recovery codes confirmed. Ends on the home
 * screen and returns the member's code source for a later re-authentication.
 */
export async function enrolFromLink(page: Page, link: string, name: string, password: string) {
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: `Tervetuloa, ${name}` }).waitFor();
  const code = codes((await page.getByTestId('totp-secret').textContent()) ?? '');
  await page.getByLabel('Salasana').fill(password);
  await page.getByLabel('Sovelluksen koodi').fill(await code());
  await page.getByRole('button', { name: 'Ota käyttöön' }).click();
  await page.getByRole('button', { name: 'Olen tallentanut koodit' }).click();
  await page.getByRole('heading', { level: 1, name: `Hei, ${name}` }).waitFor();
  return code;
}

export interface Placed {
  orderId: string;
  orderNumber: number;
  next: string;
  date: string;
  time: string;
  /** The shopper's address (the password is `SHOPPER_PASSWORD`). */
  email: string;
}

/** The password of every shopper `placeOrder` registers. */
export const SHOPPER_PASSWORD = 'salasana-joka-on-pitka';

/** A shopper: the first name (also of the street), the cart's lines and a coupon code. */
export interface Shopper {
  firstName: string;
  lines: { code: string; quantity: number }[];
  coupon?: string;
}

/**
 * A shopper's order as the shop's pages make it, through its API: registers (confirmed from the
 * mailed link), saves an address, fills the cart (and gives a coupon code), holds a delivery time
 * (the first one, or `slot`), places the order.
 */
export function placeOrder(
  page: Page,
  shopper: Shopper,
  slot?: { date: string; time: string },
): Promise<Placed> {
  return page.evaluate(
    async ({ shopper, slot, api }) => {
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
      const email = `${shopper.firstName.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.fi`;
      await call('POST', `${api.account}/register`, { email, password: api.password });
      const outbox = await (await fetch('/dev/outbox')).text();
      const mail = outbox.split('<article').find((article) => article.includes(email));
      const token = /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail ?? '')?.[1];
      await call('POST', `${api.account}/register/confirm`, { token });
      await call('POST', api.customer, {
        firstName: shopper.firstName,
        lastName: 'Asiakas',
        streetAddress: `${shopper.firstName}nkuja 3`,
        postalCode: '00100',
        city: 'Helsinki',
        phoneNumber: '040 123 4567',
        isPrivateCustomer: true,
      });
      for (const line of shopper.lines) {
        await call(
          'POST',
          `${api.cart}/add?language=fi&code=${line.code}&quantity=${line.quantity}`,
        );
      }
      if (shopper.coupon) {
        const cart = await call(
          'POST',
          `${api.cart}/addcouponcode?language=fi&code=${encodeURIComponent(shopper.coupon)}`,
        );
        if (!JSON.stringify(cart).includes(shopper.coupon))
          throw new Error(`the coupon ${shopper.coupon} was not taken: ${JSON.stringify(cart)}`);
      }
      const delivery = await call('GET', `${api.checkout}/delivery?postalCode=00100&language=fi`);
      const first = delivery.dates[0];
      const date = slot?.date ?? first?.value;
      const time = slot?.time ?? first?.times[0]?.value;
      if (!date || !time) throw new Error('no delivery time for 00100');
      const held = await call('POST', `${api.hold}?language=fi`, {
        postalCode: '00100',
        date,
        time,
        useDeliveryAddressForBilling: true,
      });
      const placed = await call('POST', api.order, {
        checkoutId: held.hold.checkoutId,
        PaymentMethodCode: 'FI54',
        total: held.cart.total,
        usedGiftCardAmount: held.cart.usedGiftCardAmount,
      });
      return { ...placed, date, time, email };
    },
    {
      shopper,
      slot,
      api: {
        account: ACCOUNT_API,
        customer: CUSTOMER_API,
        cart: CART_API,
        checkout: CHECKOUT_API,
        hold: CHECKOUT_HOLD_API,
        order: CHECKOUT_ORDER_API,
        xsrfCookie: XSRF_COOKIE,
        xsrfHeader: XSRF_HEADER,
        password: SHOPPER_PASSWORD,
      },
    },
  );
}

/** Orders and pays at the test bank in a browser of the shopper's own. */
export async function shopperPays(
  browser: Browser,
  origin: string,
  shopper: Shopper,
  slot?: { date: string; time: string },
): Promise<Placed> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  try {
    // The cart's answer gives the page the shop's origin and its anti-forgery cookie; the shop's
    // pages themselves are other tests' business.
    await page.goto(`${origin}${CART_API}?language=fi`);
    const placed = await placeOrder(page, shopper, slot);
    await page.goto(placed.next);
    await page.getByRole('button', { name: 'Hyväksy maksu' }).click();
    // Paid once the bank's answer sends the shopper to the confirmation page.
    await page.waitForURL(`**/kassa/vahvistus?tilaus=${placed.orderId}`, { waitUntil: 'commit' });
    return placed;
  } finally {
    await context.close();
  }
}

/**
 * Waits until the server answers a sensitive request with its re-authentication problem (the
 * window STAFF_REAUTH_SECONDS opens has closed), asking twice a second for at most 20 s.
 */
export async function untilReauthAsked(page: Page) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await page.evaluate(() =>
      fetch('/api/admin/profile/passkeys/options').then(async (r) => ({
        status: r.status,
        type: r.status === 403 ? (await r.json()).type : undefined,
      })),
    );
    if (answer.type === '/problems/reauth') return;
    if (Date.now() > deadline) throw new Error(`the server did not ask again: ${answer.status}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * The folder the demo shop is seeded into once per browser-test run (inside the run's own copy of
 * the build, so it goes with it), copied by every test that wants a seeded shop of its own: the
 * seed takes longer than the rest of a test's set-up. Seeded into a folder of its own and renamed
 * into place, so a second worker seeding at the same time cannot leave half a template.
 */
async function shopTemplate(): Promise<string> {
  const template = path.join(inject('serverBuild'), 'shop-data');
  if (existsSync(template)) return template;
  const made = await mkdtemp(path.join(inject('serverBuild'), 'shop-data-'));
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: made, LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'seed/cli.ts', '--images-per-kind', '1', '--sites', 'lihakauppa'],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // Another worker's template already in place: theirs is as good.
  await rename(made, template).catch(() => rm(made, { recursive: true, force: true }));
  return template;
}

/**
 * The environment of a server of the test's own on a fresh data folder, with the demo shop
 * (products, delivery to 00100) seeded as `npm start` writes it, the shop's site only (a copy of
 * one seeded folder); the re-authentication window is 3 s so that a test meets the dialog again.
 */
export async function seededShopEnv(
  folderPrefix: string,
): Promise<{ port: number; dataDir: string; env: NodeJS.ProcessEnv }> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), folderPrefix));
  await cp(await shopTemplate(), dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DEV_OUTBOX_PAGE: 'true',
    STAFF_REAUTH_SECONDS: '3',
    ADMIN_URL: `http://127.0.0.1:${port}/admin`,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return { port, dataDir, env };
}
