import { readFile, rm } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { addDays, helsinkiDate } from '../../src/features/shop/dates.ts';
import { XSRF_COOKIE, XSRF_HEADER } from '../../src/server/plugins/xsrf.ts';
import {
  createStaffMember,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import {
  enrolFromLink,
  seededShopEnv,
  shopperPays,
  untilReauthAsked,
} from './admin-shop-support.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  pressByTab as press,
  screenshots,
  slowPoll,
  tabTo,
} from './browser.ts';
import { type ProductForSale, productsForSale } from './shop-support.ts';

/**
 * The shop's catalogue, coupons, gift cards and daily report in the back office as a new member
 * of shop staff meets them (issue "Back office IV"), by keyboard: a product's price, VAT class,
 * stock (once refused because it changed meanwhile), weekly quantities and a date's own
 * quantity; a coupon made (once refused by the form) and edited (once on a version someone else
 * had changed); a gift card issued after re-authentication, its code shown once, found by that
 * code and lowered with a reason; the day's report with a shopper's paid order, and its CSV's
 * total row. axe finds nothing serious on each screen and dialog at 1280 px and on the lists at
 * 375 px. On a server of its own, seeded with the demo shop, whose re-authentication lasts 3
 * seconds (STAFF_REAUTH_SECONDS) so that it is asked again.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-shop');
const PASSWORD = 'kaupan henkilökunnan pitkä salasana';

/** Types `text` into a field reached by Tab, replacing what it held. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}

/** Chooses a radio of a group by keyboard: Tab to the chosen one, the arrow keys to `name`. */
async function chooseRadio(page: Page, group: Locator, name: string) {
  await tabTo(page, group.getByRole('radio', { checked: true }));
  const wanted = group.getByRole('radio', { name, exact: true });
  for (let i = 0; i < 5 && !(await wanted.isChecked()); i++) {
    await page.keyboard.press('ArrowDown');
  }
  expect(await wanted.isChecked()).toBe(true);
}

/** A date typed into a date field's segments: day, month, year. */
async function typeDate(page: Page, group: Locator, date: string) {
  const [year, month, day] = date.split('-');
  await tabTo(page, group.getByRole('spinbutton').first());
  await page.keyboard.type(`${day}${month}${year}`);
}

