import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  pressByTab,
  screenshots,
  tabTo,
} from './browser.ts';
import { enrolled, startContentServer } from './content-support.ts';

/**
 * Bulk actions and scheduling in the back office (decision 167), on a server of its own with
 * jyväbroileri's demo content: a publisher of jyväbroileri in Finnish selects three recipes of
 * the list with the arrow keys and Space, sees the count, takes exactly those three off the site
 * (the dialog names "3") and puts them back ("Julkaise 3 reseptiä?"); every other recipe stays as
 * it was, on the list and on the site. In a recipe's editor she schedules taking it off and
 * cancels that; on 'Tiedotteet' she makes a release, which is a draft nowhere on the site. axe
 * finds nothing serious at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-bulk');
const PASSWORD = 'julkaisijan pitkä salasana 8';

/** The list's rows: each recipe's name (its row header) and state, in order. */
async function rowsOf(page: Page) {
  const rows = page.getByRole('grid', { name: 'Reseptit' }).getByRole('row');
  const out: { title: string; path: string; state: string }[] = [];
  const count = await rows.count();
  for (let i = 1; i < count; i++) {
    const row = rows.nth(i);
    const cells = row.getByRole('gridcell');
    const header = row.getByRole('rowheader');
    out.push({
      title: (await header.getByRole('link').textContent()) ?? '',
      path: (await header.locator('span span').last().textContent()) ?? '',
      state: (await cells.nth(3).textContent()) ?? '',
    });
  }
  return out;
}

