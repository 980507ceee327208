import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { captchaToken, validPayload } from '../../src/features/forms/forms.test-support.ts';
import {
  createStaffMember,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import { enrolFromLink, seededShopEnv } from './admin-shop-support.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  pressByTab as press,
  screenshots,
  tabTo,
} from './browser.ts';

/**
 * The forms' settings in the back office (decision 170), on a server of its own with the demo
 * shop: a publisher of Lihakauppa opens Asetukset → Lomakkeet, changes the feedback form's
 * recipients and thank-you page by keyboard; a bad address and a page the site does not have are
 * refused with the error summary, the focus in the wrong field and what was typed kept; a change
 * someone else made meanwhile is shown as the newest; the shop's feedback form then answers the
 * new page and mails the new recipients; the defaults come back. axe finds nothing
 * serious on the list and the dialogs; screenshots at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-form-settings');
const PASSWORD = 'julkaisijan pitkä salasana';
const API = '/api/admin/forms/settings/lihakauppa';

/** Another staff member's change, as the API takes it (the version as it is now). */
async function changedElsewhere(page: Page, recipients: string[]) {
  const status = await page.evaluate(
    async ({ api, recipients }) => {
      const token = decodeURIComponent(
        /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '',
      );
      const site = await (await fetch(api)).json();
      const form = site.forms.find((f: { form: string }) => f.form === 'feedback');
      const res = await fetch(`${api}/feedback`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
        body: JSON.stringify({ version: form.version, recipients }),
      });
      return res.status;
    },
    { api: API, recipients },
  );
  expect(status).toBe(200);
}

/**
 * Sends the feedback form from the site's contact page as its widget does (the captcha solved
 * here): the answer, with the page the visitor is sent to.
 */