/** Cents as the CSV writes them: `12,34`, `-5,00`. */
const decimal = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** A call of the admin API from the page, as another tab of the same person would make it. */
function adminCall(page: Page, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, body, api }) => {
      const xsrf = decodeURIComponent(
        document.cookie
          .split('; ')
          .find((c) => c.startsWith(`${api.xsrfCookie}=`))
          ?.split('=')[1] ?? '',
      );
      const res = await fetch(url, {
        method,
        headers: {
          [api.xsrfHeader]: xsrf,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    { method, url, body, api: { xsrfCookie: XSRF_COOKIE, xsrfHeader: XSRF_HEADER } },
  );
}

describe('the shop’s catalogue, coupons, gift cards and report in the back office', () => {
  it('changes a product, makes and edits a coupon, issues and adjusts a gift card, reports the day', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-shop-admin-');
    const link = createStaffMember(env, {
      email: 'kaisa.kauppa@kattaus.example',
      name: 'Kaisa Kauppa',
      role: 'shop-staff',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    const adminOrigin = `http://127.0.0.1:${port}`;
    try {
      // A shopper's order, paid today: the day's report has it.
      const look = await browser.newPage();
      await look.goto(`${origin}/`);
      const [product, other] = (await productsForSale(look, 2, 3)) as [
        ProductForSale,
        ProductForSale,
      ];
      await look.context().close();
      expect(other).toBeDefined();
      const order = await shopperPays(browser, origin, {
        firstName: 'Outi',
        lines: [{ code: other.code, quantity: 2 }],
      });

      // The staff member enrols from the command's link.
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
        acceptDownloads: true,
      });
      context.setDefaultTimeout(10_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: adminOrigin,
      });
      const page = await context.newPage();
      const code = await enrolFromLink(page, link, 'Kaisa Kauppa', PASSWORD);
      const menu = page.getByRole('navigation', { name: 'Hallinnan valikko' });
      expect(await menu.getByRole('link').allTextContents()).toEqual([
        'Etusivu',
        'Kauppa',
        'Oma profiili',
      ]);

      // The shop from the menu, then its own menu: the products.
      await press(page, 'link', 'Kauppa');
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      const shopMenu = page.getByRole('navigation', { name: 'Kaupan valikko' });
      expect(await shopMenu.getByRole('link').allTextContents()).toEqual([
        'Tilaukset',
        'Keräilylista',
        'Toimitus',
        'Tuotteet',
        'Arvostelut',
        'Kupongit',
        'Lahjakortit',
        'Asiakkaat',
        'Myyntiraportti',
      ]);
      await press(page, 'link', 'Tuotteet', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Tuotteet' }).waitFor();
      await page.getByText(/^Tuotteita: \d+$/).waitFor();
      await axe(page, 'catalogue');
      await shot(page, 'catalogue-1280', true);

      // Found by its code; its dialog opened from its row.
      await typeInto(page, page.getByRole('searchbox', { name: 'Hakusana' }), product.code);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/admin/catalogue?q=${product.code}`);
      const edit = page.getByRole('button', {
        name: new RegExp(`^Muokkaa: .* \\(${product.code}\\)$`),
      });
      const row = page
        .getByRole('table', { name: 'Tuotteiden hinnat ja varastot' })
        .getByRole('row')
        .filter({ has: edit });
      await row.waitFor();
      await tabTo(page, edit);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /^Muokkaa tuotetta / });
      await dialog.waitFor();
      await axe(page, 'product dialog');
      await shot(page, 'product-dialog-1280');

      // Price 12,34 € and the standard VAT class, by keyboard.
      await typeInto(
        page,
        dialog.getByRole('textbox', { name: 'Hinta euroina (sis. ALV)' }),
        '12,34',
      );
      await tabTo(page, dialog.getByRole('button', { name: /ALV-luokka/ }));
      await page.keyboard.press('Enter');
      const standard = page.getByRole('option', { name: 'Yleinen verokanta' });
      await standard.waitFor();
      for (let i = 0; i < 5 && !(await isFocused(standard)); i++) {
        await page.keyboard.press('ArrowDown');
      }
      await page.keyboard.press('Enter');
      await standard.waitFor({ state: 'detached' });
      await press(page, 'button', 'Tallenna hinta', dialog);
      await dialog.getByText('Hinta on tallennettu: 12,34 €, Yleinen verokanta.').waitFor();
      await dialog.getByText('Nyt: 12,34 €, Yleinen verokanta').waitFor();

      // Stock 40; then someone else makes it 35, and this dialog's 30 (from 40) is refused.
      const stockField = dialog.getByRole('textbox', { name: 'Kappaletta varastossa' });
      if ((await stockField.count()) === 0) {
        await chooseRadio(
          page,
          dialog.getByRole('radiogroup', { name: 'Varaston määrä' }),
          'Kappalemäärä',
        );
      }
      await typeInto(page, stockField, '40');
      await page.keyboard.press('Enter');
      await dialog.getByText('Varasto on tallennettu: 40 kpl.').waitFor();
      await adminCall(page, 'POST', `/api/admin/catalogue/products/${product.code}/stock`, {
        stock: 35,
        expected: 40,
      });
      await typeInto(page, stockField, '30');
      await page.keyboard.press('Enter');
      await dialog
        .getByRole('alert')
        .getByText(/^Varasto muuttui sillä välin .*: nyt 35 kpl\./)
        .waitFor();
      expect(await stockField.inputValue()).toBe('35');
      await axe(page, 'stock refused as changed meanwhile');
      await shot(page, 'stock-409-1280');
      await typeInto(page, stockField, '30');
      await page.keyboard.press('Enter');
      await dialog.getByText('Varasto on tallennettu: 30 kpl.').waitFor();

      // Weekly quantities: 10 on Mondays, 20 on Fridays.
      await typeInto(page, dialog.getByRole('textbox', { name: 'Maanantai' }), '10');
      await typeInto(page, dialog.getByRole('textbox', { name: 'Perjantai' }), '20');
      await press(page, 'button', 'Tallenna viikkomäärät', dialog);
      await dialog.getByText('Viikkomäärät on tallennettu.').waitFor();

      // A date's own quantity, a week from today: listed with what is sold.
      const date = addDays(helsinkiDate(new Date()), 7);
      await typeDate(page, dialog.getByRole('group', { name: 'Toimituspäivä' }), date);
      await typeInto(page, dialog.getByRole('textbox', { name: 'Kappaletta päivälle' }), '5');
      await press(page, 'button', 'Tallenna päivän määrä', dialog);
      await dialog.getByText(/^Päivän .* määrä on tallennettu: 5 kpl\.$/).waitFor();
      const dates = dialog.getByRole('table', { name: 'Tulevat päivät, joilla on oma määrä' });
      const [y, m, d] = date.split('-').map(Number);
      await dates
        .getByRole('row')
        .filter({ hasText: `${d}.${m}.${y}` })
        .waitFor();
      await axe(page, 'product dialog after the changes');
      await shot(page, 'product-dialog-changed-1280');

      // Closed with Escape: the focus is back on its button, the row shows the changes.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // The dialog gives the focus back once it has gone: in the frame after it left.
      await expect.poll(() => isFocused(edit)).toBe(true);
      const rowText = (await row.textContent()) ?? '';
      expect(rowText).toMatch(/12,34\s€/);
      expect(rowText).toContain('25,5');
      expect(rowText).toContain('30 kpl');
      expect(rowText).toContain('ma 10 · pe 20');

      // A coupon: refused by the form first (a percentage above 100), then made.
      await press(page, 'link', 'Kupongit', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Kupongit' }).waitFor();
      await page.getByText(/^Kuponkeja: \d+$/).waitFor();
      await axe(page, 'coupons');
      await shot(page, 'coupons-1280', true);
      await press(page, 'button', 'Uusi kuponki');
      const made = page.getByRole('dialog', { name: 'Uusi kuponki' });
      await made.waitFor();
      expect(await isFocused(made.getByRole('textbox', { name: 'Koodi' }))).toBe(true);
      await page.keyboard.type('kevat10');
      await typeInto(page, made.getByRole('textbox', { name: 'Prosenttia' }), '150');
      await typeInto(page, made.getByRole('textbox', { name: 'Käyttökertoja enintään' }), '100');
      await press(page, 'button', 'Luo kuponki', made);
      await made.getByText('Anna prosentti kokonaislukuna 1–100.').first().waitFor();
      await axe(page, 'coupon dialog with an error');
      await shot(page, 'coupon-new-1280');
      await typeInto(page, made.getByRole('textbox', { name: 'Prosenttia' }), '10');
      await press(page, 'button', 'Luo kuponki', made);
      await made.waitFor({ state: 'detached' });
      await page.getByText('Kuponki KEVAT10 on luotu.').waitFor();
      const couponRow = page
        .getByRole('table', { name: 'Kupongit' })
        .getByRole('row')
        .filter({ hasText: 'KEVAT10' });
      expect(await couponRow.textContent()).toMatch(/10\s%.*0 \/ 100.*Voimassa/);

      // Edited: meanwhile someone else changes its description, so this edit is refused and
      // the dialog shows the coupon as it is now; made again, it is saved.
      const editCoupon = page.getByRole('button', { name: 'Muokkaa kuponkia KEVAT10' });
      await tabTo(page, editCoupon);
      await page.keyboard.press('Enter');
      const edited = page.getByRole('dialog', { name: 'Muokkaa kuponkia KEVAT10' });
      await edited.waitFor();
      const toAmount = async () => {
        await chooseRadio(
          page,
          edited.getByRole('radiogroup', { name: 'Alennuksen laji' }),
          'Summa euroina',
        );
        await typeInto(page, edited.getByRole('textbox', { name: 'Summa euroina' }), '5,00');
        await typeInto(
          page,
          edited.getByRole('textbox', { name: 'Vähimmäistilaus euroina' }),
          '30',
        );
      };
      await toAmount();
      const { coupons } = await adminCall(page, 'GET', '/api/admin/coupons?q=KEVAT10');
      const { id, version, siteId, usedCount, ...fields } = coupons[0];
      expect(usedCount).toBe(0);
      expect(siteId).toBe('lihakauppa');
      await adminCall(page, 'PUT', `/api/admin/coupons/${id}`, {
        coupon: { ...fields, description: 'Kevään kampanja' },
        version,
      });
      await press(page, 'button', 'Tallenna muutokset', edited);
      await edited
        .getByRole('alert')
        .getByText(/^Joku muu muutti kuponkia sillä välin\./)
        .waitFor();
      expect(await edited.getByRole('textbox', { name: /^Kuvaus/ }).inputValue()).toBe(
        'Kevään kampanja',
      );
      await axe(page, 'coupon edit refused as changed meanwhile');
      await shot(page, 'coupon-409-1280');
      await toAmount();
      await press(page, 'button', 'Tallenna muutokset', edited);
      await edited.waitFor({ state: 'detached' });
      await page.getByText('Kupongin KEVAT10 muutokset on tallennettu.').waitFor();
      await slowPoll(async () => couponRow.textContent()).toMatch(
        /KEVAT10Kevään kampanja5,00\s€Tilaus vähintään 30,00\s€/,
      );

      // A gift card issued: the password asked again, the code shown once, copied.
      await press(page, 'link', 'Lahjakortit', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Lahjakortit' }).waitFor();
      await axe(page, 'gift cards');
      await shot(page, 'gift-cards-1280', true);
      await untilReauthAsked(page);
      await press(page, 'button', 'Anna uusi lahjakortti');
      const issue = page.getByRole('dialog', { name: 'Uusi lahjakortti' });
      await issue.waitFor();
      expect(await isFocused(issue.getByRole('textbox', { name: 'Arvo euroina' }))).toBe(true);
      await page.keyboard.type('50');
      await typeInto(
        page,
        issue.getByRole('textbox', { name: 'Syy' }),
        'Korvaus myöhästyneestä toimituksesta',
      );
      await axe(page, 'issue dialog');
      await shot(page, 'gift-card-issue-1280');
      await press(page, 'button', 'Anna lahjakortti', issue);
      const reauth = page.getByRole('dialog', { name: 'Vahvista henkilöllisyytesi' });
      await reauth.waitFor();
      // Typed once the dialog has moved the focus into its field, so no key is lost.
      await slowPoll(() => isFocused(reauth.getByLabel('Salasana'))).toBe(true);
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      const issuedHeading = page.getByRole('heading', { name: 'Uuden lahjakortin koodi' });
      await issuedHeading.waitFor();
      await slowPoll(() => isFocused(issuedHeading)).toBe(true);
      const giftCode = ((await page.getByTestId('gift-card-code').textContent()) ?? '').trim();
      expect(giftCode).toMatch(/^LAHJA-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      await page.getByText(/eikä sitä voi näyttää uudelleen/).waitFor();
      await press(page, 'button', 'Kopioi koodi');
      await page.getByText('Koodi on kopioitu leikepöydälle.').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(giftCode);
      await axe(page, 'gift card issued');
      await shot(page, 'gift-card-issued-1280', true);

      // Found again by that code (typed in small letters): never in the address.
      await typeInto(page, page.getByRole('textbox', { name: 'Lahjakortin koodi' }), 'LAHJA-XXXX');
      await page.keyboard.press('Enter');
      await page.getByText('Tällä koodilla ei ole lahjakorttia.').first().waitFor();
      await typeInto(
        page,
        page.getByRole('textbox', { name: 'Lahjakortin koodi' }),
        giftCode.toLowerCase(),
      );
      await page.keyboard.press('Enter');
      await page.getByText(/^Lahjakortti nro \d+ löytyi\. Saldo 50,00\s€\.$/).waitFor();
      expect(page.url()).not.toContain(giftCode);
      expect(page.url().toUpperCase()).not.toContain(giftCode);
      const card = page.getByRole('region', { name: /^Lahjakortti nro \d+$/ });
      const history = card.getByRole('table', { name: 'Historia' });
      await history
        .getByRole('row')
        .filter({ hasText: 'Korvaus myöhästyneestä toimituksesta' })
        .filter({ hasText: 'Kaisa Kauppa' })
        .filter({ hasText: /\+50,00\s€/ })
        .waitFor();

      // Lowered by 15,00 € with a reason, after a code from the app.
      await untilReauthAsked(page);
      await press(page, 'button', 'Muuta saldoa', card);
      const adjust = page.getByRole('dialog', { name: /^Muuta lahjakortin nro \d+ saldoa$/ });
      await adjust.waitFor();
      await adjust.getByText(/^Saldo nyt: 50,00\s€$/).waitFor();
      await chooseRadio(page, adjust.getByRole('radiogroup', { name: 'Muutos' }), 'Vähennä saldoa');
      await typeInto(page, adjust.getByRole('textbox', { name: 'Summa euroina' }), '15');
      await typeInto(page, adjust.getByRole('textbox', { name: 'Syy' }), 'Osa käytetty myymälässä');
      await axe(page, 'adjust dialog');
      await shot(page, 'gift-card-adjust-1280');
      await press(page, 'button', 'Tallenna muutos', adjust);
      await reauth.waitFor();
      await tabTo(page, reauth.getByLabel('Tai sovelluksen koodi'));
      await page.keyboard.type(await code());
      await page.keyboard.press('Enter');
      await page.getByText(/^Saldo on muutettu: nyt 35,00\s€\.$/).waitFor();
      expect(await adjust.count()).toBe(0);
      await history
        .getByRole('row')
        .filter({ hasText: 'Osa käytetty myymälässä' })
        .filter({ hasText: /-15,00\s€/ })
        .waitFor();
      await axe(page, 'gift card adjusted');
      await shot(page, 'gift-card-adjusted-1280', true);

      // The day's report: the shopper's order; its CSV's total row is the report's totals.
      await press(page, 'link', 'Myyntiraportti', shopMenu);
      await page.getByRole('heading', { level: 1, name: /^Myynti / }).waitFor();
      await page.getByText('Maksettuja tilauksia 1, hyvityksiä 0').waitFor();
      const today = helsinkiDate(new Date());
      const report = await adminCall(page, 'GET', `/api/admin/reports/daily?date=${today}`);
      const rows = page.getByRole('table', {
        name: 'Päivän tilaukset ja hyvitykset sekä yhteensä',
      });
      await rows.getByRole('link', { name: `Tilaus ${order.orderNumber}` }).waitFor();
      expect(report.orders).toBe(1);
      expect(report.rows[0].number).toBe(order.orderNumber);
      await axe(page, 'report');
      await shot(page, 'report-1280', true);
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        press(page, 'button', 'Lataa CSV'),
      ]);
      expect(file.suggestedFilename()).toBe(`myynti-${today}.csv`);
      const csv = (await readFile((await file.path()) ?? '')).toString('utf8');
      const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe(
        'Rivi;Numero;Sivusto;Aika;Myynti (sis. ALV);ALV;Lahjakortilla maksettu;Maksettu / palautettu',
      );
      expect(lines[1]).toMatch(new RegExp(`^Tilaus;${order.orderNumber};lihakauppa;`));
      expect(lines).toContain(
        [
          'Yhteensä',
          1,
          'lihakauppa',
          today,
          decimal(report.grossCents),
          decimal(report.vatCents),
          decimal(report.giftCardUseCents),
          decimal(report.netCents),
        ].join(';'),
      );
      expect(report.netCents).toBeGreaterThan(0);
      await page.getByText('CSV-tiedosto on ladattu.').waitFor();
      // The screen's total row says the same.
      const total = (await rows.locator('tfoot').textContent()) ?? '';
      expect(total.replace(/\s/g, ' ')).toContain(decimal(report.netCents));

      // At 375 px: the lists as cards, the menus a few lines.
      await page.setViewportSize({ width: 375, height: 800 });
      await press(page, 'link', 'Tuotteet', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Tuotteet' }).waitFor();
      await page.getByText(/^Tuotteita: \d+$/).waitFor();
      await axe(page, 'catalogue at 375');
      await shot(page, 'catalogue-375');
      await tabTo(page, page.getByRole('button', { name: /^Muokkaa: / }).first());
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await axe(page, 'product dialog at 375');
      await shot(page, 'product-dialog-375');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await press(page, 'link', 'Kupongit', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Kupongit' }).waitFor();
      await couponRow.waitFor();
      await axe(page, 'coupons at 375');
      await shot(page, 'coupons-375', true);
      await press(page, 'link', 'Lahjakortit', shopMenu);
      await page.getByRole('heading', { level: 1, name: 'Lahjakortit' }).waitFor();
      await typeInto(page, page.getByRole('textbox', { name: 'Lahjakortin koodi' }), giftCode);
      await page.keyboard.press('Enter');
      await history.getByRole('row').filter({ hasText: 'Osa käytetty myymälässä' }).waitFor();
      await axe(page, 'gift card at 375');
      await shot(page, 'gift-card-375', true);
      await press(page, 'link', 'Myyntiraportti', shopMenu);
      await page.getByText('Maksettuja tilauksia 1, hyvityksiä 0').waitFor();
      await axe(page, 'report at 375');
      await shot(page, 'report-375', true);
      await context.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
