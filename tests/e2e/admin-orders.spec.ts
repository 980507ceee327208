import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { formatPrice } from '../../src/i18n/format.ts';
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
  tabTo,
} from './browser.ts';
import { type ProductForSale, productsForSale } from './shop-support.ts';

/**
 * The shop's orders in the back office as shop staff meet them (issue "Back office IV"): five
 * shoppers order for the same delivery slot through the shop's own API, one with a coupon, and pay
 * at the test bank; a new member of shop staff, by keyboard, opens the pick list of that date and
 * slot (the products summed), prints it (the PDF has the list and none of the screen's controls),
 * marks the orders packed and four of them on to delivered in bulk, refunds part of one through the
 * test bank and cancels the coupon's order, the server asking for the password or a code again
 * before each. The cancelled order's slot place, stock and coupon use come back on the delivery,
 * catalogue and coupon screens, and the day's sales report agrees with the orders' payments and
 * refunds. axe finds nothing serious on each screen and dialog. On a server of its own, seeded
 * with the demo shop, whose re-authentication lasts 3 seconds (STAFF_REAUTH_SECONDS) so that it
 * asks again.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-orders');
const PASSWORD = 'kaupan henkilökunnan pitkä salasana';

/**
 * Opens the order `number` from the orders grid as the keyboard does: Tab into the grid, the
 * arrow keys to its row, Enter.
 */
