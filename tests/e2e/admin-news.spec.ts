import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sanitizeRichText } from '../../src/render/rich-text.server.tsx';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  screenshots,
  tabTo,
} from './browser.ts';
import { adminJson, byKeyboard, enrolled, startContentServer } from './content-support.ts';

/**
 * A news release in the content editor (decision 172), on a server of its own with jyväbroileri's
 * demo content: a publisher of jyväbroileri in Finnish opens a release from 'Tiedotteet' by
 * keyboard, writes its text with bold words in the rich-text field, saves (what TipTap wrote
 * passes the sanitiser unchanged), previews the draft on the site's renderer, schedules its
 * publishing, cancels that, and publishes it now; the release's page on the site shows the new
 * text. axe finds nothing serious on the list and the editor at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-news');
const { press } = byKeyboard(250);
const PASSWORD = 'tiedottajan pitkä salasana 9';

type NewsRow = { id: number; title: string; path: string; state: string };
type Opened = { head: { version: number; document: { title: string; bodyHtml: string } } };

describe('news releases in the back office', () => {
  it('a publisher writes a release’s text with bold words, previews, schedules, cancels and publishes it', async () => {
    const server = await startContentServer('news', [
      {
        email: 'tiina.tiedottaja@kattaus.example',
        name: 'Tiina Tiedottaja',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
    ]);
    const [link] = server.links;
    const { admin } = server;
    const site = server.origin('jyvabroiler');
    try {
      const { context, page } = await enrolled(browser, link, 'Tiina Tiedottaja', PASSWORD);

      // The latest release on the site, opened from the list by keyboard.
      const list = await adminJson<{ releases: NewsRow[] }>(page, '/api/admin/content/news');
      const release = list.releases.find(
        (r) =>
          r.state === 'published' && list.releases.filter((q) => q.title === r.title).length === 1,
      );
      if (!release) throw new Error('no seeded release');
      await press(page, 'link', 'Tiedotteet');
      await page.getByRole('heading', { level: 1, name: 'Tiedotteet' }).waitFor();
      await page.getByRole('link', { name: release.title, exact: true }).waitFor();
      await axe(page, 'news list');
      await shot(page, 'list-1280');
      await press(page, 'link', release.title);
      await page.waitForURL(new RegExp(`/admin/content/news/${release.id}$`));
      await page.getByRole('heading', { level: 1, name: release.title }).waitFor();

      // The text rewritten in the rich-text field, with bold words.
      const textbox = page.getByRole('textbox', { name: 'Teksti', exact: true });
      await tabTo(page, textbox, 60);
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('Tehdas laajenee: ');
      await page.keyboard.press('ControlOrMeta+b');
      await page.keyboard.type('kolmas linja');
      await page.keyboard.press('ControlOrMeta+b');
      await page.keyboard.type(' valmistuu keväällä.');
      await axe(page, 'news editor');
      await shot(page, 'editor-1280', true);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 2.', { exact: false }).waitFor();
      const saved = await adminJson<Opened>(page, `/api/admin/content/news-releases/${release.id}`);
      const html = saved.head.document.bodyHtml;
      expect(html).toMatch(
        /^<p>Tehdas laajenee:\s?<strong>\s?kolmas linja<\/strong>\svalmistuu keväällä\.<\/p>$/,
      );
      expect(sanitizeRichText(html)).toBe(html);
      // A draft: the site as it was.
      const lookout = await context.newPage();
      await lookout.goto(`${site}${release.path}`);
      expect(await lookout.content()).not.toContain('kolmas linja');
      await lookout.close();

      // The preview shows the draft on the site's renderer, never cached.
      await press(page, 'button', 'Esikatsele');
      const previewLink = page.getByRole('link', { name: /^Avaa esikatselu \(versio 2/ });
      await expect.poll(() => isFocused(previewLink)).toBe(true);
      const preview = await context.newPage();
      const previewed = await preview.goto((await previewLink.getAttribute('href')) ?? '');
      expect(previewed?.status()).toBe(200);
      expect(previewed?.headers()['cache-control']).toBe('no-store');
      await preview.getByRole('complementary', { name: 'Esikatselu' }).waitFor();
      expect(await preview.content()).toMatch(/<strong>\s?kolmas linja<\/strong>/);
      await preview.close();

      // Publishing scheduled an hour ahead, then cancelled.
      await page.getByRole('heading', { level: 2, name: 'Ajastus ja julkaisun poisto' }).waitFor();
      const form = page.getByRole('form', { name: 'Ajasta julkaisu tai sen poisto' });
      const publishRadio = form.getByRole('radio', { name: 'Julkaisu', exact: true });
      await tabTo(page, form.getByRole('radio', { checked: true }), 250);
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => publishRadio.isChecked()).toBe(true);
      await press(page, 'button', 'Ajasta', form);
      await page.getByText(/^Ajastettu: Julkaisu /).waitFor();
      const waiting = page.getByRole('list', { name: 'Odottavat ajastukset' });
      await waiting.getByText(/Julkaisu .* ajastanut Tiina Tiedottaja/).waitFor();
      await axe(page, 'editor with a schedule');
      await shot(page, 'schedule-1280');
      await press(page, 'button', /^Peru ajastus: Julkaisu /, waiting);
      await page.getByText('Ajastus peruttu.').waitFor();
      await page.getByText('Ei odottavia ajastuksia.').waitFor();

      // Published now: the release's page shows the new text.
      await press(page, 'button', 'Julkaise');
      await page.getByText('Versio 2 on julkaistu sivustolle.').waitFor();
      const visitor = await context.newPage();
      await visitor.goto(`${site}${release.path}`);
      const shown = await visitor.content();
      expect(shown).toMatch(/<strong>\s?kolmas linja<\/strong>/);
      expect((await visitor.locator('main').textContent()) ?? '').toContain('valmistuu keväällä');
      await shot(visitor, 'published-1280');
      await visitor.close();

      // Unpublished now from the editor's schedule panel, behind its confirmation.
      await press(page, 'button', 'Poista julkaisusta');
      const confirmNow = page.getByRole('dialog', { name: 'Poistetaanko julkaisusta?' });
      await confirmNow.waitFor();
      await axe(page, 'unpublish now dialog');
      await press(page, 'button', 'Poista julkaisusta', confirmNow);
      await page.getByText('Poistettu julkaisusta.', { exact: true }).waitFor();
      const gone = await context.newPage();
      expect((await gone.goto(`${site}${release.path}`))?.status()).toBe(404);

      // Published again, then unpublished from the news list's row.
      await press(page, 'button', 'Julkaise');
      await page.getByText(/^Versio \d+ on julkaistu sivustolle\.$/).waitFor();
      await page.goto(`${admin}/news`);
      await press(page, 'button', `Poista julkaisusta: ${release.title}`);
      const confirmRow = page.getByRole('dialog', {
        name: `Poistetaanko ${release.title} julkaisusta?`,
      });
      await confirmRow.waitFor();
      await press(page, 'button', 'Poista julkaisusta', confirmRow);
      await page.getByText(`Poistettu julkaisusta: ${release.title}.`).waitFor();
      expect((await gone.goto(`${site}${release.path}`))?.status()).toBe(404);
      await gone.close();

      // At 375 px: the list and the editor.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/news`);
      await page.getByRole('link', { name: release.title, exact: true }).waitFor();
      await axe(page, 'news list at 375');
      await shot(page, 'list-375');
      await page.goto(`${admin}/content/news/${release.id}`);
      await page.getByRole('heading', { level: 1, name: release.title }).waitFor();
      await page.getByRole('textbox', { name: 'Teksti', exact: true }).waitFor();
      await axe(page, 'news editor at 375');
      await shot(page, 'editor-375', true);
      await context.close();
    } finally {
      await server.stop();
    }
  }, 300_000);
});
