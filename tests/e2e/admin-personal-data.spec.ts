import { readFile, rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { readZip } from '../../src/features/personal-data/zip.test-support.ts';
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
 * A personal-data request as the data-protection officer meets it (issue 36, decision 159), by
 * keyboard: a shopper who ordered, paid and reviewed is found by her address, everything found is
 * downloaded as one archive, and she is erased after a confirmation that names the counts (the
 * dialog keeps the focus and Escape closes it); each step asks for the password again once the
 * window has closed. Afterwards nothing is found of her and she cannot log in, while another
 * shopper is still found. axe finds nothing serious at 1280 and 375 px. A customer-service person
 * without the permission has no such screen and is answered 403. On a server of its own, seeded
 * with the demo shop.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-personal-data');
const PASSWORD = 'tietosuojavastaavan pitkä salasana';

/** When the password (or the enrolment's code) was last given: the window opens then. */
let lastGiven = 0;

/**
 * Waits until the re-authentication window (STAFF_REAUTH_SECONDS, 3 s here) has closed, so the
 * next sensitive step asks for the password again.
 */
async function windowClosed() {
  const wait = lastGiven + 3_500 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

/** The password given again in the dialog that a sensitive step opens. */
async function giveThePassword(page: Page) {
  const reauth = page.getByRole('dialog', { name: 'Vahvista henkilöllisyytesi' });
  await reauth.waitFor();
  expect(await isFocused(reauth.getByLabel('Salasana'))).toBe(true);
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await reauth.waitFor({ state: 'detached' });
  lastGiven = Date.now();
}

/** A shopper's browser on the shop: logs in through the shop's API, runs `then`, answers the status. */
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
        const xsrf = decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith(`${api.xsrfCookie}=`))
            ?.split('=')[1] ?? '',
        );
        const res = await fetch(`${api.account}/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [api.xsrfHeader]: xsrf },
          body: JSON.stringify({ email, password }),
        });
        return res.status;
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

/** The shopper's review of `product`, through the shop's API. */
const review = (product: ProductForSale) => (page: Page) =>
  page.evaluate(
    async ({ productId, api }) => {
      const xsrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith(`${api.xsrfCookie}=`))
          ?.split('=')[1] ?? '',
      );
      const res = await fetch(api.review, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [api.xsrfHeader]: xsrf },
        body: JSON.stringify({ productId, rating: 5, text: 'Erinomaista.', userName: 'Eeva' }),
      });
      if (!res.ok) throw new Error(`review: ${res.status} ${await res.text()}`);
    },
    {
      productId: product.productId,
      api: { review: REVIEW_API, xsrfCookie: XSRF_COOKIE, xsrfHeader: XSRF_HEADER },
    },
  );

async function enrolled(link: string, name: string): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'fi-FI',
    acceptDownloads: true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await enrolFromLink(page, link, name, PASSWORD);
  lastGiven = Date.now();
  return page;
}

/** Searches `email` (after the password, once the window has closed). */
async function search(page: Page, email: string) {
  await windowClosed();
  const field = page.getByRole('textbox', { name: 'Sähköpostiosoite' });
  await tabTo(page, field);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await giveThePassword(page);
}

const countOf = async (page: Page, store: string) =>
  (
    await page
      .getByRole('table', { name: 'Tiedot tallennuspaikoittain' })
      .getByRole('row', { name: new RegExp(`^${store}`) })
      .getByRole('cell')
      .nth(1)
      .textContent()
  )?.trim();

describe('personal-data requests in the back office', () => {
  it('finds, exports and erases a shopper by keyboard; refuses staff without the permission', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-personal-data-');
    const dpoLink = createStaffMember(env, {
      email: 'tiina.tietosuoja@kattaus.example',
      name: 'Tiina Tietosuoja',
      role: 'dpo',
    });
    const serviceLink = createStaffMember(env, {
      email: 'asta.asiakaspalvelu@kattaus.example',
      name: 'Asta Asiakaspalvelu',
      role: 'customer-service',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    try {
      // Eeva orders, pays and reviews; Frans only orders.
      const look = await browser.newPage();
      await look.goto(`${origin}/`);
      const [product] = (await productsForSale(look, 1, 2)) as [ProductForSale];
      await look.context().close();
      const eeva = await shopperPays(browser, origin, {
        firstName: 'Eeva',
        lines: [{ code: product.code, quantity: 1 }],
      });
      const frans = await shopperPays(browser, origin, {
        firstName: 'Frans',
        lines: [{ code: product.code, quantity: 1 }],
      });
      expect(await asShopper(origin, eeva.email, review(product))).toBe(200);

      // The officer opens the screen from the main menu and finds Eeva.
      const page = await enrolled(dpoLink, 'Tiina Tietosuoja');
      await press(page, 'link', 'Henkilötiedot');
      await page.getByRole('heading', { level: 1, name: 'Henkilötietopyynnöt' }).waitFor();
      await axe(page, 'empty screen');
      await search(page, eeva.email.toUpperCase());
      const found = page.getByRole('region', {
        name: `Löydetyt tiedot: ${eeva.email.toUpperCase()}`,
      });
      await found.waitFor();
      expect(await countOf(page, 'Asiakastilit')).toBe('1');
      expect(await countOf(page, 'Tilaukset')).toBe('1');
      expect(await countOf(page, 'Tuotearviot')).toBe('1');
      expect(Number(await countOf(page, 'Lähtevät viestit'))).toBeGreaterThanOrEqual(2);
      const records = page.getByRole('table', { name: 'Löydetyt tiedot yksitellen' });
      expect(await records.textContent()).toContain(String(eeva.orderNumber));
      expect(await records.textContent()).toContain('Kirjanpitotiedot säilytetään');
      await axe(page, 'found');
      await shot(page, 'found-1280', true);

      // The archive: one ZIP with her data in person.json.
      await windowClosed();
      const downloaded = page.waitForEvent('download');
      await press(page, 'button', 'Lataa arkisto', found);
      await giveThePassword(page);
      const file = await downloaded;
      expect(file.suggestedFilename()).toMatch(/^henkilotiedot-\d{4}-\d{2}-\d{2}\.zip$/);
      const archive = readZip(await readFile((await file.path()) ?? ''));
      const person = JSON.parse(archive.get('person.json')?.toString() ?? '{}');
      expect(person.address).toBe(eeva.email.toLowerCase());
      expect(person.stores.orders[0].number).toBe(eeva.orderNumber);
      expect(person.stores.reviews[0].text).toBe('Erinomaista.');
      expect(JSON.stringify(person)).not.toContain(frans.email);
      await page.getByText('Arkisto on ladattu.').waitFor();

      // The erasure's confirmation keeps the focus, closes with Escape, names what goes.
      await windowClosed();
      const eraseButton = found.getByRole('button', { name: 'Poista henkilön tiedot…' });
      await tabTo(page, eraseButton);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', {
        name: `Poistetaanko henkilön ${eeva.email.toUpperCase()} tiedot?`,
      });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Tilaukset: 1 anonymisoidaan');
      expect(await dialog.textContent()).toContain('Asiakastilit: 1 poistetaan');
      expect(await dialog.textContent()).toContain('Tuotearviot: 1 poistetaan');
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('Tab');
        expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await axe(page, 'erase dialog');
      await shot(page, 'erase-1280');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => isFocused(eraseButton)).toBe(true);
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await press(page, 'button', 'Poista pysyvästi', dialog);
      await giveThePassword(page);
      const done = page.getByRole('heading', { level: 2, name: 'Henkilön tiedot on poistettu' });
      await done.waitFor();
      await expect.poll(() => isFocused(done)).toBe(true);
      expect(await page.getByRole('main').textContent()).toContain('Tilaukset: 1 anonymisoitu');
      expect(await dialog.count()).toBe(0);
      await axe(page, 'erased');
      await shot(page, 'erased-1280', true);

      // Nothing is found of her any more, and she cannot log in; Frans is still there.
      await search(page, eeva.email);
      await page
        .getByText('Osoitteella ei löytynyt mitään niiltä sivustoilta, joihin sinulla on oikeus.')
        .waitFor();
      expect(await asShopper(origin, eeva.email)).toBe(401);
      await search(page, frans.email);
      await page.getByRole('region', { name: `Löydetyt tiedot: ${frans.email}` }).waitFor();
      expect(await countOf(page, 'Tilaukset')).toBe('1');

      // At 375 px: the found person and the confirmation.
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'found at 375');
      await shot(page, 'found-375', true);
      await press(page, 'button', 'Poista henkilön tiedot…');
      await page
        .getByRole('dialog', { name: `Poistetaanko henkilön ${frans.email} tiedot?` })
        .waitFor();
      await axe(page, 'erase dialog at 375');
      await shot(page, 'erase-375');
      await page.keyboard.press('Escape');
      await page.context().close();

      // Customer service has no such screen, and the API refuses it.
      const service = await enrolled(serviceLink, 'Asta Asiakaspalvelu');
      const menu = service.getByRole('navigation', { name: 'Hallinnan valikko' });
      expect(await menu.getByRole('link', { name: 'Henkilötiedot' }).count()).toBe(0);
      const status = await service.evaluate(async (email) => {
        const xsrf = decodeURIComponent(
          document.cookie
            .split('; ')
            .find((c) => c.startsWith('XSRF-TOKEN='))
            ?.split('=')[1] ?? '',
        );
        const res = await fetch('/api/admin/personal-data/search', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-xsrf-token': xsrf },
          body: JSON.stringify({ email }),
        });
        return res.status;
      }, frans.email);
      expect(status).toBe(403);
      await service.goto(`http://127.0.0.1:${port}/admin/personal-data`);
      await service.getByText('Sinulla ei ole oikeutta tähän.').waitFor();
      await axe(service, 'no permission');
      await service.context().close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
