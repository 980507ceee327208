import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { ACCOUNT_API } from '../../src/features/shop/customer/schemas.ts';
import { REVIEW_API } from '../../src/features/shop/reviews/schemas.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '../../src/server/plugins/xsrf.ts';
import {
  createStaffMember,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import {
  enrolFromLink,
  SHOPPER_PASSWORD,
  seededShopEnv,
  shopperPays,
} from './admin-shop-support.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  pressByTab as press,
  screenshots,
  tabTo,
} from './browser.ts';
import { type ProductForSale, productsForSale } from './shop-support.ts';

/**
 * The shop's customers in the back office as shop staff meet them (issue 37, decision 146), by
 * keyboard: a shopper who ordered and reviewed a product is found by part of their address and
 * opened with their order (which opens the order) and review; their account is locked with a
 * reason (refused first without one), after which the shopper cannot log in, then opened again,
 * and a password-reset link is sent to the shopper's own address (it is in the outbox). The lock
 * dialog keeps the focus and closes with Escape. axe finds nothing serious on the list, the
 * customer and the dialogs at 1280 and 375 px. A data protection officer (customers.read only)
 * sees the customer without the buttons or order links. On a server of its own, seeded with the
 * demo shop.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-customers');
const PASSWORD = 'kaupan henkilökunnan pitkä salasana';

/**
 * A shopper's browser on the shop: logs in through the shop's API (answering its status) and,
 * when logged in, runs `then` in the page.
 */
async function asShopper(
  origin: string,
  email: string,
  then?: (page: Page) => Promise<void>,
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/`);
    const status = await page.evaluate(
      async ({ email, password, api }) => {
        const res = await fetch(`${api.account}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [api.xsrfHeader]: xsrfOf(api.xsrfCookie) },
          body: JSON.stringify({ email, password }),
        });
        return res.status;
        function xsrfOf(name: string) {
          return decodeURIComponent(
            document.cookie
              .split('; ')
              .find((c) => c.startsWith(`${name}=`))
              ?.split('=')[1] ?? '',
          );
        }
      },
      {
        email,
        password: SHOPPER_PASSWORD,
        api: { account: ACCOUNT_API, xsrfCookie: XSRF_COOKIE, xsrfHeader: XSRF_HEADER },
      },
    );
    if (status === 200 && then) await then(page);
    return status;
  } finally {
    await context.close();
  }
}

/** A staff member enrolled from their link (password and TOTP), signed in, on the home screen. */
async function enrolled(link: string, name: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'fi-FI',
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await enrolFromLink(page, link, name, PASSWORD);
  return page;
}

/** The shopper's review of `product`, written through the shop's API. */
const review = (product: ProductForSale, text: string) => (page: Page) =>
  page.evaluate(
    async ({ productId, text, api }) => {
      const xsrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith(`${api.xsrfCookie}=`))
          ?.split('=')[1] ?? '',
      );
      const res = await fetch(api.review, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [api.xsrfHeader]: xsrf },
        body: JSON.stringify({ productId, rating: 5, text, userName: 'Eeva' }),
      });
      if (!res.ok) throw new Error(`review: ${res.status} ${await res.text()}`);
    },
    {
      productId: product.productId,
      text,
      api: { review: REVIEW_API, xsrfCookie: XSRF_COOKIE, xsrfHeader: XSRF_HEADER },
    },
  );