describe('bulk actions and schedules in the back office', () => {
  it('a publisher takes exactly three selected recipes off the site and back, by keyboard', async () => {
    const server = await startContentServer('bulk', [
      {
        email: 'jenni.julkaisija@kattaus.example',
        name: 'Jenni Julkaisija',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
    ]);
    const [link] = server.links;
    const { admin } = server;
    const site = server.origin('jyvabroiler');
    try {
      const { context, page } = await enrolled(browser, link, 'Jenni Julkaisija', PASSWORD);
      await page.goto(`${admin}/content/recipes`);
      await page.getByRole('heading', { level: 1, name: 'Reseptit' }).waitFor();
      const grid = page.getByRole('grid', { name: 'Reseptit' });
      await grid.getByRole('row').nth(5).waitFor();
      const before = await rowsOf(page);
      expect(before.length).toBeGreaterThan(5);
      expect(before.slice(0, 5).every((r) => r.state === 'Julkaistu')).toBe(true);
      await axe(page, 'list with selection');

      // Three rows by keyboard: Tab into the grid, Space, Down, Space, Down, Down, Space.
      const firstRow = grid.getByRole('row').nth(1);
      await tabTo(page, firstRow, 60);
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Space');
      await page.getByText('Valittuna 3').waitFor();
      const chosen = [before[0], before[1], before[3]].map((r) => r?.title ?? '');
      const selectedRows = grid.locator('[role="row"][aria-selected="true"]');
      await expect.poll(() => selectedRows.count()).toBe(3);
      await shot(page, 'selected-1280');

      await pressByTab(page, 'button', 'Poista valitut julkaisusta (3)');
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('heading', { name: 'Poista 3 reseptiä julkaisusta?' }).waitFor();
      for (const title of chosen) await dialog.getByText(title, { exact: true }).waitFor();
      await axe(page, 'bulk unpublish dialog');
      await shot(page, 'confirm-unpublish-1280');
      await pressByTab(page, 'button', 'Poista julkaisusta (3)', dialog);
      await page.getByText('Poistettu julkaisusta: 3.').waitFor();

      // Exactly those three are drafts now, off the site; the others are as they were.
      await expect
        .poll(async () =>
          (await rowsOf(page))
            .filter((r) => r.state === 'Luonnos, ei julkaistu')
            .map((r) => r.title)
            .sort(),
        )
        .toEqual([...chosen].sort());
      const after = await rowsOf(page);
      for (const row of before) {
        const now = after.find((r) => r.title === row.title);
        expect(now?.state, row.title).toBe(
          chosen.includes(row.title) ? 'Luonnos, ei julkaistu' : row.state,
        );
      }
      for (const row of before.slice(0, 5)) {
        const res = await page.goto(`${site}${row.path}`);
        expect(res?.status(), row.path).toBe(chosen.includes(row.title) ? 404 : 200);
      }

      // And back: the three drafts (now first on the list) selected and published.
      await page.goto(`${admin}/content/recipes`);
      await grid.getByRole('row').nth(5).waitFor();
      const drafts = await rowsOf(page);
      expect(
        drafts
          .slice(0, 3)
          .map((r) => r.title)
          .sort(),
      ).toEqual([...chosen].sort());
      await tabTo(page, grid.getByRole('row').nth(1), 60);
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Space');
      await page.getByText('Valittuna 3').waitFor();
      await pressByTab(page, 'button', 'Julkaise valitut (3)');
      await dialog.getByRole('heading', { name: 'Julkaise 3 reseptiä?' }).waitFor();
      await shot(page, 'confirm-publish-1280');
      await pressByTab(page, 'button', 'Julkaise (3)', dialog);
      await page.getByText('Julkaistu: 3.').waitFor();
      await expect
        .poll(async () => (await rowsOf(page)).filter((r) => r.state !== 'Julkaistu').length)
        .toBe(0);
      for (const row of before.slice(0, 5)) {
        const res = await page.goto(`${site}${row.path}`);
        expect(res?.status(), row.path).toBe(200);
      }

      // A schedule in the editor: take the first recipe off in an hour, then cancel that.
      await page.goto(`${admin}/content/recipes`);
      await grid.getByRole('row').nth(1).waitFor();
      const first = (await rowsOf(page))[0];
      // In the grid the arrow keys reach a row's link; Enter follows it.
      await tabTo(page, grid.getByRole('row').nth(1), 60);
      const opener = grid.getByRole('link', { name: first?.title ?? '', exact: true });
      for (let i = 0; i < 4 && !(await isFocused(opener)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      expect(await isFocused(opener)).toBe(true);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Ajastus ja julkaisun poisto' }).waitFor();
      const form = page.getByRole('form', { name: 'Ajasta julkaisu tai sen poisto' });
      await pressByTab(page, 'button', 'Ajasta', form);
      await page.getByText(/^Ajastettu: Julkaisun poisto/).waitFor();
      const waiting = page.getByRole('list', { name: 'Odottavat ajastukset' });
      await waiting.getByText(/Julkaisun poisto .* ajastanut Jenni Julkaisija/).waitFor();
      await axe(page, 'editor with a schedule');
      await shot(page, 'schedule-1280');
      await pressByTab(page, 'button', /^Peru ajastus: Julkaisun poisto/, waiting);
      await page.getByText('Ajastus peruttu.').waitFor();
      await page.getByText('Ei odottavia ajastuksia.').waitFor();

      // A new release on 'Tiedotteet': a draft, nowhere on the site.
      await page.goto(`${admin}/news`);
      await page.getByRole('heading', { level: 1, name: 'Tiedotteet' }).waitFor();
      await pressByTab(page, 'button', 'Uusi tiedote');
      await dialog.getByRole('heading', { name: 'Uusi tiedote' }).waitFor();
      await axe(page, 'new release dialog');
      await tabTo(page, dialog.getByRole('textbox', { name: 'Otsikko' }), 20);
      await page.keyboard.type('Uusi hautomo avattiin');
      await tabTo(page, dialog.getByRole('textbox', { name: 'Osoite' }), 5);
      await page.keyboard.type('/uutiset/uusi-hautomo');
      await tabTo(page, dialog.getByRole('textbox', { name: 'Teksti' }), 5);
      await page.keyboard.type('Hautomo aloitti.');
      await pressByTab(page, 'button', 'Tallenna luonnos', dialog);
      await page.getByText('Luonnos tallennettu: Uusi hautomo avattiin.').waitFor();
      await page.getByText('Ei sivustolla').first().waitFor();
      await shot(page, 'news-1280');
      expect((await page.goto(`${site}/uutiset/uusi-hautomo`))?.status()).toBe(404);

      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/content/recipes`);
      await grid.getByRole('row').nth(3).waitFor();
      await tabTo(page, grid.getByRole('row').nth(1), 60);
      await page.keyboard.press('Space');
      await page.getByText('Valittuna 1').waitFor();
      await axe(page, 'list at 375');
      await shot(page, 'list-375');
      await pressByTab(page, 'button', 'Julkaise valitut (1)');
      await dialog.getByRole('heading', { name: 'Julkaise 1 resepti?' }).waitFor();
      await axe(page, 'dialog at 375');
      await shot(page, 'confirm-375');
      await page.keyboard.press('Escape');
      await page.goto(`${admin}/news`);
      await page.getByText('Ei sivustolla').first().waitFor();
      await axe(page, 'news at 375');
      await shot(page, 'news-375');
      await context.close();
    } finally {
      await server.stop();
    }
  }, 300_000);
});
