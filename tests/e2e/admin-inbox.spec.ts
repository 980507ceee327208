import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { captchaToken, validPayload } from '../../src/features/forms/forms.test-support.ts';
import { forms } from '../../src/features/forms/forms.ts';
import { requestWithJar } from '../helpers/raw-http.ts';
import {
  createStaffMember,
  freePort,
  startServerProcess,
  stopServerProcess,
} from '../helpers/server-process.ts';
import { enrolFromLink } from './admin-shop-support.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  screenshots,
} from './browser.ts';

/**
 * The customer-service inbox as a new customer-service person meets it (issue 36): a complaint
 * with its pictures sent to the shop's public form endpoint (a real captcha solved), found in the
 * inbox, opened with its thumbnail, a note, an assignee, a reply seen in the outbox, closed; a
 * Swedish brand's complaint never shown; an editor without the grant sees neither. On a server of
 * its own, whose staff the README's command made before it started.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-inbox');
const PASSWORD = 'asiakaspalvelun pitkä salasana';

/** A complaint with two pictures, sent as the form's widget sends it. */
async function sendComplaint(port: number, host: string): Promise<void> {
  const jar = new Map<string, string>();
  await requestWithJar(port, host, jar, 'GET', '/');
  const challenge = await requestWithJar(port, host, jar, 'GET', '/api/captcha/challenge');
  const payload = await validPayload('complaint');
  payload.MTCaptchaToken = await captchaToken(JSON.parse(challenge.text));
  const sent = await requestWithJar(port, host, jar, 'POST', forms.complaint.path, payload);
  expect(sent.status, sent.text).toBe(200);
}

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(`^${select}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('the customer-service inbox', () => {
  it('takes a complaint from the public form to closed, and shows nothing to an editor', async () => {
    const port = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-e2e-inbox-'));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEV_OUTBOX_PAGE: 'true',
      ADMIN_URL: `http://127.0.0.1:${port}/admin`,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const serviceLink = createStaffMember(env, {
      email: 'asta.asiakaspalvelu@kattaus.example',
      name: 'Asta Asiakaspalvelu',
      role: 'customer-service',
      sites: ['lihakauppa'],
      langs: ['fi'],
    });
    const editorLink = createStaffMember(env, {
      email: 'eino.editori@kattaus.example',
      name: 'Eino Editori',
      role: 'editor',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    try {
      await sendComplaint(port, 'lihakauppa.localhost');
      await sendComplaint(port, 'delise.localhost');

      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
        acceptDownloads: true,
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await enrolFromLink(page, serviceLink, 'Asta Asiakaspalvelu', PASSWORD);
      await page.getByRole('link', { name: 'Lomakeviestit' }).click();
      await page.getByRole('heading', { level: 1, name: 'Lomakeviestit' }).waitFor();
      const open = page.getByRole('link', { name: /^Avaa: Reklamaatio, saapunut / });
      await open.waitFor({ timeout: 5_000 });
      expect(await page.getByRole('grid').getByRole('row').count()).toBe(2);
      expect(await page.getByRole('grid').textContent()).not.toContain('delise');
      await axe(page, 'inbox');
      await shot(page, 'inbox-1280', true);
      // The list as CSV for a spreadsheet: one row, the submission's fields opened.
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Vie CSV-tiedostoon' }).click(),
      ]);
      expect(file.suggestedFilename()).toBe('lomakeviestit.csv');
      const csv = (await readFile((await file.path()) ?? '')).toString('utf8');
      expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
      expect(csv).toContain(';complaint;lihakauppa;fi;');
      expect(csv).toContain('maija@example.fi');
      await page.getByText('Tiedosto on ladattu.').waitFor();

      // Opened by keyboard: the fields decrypted, the picture as a thumbnail.
      await open.focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('heading', { level: 1, name: 'Reklamaatio · lihakauppa · fi' })
        .waitFor();
      await page.getByText('maija@example.fi').first().waitFor();
      const thumbnail = page.getByRole('img', { name: 'Lähetetty kuva: kuva.png' });
      await expect
        .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await axe(page, 'submission opened');

      // A note, an assignee, a reply.
      await page
        .getByRole('textbox', { name: 'Sisäinen muistiinpano' })
        .fill('Soitin asiakkaalle, palautus sovittu.');
      await page.getByRole('button', { name: 'Lisää muistiinpano' }).click();
      await page.getByText('Muistiinpano on lisätty.').waitFor();
      await page.getByText('Soitin asiakkaalle, palautus sovittu.').waitFor();
      await choose(page, 'Ei käsittelijää', 'Asta Asiakaspalvelu');
      await page.getByRole('button', { name: 'Tallenna käsittelijä' }).click();
      await page.getByText('Muutos on tallennettu.').waitFor();
      await page.getByText('Asta Asiakaspalvelu vaihtoi käsittelijän').waitFor();
      await page
        .getByRole('textbox', { name: 'Vastaus asiakkaalle' })
        .fill('Palautamme tuotteen hinnan tilillenne.');
      await page.getByRole('button', { name: 'Lähetä vastaus' }).click();
      await page.getByText('Vastaus on lähetetty.').waitFor();
      expect(await page.getByRole('textbox', { name: 'Vastaus asiakkaalle' }).inputValue()).toBe(
        '',
      );

      // Closed; the state shows in the list.
      await choose(page, 'Uusi', 'Suljettu');
      await page.getByRole('button', { name: 'Tallenna tila' }).click();
      await page.getByText('Asta Asiakaspalvelu muutti tilaksi: Suljettu').waitFor();
      expect(await isFocused(page.getByRole('button', { name: 'Tallenna tila' }))).toBe(true);
      await axe(page, 'submission handled');
      await shot(page, 'submission-1280', true);
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'submission at 375');
      await shot(page, 'submission-375', true);
      await page.getByRole('link', { name: 'Takaisin viesteihin' }).click();
      await page.getByRole('grid').getByText('Suljettu').waitFor();
      await shot(page, 'inbox-375', true);

      // The reply waits in the outbox, to the submitter, in Finnish.
      const outbox = await context.newPage();
      await outbox.goto(`http://127.0.0.1:${port}/dev/outbox`);
      const mail = outbox.locator('article').filter({ hasText: 'maija@example.fi' }).first();
      expect(await mail.textContent()).toContain('Vastaus yhteydenottoosi');
      expect(await mail.textContent()).toContain('Palautamme tuotteen hinnan tilillenne.');
      await context.close();

      // An editor: no inbox in the menu, the API refuses, the page says so.
      const other = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      const editor = await other.newPage();
      await enrolFromLink(editor, editorLink, 'Eino Editori', PASSWORD);
      const nav = editor.getByRole('navigation', { name: 'Hallinnan valikko' });
      expect(await nav.getByRole('link').allTextContents()).not.toContain('Lomakeviestit');
      expect(await editor.evaluate(() => fetch('/api/admin/inbox').then((r) => r.status))).toBe(
        403,
      );
      await editor.goto(`http://127.0.0.1:${port}/admin/inbox`);
      await editor.getByText('Sinulla ei ole oikeutta tähän.').waitFor();
      await other.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 150_000);
});