describe('the shop’s customers in the back office', () => {
  it('finds a shopper, opens their order, locks and opens their account and mails a reset link, by keyboard', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-customers-');
    const link = createStaffMember(env, {
      email: 'kalle.kauppa@kattaus.example',
      name: 'Kalle Kauppa',
      role: 'shop-staff',
    });
    // Someone who may see customers but not change them (nor open orders).
    const dpoLink = createStaffMember(env, {
      email: 'tiina.tietosuoja@kattaus.example',
      name: 'Tiina Tietosuoja',
      role: 'dpo',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    try {
      // A shopper orders and pays, then reviews what she bought; another one only orders.
      const look = await browser.newPage();
      await look.goto(`${origin}/`);
      const [product] = (await productsForSale(look, 1, 2)) as [ProductForSale];
      await look.context().close();
      const eeva = await shopperPays(browser, origin, {
        firstName: 'Eeva',
        lines: [{ code: product.code, quantity: 1 }],
      });
      await shopperPays(browser, origin, {
        firstName: 'Frans',
        lines: [{ code: product.code, quantity: 1 }],
      });
      expect(await asShopper(origin, eeva.email, review(product, 'Mureaa ja maukasta.'))).toBe(200);

      // The staff member enrols from the command's link.
      const page = await enrolled(link, 'Kalle Kauppa');
      const context = page.context();

      // The customers from the shop's menu: both, then Eeva found by part of her address.
      await press(page, 'link', 'Kauppa');
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      const shopMenu = page.getByRole('navigation', { name: 'Kaupan valikko' });
      await press(page, 'link', 'Asiakkaat', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Asiakkaat' }).waitFor();
      await page.getByText('Asiakkaita: 2').waitFor();
      await tabTo(page, page.getByRole('searchbox', { name: 'Sähköposti tai nimi' }));
      await page.keyboard.type(eeva.email.slice(0, 8).toUpperCase());
      await page.keyboard.press('Enter');
      await page.getByText('Asiakkaita: 1').waitFor();
      const list = page.getByRole('table', { name: 'Asiakkaat' });
      expect(await list.textContent()).toContain('Eeva Asiakas');
      await axe(page, 'customers');
      await shot(page, 'list-1280', true);

      // Eeva opened: her address, her order (which opens) and her review.
      await press(page, 'link', eeva.email, list);
      await page.getByRole('heading', { level: 1, name: 'Eeva Asiakas' }).waitFor();
      const contact = page.getByRole('region', { name: 'Yhteystiedot ja osoitteet' });
      expect(await contact.textContent()).toContain('Eevankuja 3');
      const orders = page.getByRole('table', { name: 'Asiakkaan tilaukset, uusimmat ensin' });
      expect(await orders.textContent()).toContain('Maksettu');
      const reviews = page.getByRole('table', { name: 'Asiakkaan kirjoittamat tuotearviot' });
      expect(await reviews.textContent()).toContain('Mureaa ja maukasta.');
      expect(await reviews.textContent()).toContain(product.name);
      await axe(page, 'customer');
      await shot(page, 'customer-1280', true);
      await press(page, 'link', `Avaa tilaus ${eeva.orderNumber}`, orders);
      await page.getByRole('heading', { level: 1, name: `Tilaus ${eeva.orderNumber}` }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Eeva Asiakas' }).waitFor();

      // Locking: the dialog keeps the focus and Escape closes it; without a reason it is refused
      // with the focus in the field; with one, the account is locked and the focus on its part.
      const account = page.getByRole('region', { name: 'Tili' });
      const lockButton = account.getByRole('button', { name: 'Lukitse tili' });
      await tabTo(page, lockButton);
      await page.keyboard.press('Enter');
      const lock = page.getByRole('dialog', { name: `Lukitaanko tili ${eeva.email}?` });
      await lock.waitFor();
      const reason = lock.getByRole('textbox', { name: 'Syy' });
      expect(await isFocused(reason)).toBe(true);
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        expect(await lock.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await axe(page, 'lock dialog');
      await shot(page, 'lock-1280');
      await page.keyboard.press('Escape');
      await lock.waitFor({ state: 'detached' });
      // The dialog gives the focus back once it has gone: in the frame after it left.
      await expect.poll(() => isFocused(lockButton)).toBe(true);
      await page.keyboard.press('Enter');
      await lock.waitFor();
      await press(page, 'button', 'Lukitse tili', lock);
      await lock.getByRole('alert').getByText('Täytä tämä kenttä.').waitFor();
      expect(await isFocused(reason)).toBe(true);
      await axe(page, 'lock dialog with an error');
      await shot(page, 'lock-error-1280');
      await page.keyboard.type('Epäilty väärinkäyttö');
      await press(page, 'button', 'Lukitse tili', lock);
      await lock.waitFor({ state: 'detached' });
      await page.getByText('Tili on lukittu ja kirjattu ulos.').waitFor();
      await account.getByText('Epäilty väärinkäyttö').waitFor();
      await expect.poll(() => isFocused(account.getByRole('heading', { name: 'Tili' }))).toBe(true);
      await axe(page, 'customer locked');
      await shot(page, 'locked-1280', true);

      // Locked, the shopper cannot log in; opened again, she can.
      expect(await asShopper(origin, eeva.email)).toBe(401);
      await press(page, 'button', 'Avaa tili', account);
      await page.getByText('Tili on avattu: asiakas voi taas kirjautua.').waitFor();
      await account.getByRole('button', { name: 'Lukitse tili' }).waitFor();
      expect(await asShopper(origin, eeva.email)).toBe(200);

      // A reset link, after a confirmation, to her own address.
      await press(page, 'button', 'Lähetä salasanan vaihtolinkki', account);
      const reset = page.getByRole('dialog', { name: 'Lähetetäänkö salasanan vaihtolinkki?' });
      await reset.waitFor();
      expect(await isFocused(reset.getByRole('button', { name: 'Lähetä linkki' }))).toBe(true);
      expect(await reset.textContent()).toContain(eeva.email);
      await axe(page, 'reset dialog');
      await shot(page, 'reset-1280');
      await page.keyboard.press('Enter');
      await reset.waitFor({ state: 'detached' });
      await page
        .getByText(`Salasanan vaihtolinkki on lähetetty osoitteeseen ${eeva.email}.`)
        .waitFor();
      const outbox = await context.newPage();
      await outbox.goto(`${origin}/dev/outbox`);
      const mail = outbox
        .locator('article')
        .filter({ hasText: eeva.email })
        .filter({ hasText: 'Salasanan vaihtaminen' });
      expect(await mail.count()).toBe(1);
      expect(await mail.textContent()).toContain('/salasana/uusi');
      await outbox.close();

      // At 375 px: the list as cards, the customer, the lock dialog.
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'customer at 375');
      await shot(page, 'customer-375', true);
      await press(page, 'button', 'Lukitse tili', account);
      await lock.waitFor();
      await axe(page, 'lock dialog at 375');
      await shot(page, 'lock-375');
      await page.keyboard.press('Escape');
      await lock.waitFor({ state: 'detached' });
      await press(page, 'link', 'Takaisin asiakkaisiin');
      await page.getByRole('heading', { level: 1, name: 'Asiakkaat' }).waitFor();
      await page.getByText('Asiakkaita: 2').waitFor();
      await axe(page, 'customers at 375');
      await shot(page, 'list-375', true);
      await context.close();

      // The data protection officer sees Eeva and her order, but no way to change her account
      // or to open the order.
      const dpo = await enrolled(dpoLink, 'Tiina Tietosuoja');
      await press(dpo, 'link', 'Kauppa');
      await dpo.getByRole('heading', { level: 1, name: 'Asiakkaat' }).waitFor();
      const dpoMenu = dpo.getByRole('navigation', { name: 'Kaupan valikko' });
      expect(await dpoMenu.getByRole('link').allTextContents()).toEqual(['Asiakkaat']);
      await press(dpo, 'link', eeva.email);
      await dpo.getByRole('heading', { level: 1, name: 'Eeva Asiakas' }).waitFor();
      const seen = dpo.getByRole('table', { name: 'Asiakkaan tilaukset, uusimmat ensin' });
      expect(await seen.textContent()).toContain(String(eeva.orderNumber));
      expect(await seen.getByRole('link').count()).toBe(0);
      expect(await dpo.getByRole('region', { name: 'Tili' }).getByRole('button').count()).toBe(0);
      await axe(dpo, 'customer without customers.manage');
      await dpo.context().close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
