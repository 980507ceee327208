import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
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
 * Search synonyms in the back office (decision 164), on a server of its own with the demo shop: a
 * publisher finds Synonyymit in the menu, sees the seeded food vocabulary, adds a set by keyboard
 * (the dialog refuses a two-way set of one word), and the shop's search answers with it at once;
 * then removes it after a confirmation. axe finds nothing serious on the list and the dialogs;
 * screenshots at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-synonyms');
const PASSWORD = 'julkaisijan pitkä salasana';

/** The titles the shop's quick search answers for `q`. */
function suggestions(page: Page, q: string): Promise<string[]> {
  return page.evaluate(async (q) => {
    // The answers may be kept a minute (`max-age=60`): the server's own answer is what counts.
    const res = await fetch(`/api/search/suggestions/?q=${encodeURIComponent(q)}&language=fi`, {
      cache: 'no-store',
    });
    return ((await res.json()).hits as { title: string }[]).map((h) => h.title);
  }, q);
}

describe('search synonyms in the back office', () => {
  it('a publisher adds a set by keyboard and the search uses it; removes it again', async () => {
    const { port, dataDir, env } = await seededShopEnv('kattaus-e2e-synonyms-');
    const link = createStaffMember(env, {
      email: 'julia.julkaisija@kattaus.example',
      name: 'Julia Julkaisija',
      role: 'publisher',
    });
    const { child } = await startServerProcess(inject('serverBuild'), env);
    const origin = `http://lihakauppa.localhost:${port}`;
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: 'fi-FI',
      });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const shop = await context.newPage();
      await shop.goto(`${origin}/`);
      expect(await suggestions(shop, 'kotletti')).toEqual([]);
      await enrolFromLink(page, link, 'Julia Julkaisija', PASSWORD);
      await press(page, 'link', 'Synonyymit');
      await page.getByRole('heading', { level: 1, name: 'Haun synonyymit' }).waitFor();
      const seeded = page.getByRole('listitem').filter({ hasText: 'kana, broileri' });
      await seeded.waitFor();
      await axe(page, 'list');
      await shot(page, 'list-1280', true);

      // A two-way set of one word is refused in the dialog, which stays open.
      await press(page, 'button', 'Lisää synonyymit');
      const dialog = page.getByRole('dialog', { name: 'Uudet synonyymit: suomi' });
      await dialog.waitFor();
      const terms = dialog.getByRole('textbox', { name: 'Sanat' });
      await expect.poll(() => isFocused(terms)).toBe(true);
      await page.keyboard.type('kotletti');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog.getByText('Täytä tämä kenttä.').first().waitFor();
      await axe(page, 'add dialog with its error');
      await shot(page, 'add-dialog-error-1280');
      await tabTo(page, terms);
      await page.keyboard.press('End');
      await page.keyboard.type(', kyljys');
      await press(page, 'button', 'Tallenna', dialog);
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('Synonyymit lisätty: kotletti, kyljys.').waitFor();
      const added = page.getByRole('listitem').filter({ hasText: 'kotletti, kyljys' });
      await added.waitFor();

      // The shop's search, on the same server, answers with the new set.
      expect(
        (await suggestions(shop, 'kotletti')).some((t) => t.startsWith('Porsaan kyljys')),
      ).toBe(true);

      // Removed after a confirmation.
      await press(page, 'button', 'Poista synonyymit kotletti, kyljys');
      const confirm = page.getByRole('dialog', { name: 'Poistetaanko synonyymit?' });
      await confirm.waitFor();
      await axe(page, 'remove dialog');
      await press(page, 'button', 'Poista', confirm);
      await page.getByText('Synonyymit poistettu: kotletti, kyljys.').waitFor();
      await expect.poll(() => added.count()).toBe(0);
      expect(await suggestions(shop, 'kotletti')).toEqual([]);

      // On a phone.
      await page.setViewportSize({ width: 375, height: 800 });
      await axe(page, 'list at 375');
      await shot(page, 'list-375');
      await context.close();
    } finally {
      await stopServerProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
