import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
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
  tabTo,
} from './browser.ts';

/**
 * The marketing lists in the back office (decision 158), on a server of its own: people subscribe
 * to the shop's newsletter through the public API (two confirm from their mailed links) and take
 * part in the master-chef brand's campaign; a member of staff with the grant for those two sites
 * finds the shop's newsletter subscribers with their consent, exports them (after giving the
 * password again) and takes one off the list by keyboard; opens the campaign and draws its
 * winners. A Swedish site's subscriber is never shown. An editor without the grant has no menu
 * entry and gets 403 from the API. axe at 1280 and 375 px, screenshots of each screen.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-subscribers');
const PASSWORD = 'markkinoinnin pitkä salasana';

/**
 * A server's environment on a fresh data folder seeded with the shop, the corporate site (its news
 * releases and their categories) and the master-chef brand (its campaign), as `npm start` seeds;
 * the re-authentication window is 3 s so that the export asks for the password again.
 */
async function seededEnv(): Promise<{ port: number; dataDir: string; env: NodeJS.ProcessEnv }> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kattaus-e2e-subscribers-'));
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
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'seed/cli.ts',
      '--images-per-kind',
      '1',
      '--sites',
      'lihakauppa,konsernifi,mestariforsmanfi',
    ],
    { env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return { port, dataDir, env };
}

/** Posts to a public subscription endpoint of `host` as its widget does. */
async function publicPost(port: number, site: string, target: string, body: unknown) {
  const jar = new Map<string, string>();
  // With the port, as a browser names the host: the mailed links are made from it.
  const host = `${site}:${port}`;
  await requestWithJar(port, host, jar, 'GET', '/');
  const res = await requestWithJar(port, host, jar, 'POST', target, body);
  expect(res.status, res.text).toBe(200);
}