async function openFromGrid(page: Page, number: number) {
  const grid = page.getByRole('grid', { name: 'Tilaukset' });
  const inside = (target: typeof grid) =>
    target.evaluate((el) => el.contains(document.activeElement));
  for (let i = 0; i < 120 && !(await inside(grid)); i++) await page.keyboard.press('Tab');
  const row = grid
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: `Avaa tilaus ${number},` }) });
  for (let i = 0; i < 60 && !(await inside(row)); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** The text of the order blocks of the pick list, by order number. */
const pickBlock = (page: Page, number: number) =>
  page.getByRole('article', { name: new RegExp(`^Tilaus ${number}\\b`) });

/** The first whole number in a text (`12 kpl`, `1 / 100`, `5 (ti 1.12.)`). */
const firstNumber = (text: string | null) => Number(/\d+/.exec(text ?? '')?.[0]);

/**
 * What the staff member's screens show of what an order takes: the delivery slot's booked orders
 * on the delivery date (Delivery), product `code`'s stock (Products) and the coupon's uses
 * (Coupons), each screen opened at its address.
 */
async function takenOnScreens(
  page: Page,
  admin: string,
  taken: { start: string; code: string; coupon: string },
) {
  await page.goto(`${admin}/delivery`);
  const area = page.getByRole('region', { name: 'Pääkaupunkiseutu' });
  const booked = area
    .getByRole('table', { name: 'Viikoittaiset toimitusajat' })
    .getByRole('row')
    .filter({ hasText: `${taken.start}–` })
    .filter({ hasNotText: 'Ei tilauksia' })
    .locator('td[data-label="Varattu"]');
  await booked.waitFor();
  await axe(page, 'delivery');
  const slot = firstNumber(await booked.textContent());

  await page.goto(`${admin}/catalogue?q=${encodeURIComponent(taken.code)}`);
  const stock = page
    .getByRole('row')
    .filter({ hasText: taken.code })
    .locator('td[data-label="Varasto"]');
  await stock.waitFor();
  const pieces = firstNumber(await stock.textContent());

  await page.goto(`${admin}/coupons?q=${encodeURIComponent(taken.coupon)}`);
  const uses = page
    .getByRole('row')
    .filter({ hasText: taken.coupon })
    .locator('td[data-label="Käytetty / raja"]');
  await uses.waitFor();
  return { slot, stock: pieces, couponUses: firstNumber(await uses.textContent()) };
}

describe('the shop’s orders in the back office', () => {
  it('picks, prints, fulfils, refunds and cancels orders of one delivery slot by keyboard', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-orders-');
    const link = createStaffMember(env, {
      email: 'sanna.kauppa@kattaus.example',
      name: 'Sanna Kauppa',
      role: 'shop-staff',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    const admin = `http://127.0.0.1:${port}/admin`;
    try {
      // Five shoppers, the same delivery time: 2 + 1 + 3 + 1 of one product (of counted stock),
      // 1 + 2 + 1 of another; Cecilia gives the coupon KERTA15.
      const look = await browser.newPage();
      await look.goto(`${origin}/`);
      const forSale = await productsForSale(look, 40, 8);
      await look.context().close();
      const a = forSale.find((product) => product.stock !== null) as ProductForSale;
      const b = forSale.find((product) => product !== a) as ProductForSale;
      expect(a).toBeDefined();
      expect(b).toBeDefined();
      const aino = await shopperPays(browser, origin, {
        firstName: 'Aino',
        lines: [
          { code: a.code, quantity: 2 },
          { code: b.code, quantity: 1 },
        ],
      });
      const slot = { date: aino.date, time: aino.time };
      const bertta = await shopperPays(
        browser,
        origin,
        { firstName: 'Bertta', lines: [{ code: a.code, quantity: 1 }] },
        slot,
      );
      const cecilia = await shopperPays(
        browser,
        origin,
        {
          firstName: 'Cecilia',
          lines: [
            { code: a.code, quantity: 3 },
            { code: b.code, quantity: 2 },
          ],
          coupon: 'KERTA15',
        },
        slot,
      );
      const doris = await shopperPays(
        browser,
        origin,
        { firstName: 'Doris', lines: [{ code: b.code, quantity: 1 }] },
        slot,
      );
      const eeva = await shopperPays(
        browser,
        origin,
        { firstName: 'Eeva', lines: [{ code: a.code, quantity: 1 }] },
        slot,
      );
      const everyone = [aino, bertta, cecilia, doris, eeva];
      const start = aino.time.slice(0, 5);

      // The staff member enrols from the command's link.
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const code = await enrolFromLink(page, link, 'Sanna Kauppa', PASSWORD);

      // The pick list from the shop's menu; the delivery date typed in its segments, the slot
      // chosen.
      await press(page, 'link', 'Kauppa');
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      await press(page, 'link', 'Keräilylista');
      await page.getByRole('heading', { level: 1, name: /^Keräilylista / }).waitFor();
      const [year, month, day] = slot.date.split('-');
      const date = page.getByRole('group', { name: 'Toimituspäivä' });
      await tabTo(page, date.getByRole('spinbutton').first());
      await page.keyboard.type(`${day}${month}${year}`);
      // The slots are one radio group: Tab reaches the chosen one, the arrow keys the others.
      const slots = page.getByRole('radiogroup', { name: 'Toimitusaika' });
      await tabTo(page, slots.getByRole('radio', { checked: true }));
      const slotButton = slots.getByRole('radio', { name: new RegExp(`^${start}–.* \\(5\\)$`) });
      for (let i = 0; i < 10 && !(await isFocused(slotButton)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      await page.keyboard.press('Space');
      await page
        .getByRole('heading', { level: 1, name: new RegExp(`^Keräilylista .*, ${start}–`) })
        .waitFor();
      await page.getByText('Tilauksia listalla: 5').waitFor();
      const products = page.getByRole('table', { name: 'Kerättävät tuotteet yhteensä' });
      const sumOf = async (code: string) =>
        (
          await products
            .getByRole('row')
            .filter({ hasText: code })
            .getByRole('cell')
            .last()
            .textContent()
        )?.trim();
      expect(await sumOf(a.code)).toBe('7');
      expect(await sumOf(b.code)).toBe('4');
      for (const placed of everyone) await pickBlock(page, placed.orderNumber).waitFor();
      expect(await pickBlock(page, aino.orderNumber).textContent()).toContain('Ainonkuja 3');
      await axe(page, 'pick list');
      await shot(page, 'pick-list-1280', true);

      // Printed: the sums and the orders, none of the menu, header, buttons or checkboxes.
      await page.emulateMedia({ media: 'print' });
      const pdfFile = path.join(dataDir, 'pick-list.pdf');
      await page.pdf({ path: pdfFile, format: 'A4' });
      await page.emulateMedia({ media: 'screen' });
      const printed = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
      expect(printed).toMatch(new RegExp(`${a.code}\\s+7\\b`));
      expect(printed).toMatch(new RegExp(`${b.code}\\s+4\\b`));
      for (const placed of everyone) {
        expect(printed).toContain(`Tilaus ${placed.orderNumber}`);
      }
      expect(printed.indexOf('Tuotteet yhteensä')).toBeLessThan(printed.indexOf('Tilaukset (5)'));
      for (const absent of [
        'Kattaus',
        'Etusivu',
        'Kirjaudu ulos',
        'Tulosta',
        'Valitse',
        'Merkitse',
      ]) {
        expect(printed, absent).not.toContain(absent);
      }

      // All packed in bulk; then all but Cecilia's on to out for delivery and delivered.
      await tabTo(page, page.getByRole('checkbox', { name: /^Valitse kaikki/ }));
      await page.keyboard.press('Space');
      await press(page, 'button', 'Merkitse pakatuiksi');
      await page.getByText('5 tilausta siirrettiin vaiheeseen: Pakattu.').waitFor();
      for (const placed of everyone) {
        await pickBlock(page, placed.orderNumber).getByText('Pakattu').waitFor();
      }
      await tabTo(
        page,
        page.getByRole('checkbox', { name: `Valitse tilaus ${cecilia.orderNumber}` }),
      );
      await page.keyboard.press('Space');
      await press(page, 'button', 'Merkitse kuljetukseen');
      const delivered = [aino, bertta, doris, eeva];
      await page.getByText('4 tilausta siirrettiin vaiheeseen: Kuljetuksessa.').waitFor();
      for (const placed of delivered) {
        await pickBlock(page, placed.orderNumber).getByText('Kuljetuksessa').waitFor();
      }
      await press(page, 'button', 'Merkitse toimitetuiksi');
      await page.getByText('4 tilausta siirrettiin vaiheeseen: Toimitettu.').waitFor();
      for (const placed of delivered) {
        await pickBlock(page, placed.orderNumber).getByText('Toimitettu').waitFor();
      }
      await pickBlock(page, cecilia.orderNumber).getByText('Pakattu').waitFor();
      await axe(page, 'pick list after the bulk moves');

      // The orders: the list, Aino's order opened from it.
      await press(page, 'link', 'Tilaukset');
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      await page.getByText('Tilauksia: 5').waitFor();
      await axe(page, 'orders');
      await shot(page, 'orders-1280', true);
      await openFromGrid(page, aino.orderNumber);
      await page.getByRole('heading', { level: 1, name: `Tilaus ${aino.orderNumber}` }).waitFor();
      const handling = page.getByRole('region', { name: 'Käsittely' });
      expect(await handling.textContent()).toContain('Toimitettu');
      await axe(page, 'order');
      await shot(page, 'order-1280', true);

      // Part of it refunded: too much is refused in the dialog, then 5,00 € after the password.
      const left = (await handling.getByText(/€$/).first().textContent()) ?? '';
      await untilReauthAsked(page);
      await press(page, 'button', 'Hyvitä');
      const refund = page.getByRole('dialog', { name: `Hyvitys tilaukselle ${aino.orderNumber}` });
      await refund.waitFor();
      expect(await refund.textContent()).toContain(`Hyvitettävissä vielä ${left}`);
      const amount = refund.getByRole('textbox', { name: 'Summa euroina' });
      expect(await isFocused(amount)).toBe(true);
      await page.keyboard.type('9999');
      await page.keyboard.press('Enter');
      await refund.getByText('Summa on suurempi kuin hyvitettävissä on.').first().waitFor();
      await axe(page, 'refund dialog with an error');
      await shot(page, 'refund-1280');
      expect(await isFocused(amount)).toBe(true);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('5,00');
      await page.keyboard.press('Enter');
      const reauth = page.getByRole('dialog', { name: 'Vahvista henkilöllisyytesi' });
      await reauth.waitFor();
      expect(await isFocused(reauth.getByLabel('Salasana'))).toBe(true);
      await axe(page, 're-authentication over the refund dialog');
      await shot(page, 'refund-reauth-1280');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByText('Hyvitys 5,00 € on lähetetty maksunvälittäjälle.').waitFor();
      expect(await refund.count()).toBe(0);
      const refunds = page.getByRole('table', { name: 'Hyvitykset' });
      await refunds.getByRole('row').filter({ hasText: '5,00 €' }).getByText('Hyvitetty').waitFor();
      await page
        .getByRole('region', { name: 'Tapahtumat' })
        .getByText(/Hyvitys: 5,00\s€/)
        .first()
        .waitFor();
      await axe(page, 'order refunded');

      // Meanwhile someone else refunds all but a cent: this page's 5,00 € is then more than is
      // left, which the server refuses (409); the dialog says so and shows what is left now.
      await page.evaluate(
        async ({ id, password, api }) => {
          const xsrf = decodeURIComponent(
            document.cookie
              .split('; ')
              .find((c) => c.startsWith(`${api.xsrfCookie}=`))
              ?.split('=')[1] ?? '',
          );
          const post = (url: string, body: unknown) =>
            fetch(url, {
              method: 'POST',
              headers: { 'content-type': 'application/json', [api.xsrfHeader]: xsrf },
              body: JSON.stringify(body),
            });
          const order = await (await fetch(`/api/admin/orders/${id}`)).json();
          await post('/api/admin/auth/reauth', { password });
          const answer = await post(`/api/admin/orders/${id}/refunds`, {
            key: crypto.randomUUID(),
            amountCents: order.refundableCents - 1,
          });
          if (!answer.ok) throw new Error(`the other refund: ${answer.status}`);
        },
        {
          id: aino.orderId,
          password: PASSWORD,
          api: { xsrfCookie: XSRF_COOKIE, xsrfHeader: XSRF_HEADER },
        },
      );
      await untilReauthAsked(page);
      await tabTo(page, page.getByRole('button', { name: 'Hyvitä', exact: true }));
      await page.keyboard.press('Enter');
      await refund.waitFor();
      await page.keyboard.type('5,00');
      await page.keyboard.press('Enter');
      await reauth.waitFor();
      await expect.poll(() => isFocused(reauth.getByLabel('Salasana'))).toBe(true);
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await refund
        .getByRole('alert')
        .getByText('Hyvitys on suurempi kuin hyvitettävissä on')
        .waitFor();
      await refund.getByText(/Hyvitettävissä vielä 0,01\s€/).waitFor();
      await axe(page, 'refund refused by the server');
      await shot(page, 'refund-409-1280');
      await page.keyboard.press('Escape');
      await refund.waitFor({ state: 'detached' });

      // Cecilia's order cancelled: the dialog keeps the focus, Escape closes it, then a code.
      // What her order took, as the delivery, product and coupon screens show it, comes back.
      const taken = { start, code: a.code, coupon: 'KERTA15' };
      const before = await takenOnScreens(page, admin, taken);
      expect(before.slot).toBe(5);
      expect(before.couponUses).toBeGreaterThanOrEqual(1);
      await page.goto(`${admin}/orders`);
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      await openFromGrid(page, cecilia.orderNumber);
      await page
        .getByRole('heading', { level: 1, name: `Tilaus ${cecilia.orderNumber}` })
        .waitFor();
      await untilReauthAsked(page);
      const cancelButton = page.getByRole('button', { name: 'Peru tilaus', exact: true });
      await tabTo(page, cancelButton);
      await page.keyboard.press('Enter');
      const cancel = page.getByRole('dialog', { name: `Peru tilaus ${cecilia.orderNumber}?` });
      await cancel.waitFor();
      const reason = cancel.getByRole('textbox', { name: 'Syy' });
      expect(await isFocused(reason)).toBe(true);
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        expect(await cancel.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      }
      await axe(page, 'cancel dialog');
      await shot(page, 'cancel-1280');
      await page.keyboard.press('Escape');
      await cancel.waitFor({ state: 'detached' });
      // The dialog gives the focus back once it has gone: in the frame after it left.
      await expect.poll(() => isFocused(cancelButton)).toBe(true);
      await page.keyboard.press('Enter');
      await cancel.waitFor();
      await page.keyboard.type('Tuote loppui varastosta.');
      await tabTo(page, cancel.getByRole('button', { name: 'Peru tilaus' }));
      await page.keyboard.press('Enter');
      await reauth.waitFor();
      await tabTo(page, reauth.getByLabel('Tai sovelluksen koodi'));
      await page.keyboard.type(await code());
      await page.keyboard.press('Enter');
      await page.getByText('Tilaus on peruttu.').waitFor();
      expect(await cancel.count()).toBe(0);
      expect(await handling.textContent()).toContain('Peruttu');
      const timeline = page.getByRole('region', { name: 'Tapahtumat' });
      await timeline.getByText('Tuote loppui varastosta.').waitFor();
      await timeline.getByText(/Tilaus peruttiin: hyvitys/).waitFor();
      // What was paid went back through the test bank in the same move.
      await page.getByRole('table', { name: 'Hyvitykset' }).getByText('Hyvitetty').waitFor();
      await axe(page, 'order cancelled');
      await shot(page, 'cancelled-1280', true);
      const after = await takenOnScreens(page, admin, taken);
      expect(after).toEqual({
        slot: before.slot - 1,
        stock: before.stock + 3,
        couponUses: before.couponUses - 1,
      });

      // The day's sales report: the five orders paid and the three refunds confirmed, the same
      // sums as the orders' own payment and refund rows.
      const rows = await page.evaluate(
        async (ids) => {
          const orders = await Promise.all(
            ids.map((id) => fetch(`/api/admin/orders/${id}`).then((r) => r.json())),
          );
          type Row = { status: string; amountCents: number };
          const sum = (list: Row[]) =>
            list.filter((row) => row.status === 'ok').reduce((t, row) => t + row.amountCents, 0);
          return {
            paid: orders.reduce((t, o) => t + sum(o.payments as Row[]), 0),
            refunded: orders.reduce((t, o) => t + sum(o.refunds as Row[]), 0),
            refunds: orders.flatMap((o) => o.refunds as Row[]).filter((r) => r.status === 'ok')
              .length,
          };
        },
        everyone.map((placed) => placed.orderId),
      );
      expect(rows.refunds).toBe(3);
      await page.goto(`${admin}/report`);
      await page.getByText('Maksettuja tilauksia 5, hyvityksiä 3').waitFor();
      const totals = page.getByRole('region', { name: 'Yhteenveto' });
      const sum = async (label: string | RegExp) =>
        (
          await totals.locator('dt', { hasText: label }).locator('xpath=../dd').textContent()
        )?.replace(/\s/g, ' ');
      expect(await sum('Maksettu maksunvälittäjän kautta')).toBe(
        formatPrice(rows.paid).replace(/\s/g, ' '),
      );
      expect(await sum(/^Hyvitykset \(3\)$/)).toBe(formatPrice(-rows.refunded).replace(/\s/g, ' '));
      expect(await sum(/^Netto/)).toBe(formatPrice(rows.paid - rows.refunded).replace(/\s/g, ' '));
      await axe(page, 'report');
      await shot(page, 'report-1280', true);
      await page.goto(`${admin}/orders/${cecilia.orderId}`);
      await page
        .getByRole('heading', { level: 1, name: `Tilaus ${cecilia.orderNumber}` })
        .waitFor();

      // At 375 px: the orders as cards, the pick list.
      await page.setViewportSize({ width: 375, height: 800 });
      await press(page, 'link', 'Takaisin tilauksiin');
      await page.getByRole('heading', { level: 1, name: 'Tilaukset' }).waitFor();
      await page.getByText('Tilauksia: 5').waitFor();
      await axe(page, 'orders at 375');
      await shot(page, 'orders-375', true);
      await page.goto(`http://127.0.0.1:${port}/admin/pick-list?date=${slot.date}&slot=${start}`);
      await page.getByText('Tilauksia listalla: 4').waitFor();
      await axe(page, 'pick list at 375');
      await shot(page, 'pick-list-375', true);

      // The shopper was told, in Finnish, with the reason.
      const outbox = await context.newPage();
      await outbox.goto(`${origin}/dev/outbox`);
      const mail = outbox
        .locator('article')
        .filter({ hasText: `${cecilia.orderNumber}` })
        .filter({ hasText: 'Tuote loppui varastosta.' });
      expect(await mail.count()).toBeGreaterThan(0);
      await context.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