async function sendFeedback(site: Page): Promise<unknown> {
  const challenge = await site.evaluate(async () => (await fetch('/api/captcha/challenge')).json());
  const payload = await validPayload('feedback');
  payload.MTCaptchaToken = await captchaToken(challenge);
  return site.evaluate(async (payload) => {
    const token = decodeURIComponent(
      /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '',
    );
    const res = await fetch(`/api/contact/retail/feedback?lang=${document.documentElement.lang}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
      body: JSON.stringify(payload),
    });
    return res.json();
  }, payload);
}

describe('form settings in the back office', () => {
  it('a publisher changes a recipient and the thank-you page by keyboard', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-form-settings-');
    const link = createStaffMember(env, {
      email: 'paula.julkaisija@kattaus.example',
      name: 'Paula Julkaisija',
      role: 'publisher',
      sites: ['lihakauppa'],
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await enrolFromLink(page, link, 'Paula Julkaisija', PASSWORD);
      await press(page, 'link', 'Asetukset');
      await page.getByRole('heading', { level: 1, name: 'Lomakkeet' }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Lomakkeet: Lihakauppa' }).waitFor();
      const feedback = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { level: 3, name: 'Palaute', exact: true }) });
      await feedback.getByText('asiakaspalvelu@kattaus.localhost').waitFor();
      expect(await feedback.textContent()).toContain('(oletus)');
      await axe(page, 'list');
      await shot(page, 'list-1280', true);

      // A bad address and a page that is not there: refused, what was typed kept.
      await press(page, 'button', 'Muokkaa: Palaute');
      const dialog = page.getByRole('dialog', { name: 'Lomakkeen asetukset: Palaute' });
      await dialog.waitFor();
      const recipients = dialog.getByRole('textbox', { name: 'Vastaanottajat' });
      const thanks = dialog.getByRole('textbox', { name: 'Kiitossivu (suomi)' });
      await expect.poll(() => isFocused(recipients)).toBe(true);
      await page.keyboard.type('laatu@lihakauppa.example');
      await page.keyboard.press('Enter');
      await page.keyboard.type('ei-osoite');
      await tabTo(page, thanks);
      await page.keyboard.type('/ei-ole');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog.getByRole('alert').filter({ hasText: 'Korjaa lomakkeen virheet' }).waitFor();
      await dialog.getByText('Anna sähköpostiosoite muodossa nimi@esimerkki.fi.').first().waitFor();
      await expect.poll(() => isFocused(recipients)).toBe(true);
      expect(await recipients.getAttribute('aria-invalid')).toBe('true');
      expect(await recipients.inputValue()).toBe('laatu@lihakauppa.example\nei-osoite');
      expect(await thanks.inputValue()).toBe('/ei-ole');
      await axe(page, 'edit dialog with a bad address');
      await shot(page, 'edit-bad-address-1280');

      // The address put right; the server finds no page at the address.
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Shift+Home');
      await page.keyboard.type('myynti@lihakauppa.example');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog
        .getByText('Sivustolla ei ole tällä kielellä sivua tässä osoitteessa.')
        .first()
        .waitFor();
      await expect.poll(() => isFocused(thanks)).toBe(true);
      expect(await recipients.inputValue()).toBe(
        'laatu@lihakauppa.example\nmyynti@lihakauppa.example',
      );
      await axe(page, 'edit dialog with a missing page');
      await shot(page, 'edit-missing-page-1280');
      await page.keyboard.press('Control+a');
      await page.keyboard.type('/ota-yhteytta/kiitos');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Asetukset tallennettu: Palaute.').waitFor();
      await feedback.getByText('laatu@lihakauppa.example, myynti@lihakauppa.example').waitFor();
      await feedback.getByText('/ota-yhteytta/kiitos').waitFor();
      expect(await feedback.textContent()).toContain('(asetettu täällä)');

      // The shop's feedback form now goes to the thank-you page and mails the new recipients.
      const site = await context.newPage();
      await site.goto(`http://lihakauppa.localhost:${port}/ota-yhteytta`);
      expect(await sendFeedback(site)).toEqual({
        isSuccess: true,
        redirect: '/ota-yhteytta/kiitos',
      });
      await site.goto(`http://lihakauppa.localhost:${port}/dev/outbox`);
      await site
        .getByText('To laatu@lihakauppa.example,myynti@lihakauppa.example')
        .first()
        .waitFor();
      await site.close();

      // Someone else changes the recipients while the dialog is open: the newest are shown, and
      // the next save is made on them.
      await press(page, 'button', 'Muokkaa: Palaute');
      await dialog.waitFor();
      await changedElsewhere(page, ['toinen@lihakauppa.example']);
      await expect.poll(() => isFocused(recipients)).toBe(true);
      await page.keyboard.press('Control+End');
      await page.keyboard.press('Enter');
      await page.keyboard.type('kolmas@lihakauppa.example');
      await press(page, 'button', 'Tallenna', dialog);
      const moved = dialog.getByRole('alert').filter({ hasText: 'Joku muutti' });
      await moved.waitFor();
      await moved.getByText('toinen@lihakauppa.example').waitFor();
      expect(await recipients.inputValue()).toBe(
        'laatu@lihakauppa.example\nmyynti@lihakauppa.example\nkolmas@lihakauppa.example',
      );
      await axe(page, 'edit dialog after a change elsewhere');
      await shot(page, 'edit-moved-1280');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog.waitFor({ state: 'detached' });
      await feedback
        .getByText('laatu@lihakauppa.example, myynti@lihakauppa.example, kolmas@lihakauppa.example')
        .waitFor();

      // Back to the defaults after a confirmation.
      await press(page, 'button', 'Palauta oletukset: Palaute');
      const confirm = page.getByRole('dialog', { name: 'Palautetaanko oletukset?' });
      await confirm.waitFor();
      await axe(page, 'reset dialog');
      await press(page, 'button', 'Palauta oletukset', confirm);
      await page.getByText('Oletukset palautettu: Palaute.').waitFor();
      await feedback.getByText('asiakaspalvelu@kattaus.localhost').waitFor();
      expect(await feedback.getByRole('button', { name: /^Palauta/ }).count()).toBe(0);

      // On a phone.
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'list at 375');
      await shot(page, 'list-375');
      await press(page, 'button', 'Muokkaa: Palaute');
      await dialog.waitFor();
      await axe(page, 'edit dialog at 375');
      await shot(page, 'edit-375');
      await context.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