async function choose(page: Page, select: string, option: string) {
  await page.getByRole('button', { name: new RegExp(`^${select}`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Presses Enter on `name`'s button (within `scope`), reached by Tab. */
async function press(page: Page, name: string, scope: Page | Locator = page) {
  const target = scope.getByRole('button', { name, exact: true });
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

/** Opens the confirmation link mailed to `address` and confirms, as its owner does. */
async function confirmFromMail(page: Page, port: number, address: string) {
  await page.goto(`http://127.0.0.1:${port}/dev/outbox`);
  const mail = page.locator('article').filter({ hasText: address }).first();
  const link = /https?:\/\/\S+\/tilaus\/vahvista\?token=[\w-]+/.exec(
    (await mail.textContent()) ?? '',
  )?.[0];
  if (!link) throw new Error(`no confirmation link for ${address}`);
  await page.goto(link);
  await page.getByRole('button', { name: 'Vahvista tilaus' }).click();
  await page.getByText('Tilauksesi on vahvistettu. Kiitos!').waitFor();
}

describe('subscribers and campaigns in the back office', () => {
  it('lists, exports and unsubscribes the shop’s subscribers, draws a campaign’s winners; nothing for an editor', async () => {
    const { port, dataDir, env } = await seededEnv();
    const marketingLink = createStaffMember(env, {
      email: 'maria.markkinointi@kattaus.example',
      name: 'Maria Markkinointi',
      role: 'admin',
      sites: ['lihakauppa', 'mestariforsmanfi', 'konsernifi'],
    });
    const editorLink = createStaffMember(env, {
      email: 'eino.editori@kattaus.example',
      name: 'Eino Editori',
      role: 'editor',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    try {
      const shop = 'lihakauppa.localhost';
      for (const email of [
        'aino.ahola@example.fi',
        'bertta.berg@example.fi',
        'cecilia@example.fi',
      ]) {
        await publicPost(port, shop, '/api/newsletter/subscribe?language=fi', { email });
      }
      await publicPost(port, 'koncernse.localhost', '/api/cision-liana/subscribe?language=sv', {
        email: 'svensk@example.se',
        informationTypes: ['PRM'],
        subscribeToUutiskirje: false,
        recaptchaToken: '',
      });
      await publicPost(port, 'konsernifi.localhost', '/api/cision-liana/subscribe?language=fi', {
        email: 'sijoittaja@example.fi',
        informationTypes: ['PRM', 'RDV'],
        subscribeToUutiskirje: false,
        recaptchaToken: '',
      });
      // Ten posts a minute from one address at most: four participants make ten.
      for (let i = 1; i <= 4; i++) {
        await publicPost(
          port,
          'mestariforsmanfi.localhost',
          '/api/campaign/participate?language=fi',
          {
            join: 'cincinvino-2026',
            email: `osallistuja${i}@example.fi`,
            isAdult: 'true',
            acceptRules: 'true',
            subscribeToCinCinVinoNewsletter: 'false',
          },
        );
      }

      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
        acceptDownloads: true,
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      await confirmFromMail(page, port, 'aino.ahola@example.fi');
      await confirmFromMail(page, port, 'cecilia@example.fi');
      await confirmFromMail(page, port, 'sijoittaja@example.fi');

      await enrolFromLink(page, marketingLink, 'Maria Markkinointi', PASSWORD);
      await page.getByRole('link', { name: 'Markkinointi' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tilaajat' }).waitFor();
      await choose(page, 'Kaikki listat', 'lihakauppa · Uutiskirje (2 vahvistettua)');
      await page.getByRole('button', { name: 'Näytä' }).click();
      const table = page.getByRole('table', { name: 'Tilaajat ja heidän suostumuksensa' });
      await page.getByRole('status').filter({ hasText: 'Tilaajia: 3' }).waitFor();
      expect(await table.getByRole('row').count()).toBe(4);
      const text = (await table.textContent()) ?? '';
      expect(text).toContain('Tilaan uutiskirjeen sähköpostiini.');
      expect(text).toContain('Odottaa vahvistusta');
      expect(text).not.toContain('svensk@example.se');
      await axe(page, 'subscribers');
      await shot(page, 'subscribers-1280', true);

      // The list as CSV, after the password again (the window is 3 s).
      await new Promise((r) => setTimeout(r, 3_500));
      const downloaded = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Vie CSV-tiedostoon' }).click();
      const reauth = page.getByRole('dialog', { name: 'Vahvista henkilöllisyytesi' });
      await reauth.waitFor();
      await axe(page, 're-authentication over the subscribers');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      const file = await downloaded;
      expect(file.suggestedFilename()).toBe('tilaajat.csv');
      const bytes = await readFile((await file.path()) ?? '');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const records = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<
        string,
        string
      >[];
      expect(records.map((r) => r.email).sort()).toEqual([
        'aino.ahola@example.fi',
        'bertta.berg@example.fi',
        'cecilia@example.fi',
      ]);
      expect(records.every((r) => r.site === 'lihakauppa' && r.list === 'newsletter')).toBe(true);
      await page.getByText('Tiedosto on ladattu.').waitFor();

      // Cecilia called: she is taken off the list, by keyboard.
      await press(page, 'Peru tilaus: cecilia@example.fi, lihakauppa · Uutiskirje');
      const dialog = page.getByRole('dialog', {
        name: 'Peru osoitteen cecilia@example.fi tilaus?',
      });
      await dialog.waitFor();
      await axe(page, 'unsubscribe dialog');
      await shot(page, 'unsubscribe-1280');
      await press(page, 'Peru tilaus', dialog);
      await page.getByText('Tilaus peruttu: cecilia@example.fi.').waitFor();
      const cecilia = table.getByRole('row').filter({ hasText: 'cecilia@example.fi' });
      await cecilia.getByText('Peruttu', { exact: true }).waitFor();
      expect(await cecilia.getByRole('button').count()).toBe(0);
      await expect
        .poll(() => isFocused(page.locator('[data-subscriber]').filter({ hasText: 'cecilia@' })))
        .toBe(true);
      await axe(page, 'after unsubscribing');
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'subscribers at 375');
      await shot(page, 'subscribers-375', true);
      await page.setViewportSize({ width: 1280, height: 900 });

      // The campaign: its participants, and two winners drawn by keyboard.
      await page
        .getByRole('navigation', { name: 'Markkinoinnin valikko' })
        .getByRole('link', { name: 'Kampanjat' })
        .click();
      await page.getByRole('heading', { level: 1, name: 'Kampanjat' }).waitFor();
      await axe(page, 'campaigns');
      await page.getByRole('link', { name: 'Avaa kampanja CinCinVino 2026' }).click();
      await page.getByRole('heading', { level: 2, name: 'Osallistujat (4)' }).waitFor();
      const winners = page.getByRole('textbox', { name: 'Voittajien määrä' });
      await tabTo(page, winners);
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await page.getByText('Arvonta tehty: 2 voittajaa.').waitFor();
      const draw = page.getByRole('listitem').filter({ hasText: 'Siemen' });
      await draw.waitFor();
      expect(await draw.getByRole('listitem').count()).toBe(2);
      expect((await draw.textContent()) ?? '').toMatch(/[0-9a-f]{64}/);
      await axe(page, 'campaign with a draw');
      await shot(page, 'campaign-1280', true);
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'campaign at 375');
      await shot(page, 'campaign-375', true);
      await page.setViewportSize({ width: 1280, height: 900 });

      // The latest news release (the English one) published now to its first two categories, by
      // keyboard: the Finnish subscriber of both gets it once, in Finnish, through the outbox.
      await page.getByRole('link', { name: 'Tiedotteet' }).click();
      await page.getByRole('heading', { level: 1, name: 'Tiedotteet' }).waitFor();
      await axe(page, 'news releases');
      const publish = page.getByRole('button', { name: /^Julkaise: / }).first();
      const title = ((await publish.getAttribute('aria-label')) ?? '').replace('Julkaise: ', '');
      await tabTo(page, publish);
      await page.keyboard.press('Enter');
      const publishing = page.getByRole('dialog', { name: `Julkaise tiedote ${title}` });
      await publishing.waitFor();
      for (const n of [0, 1]) {
        await tabTo(page, publishing.getByRole('checkbox').nth(n), 10);
        await page.keyboard.press('Space');
      }
      await axe(page, 'publish dialog');
      await shot(page, 'publish-1280');
      await press(page, 'Julkaise', publishing);
      await page.getByText(`Tiedote julkaistu: ${title}.`).waitFor();
      await shot(page, 'news-1280', true);
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'news releases at 375');
      await shot(page, 'news-375', true);
      const outbox = await context.newPage();
      const releaseMails = async () => {
        await outbox.goto(`http://127.0.0.1:${port}/dev/outbox`);
        return outbox
          .locator('article')
          .filter({ hasText: 'sijoittaja@example.fi' })
          .filter({ hasText: 'Lue tiedote:' });
      };
      // The mailing job looks every 15 s.
      await expect
        .poll(async () => (await releaseMails()).count(), { timeout: 40_000, interval: 2_000 })
        .toBe(1);
      const mail = (await (await releaseMails()).textContent()) ?? '';
      expect(mail).toContain(
        'Saat tämän viestin, koska tilasit tiedotteet: Lehdistötiedotteet, Pörssitiedotteet.',
      );
      expect(mail).toContain(`Lue tiedote: http://konsernifi.localhost:${port}/`);
      expect(mail).toMatch(/Peru tilaus: http:\/\/konsernifi\.localhost:\d+\/tilaus\/peruuta\?s=/);
      // A later run of the job mails no one again.
      await new Promise((r) => setTimeout(r, 16_000));
      expect(await (await releaseMails()).count()).toBe(1);
      await context.close();

      // An editor: no marketing in the menu, the API refuses, the page says so.
      const other = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      const editor = await other.newPage();
      await enrolFromLink(editor, editorLink, 'Eino Editori', PASSWORD);
      const nav = editor.getByRole('navigation', { name: 'Hallinnan valikko' });
      const entries = await nav.getByRole('link').allTextContents();
      expect(entries).not.toContain('Markkinointi');
      expect(entries).not.toContain('Tiedotteet');
      for (const url of [
        '/api/admin/subscribers',
        '/api/admin/subscribers/lists',
        '/api/admin/campaigns',
      ]) {
        expect(await editor.evaluate((u) => fetch(u).then((r) => r.status), url)).toBe(403);
      }
      await editor.goto(`http://127.0.0.1:${port}/admin/subscribers`);
      await editor.getByText('Sinulla ei ole oikeutta tähän.').waitFor();
      await other.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
