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
 * Pages in the back office (decision 166), on a server of its own with jyväbroileri's demo
 * content: a publisher of jyväbroileri in Finnish opens a seeded page from the page tree by
 * keyboard, adds a rich-text block with bold text and a link, moves it to the top by keyboard
 * only (its place read out), saves, previews and publishes it; the site shows the blocks in the
 * new order, and the HTML TipTap wrote passes the sanitiser unchanged. Two editors then save the
 * same page from two browsers: the second is shown the stale dialog with their typed edits kept,
 * applies them on the newest version and saves, and both edits are there. axe finds nothing
 * serious on the tree, the editor, the rich-text editor, the link dialog and the block list at
 * 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-pages');
const { press, typeInto } = byKeyboard(250);
const PASSWORD = 'julkaisijan pitkä salasana 7';

type TreeRow = { id: number; parentId: number | null; title: string; type: string; path: string };
type Opened = {
  head: { version: number; document: { title: string; blocks: { type: string; html?: string }[] } };
};

/** The words of a piece of HTML, for finding it on a page. */
const words = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('pages in the back office', () => {
  it('a publisher adds a rich-text block, moves it by keyboard, publishes it, and two editors lose nothing', async () => {
    const server = await startContentServer('pages', [
      {
        email: 'eeva.sivut@kattaus.example',
        name: 'Eeva Editori',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
      {
        email: 'pekka.sivut@kattaus.example',
        name: 'Pekka Julkaisija',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
    ]);
    const [link, colleagueLink] = server.links;
    const { admin } = server;
    const site = server.origin('jyvabroiler');
    try {
      const { context, page } = await enrolled(browser, link, 'Eeva Editori', PASSWORD);

      // A seeded content page near the top of the tree whose first block is text.
      const tree = await adminJson<{ pages: TreeRow[] }>(page, '/api/admin/content/pages/tree');
      const byId = new Map(tree.pages.map((p) => [p.id, p]));
      const shallow = tree.pages.filter(
        (p) =>
          p.type === 'content' &&
          (p.parentId === null || byId.get(p.parentId)?.parentId === null) &&
          tree.pages.filter((q) => q.title === p.title).length === 1,
      );
      let chosen: { row: TreeRow; opened: Opened } | undefined;
      for (const row of shallow) {
        const opened = await adminJson<Opened>(page, `/api/admin/content/pages/${row.id}`);
        if (opened.head.document.blocks[0]?.type === 'rich-text') {
          chosen = { row, opened };
          break;
        }
      }
      if (!chosen) throw new Error('no seeded content page with text');
      const { row } = chosen;
      const firstBlockText = words(chosen.opened.head.document.blocks[0]?.html ?? '').slice(0, 40);
      const blockCount = chosen.opened.head.document.blocks.length;

      // To the page tree, and the page opened from it by keyboard: typed to, then Enter.
      await press(page, 'link', 'Sisältö');
      await page.getByRole('heading', { level: 1, name: 'Sivut' }).waitFor();
      const treegrid = page.getByRole('treegrid', { name: 'Sivupuu: jyvabroiler, fi' });
      await treegrid.getByRole('row').first().waitFor();
      await axe(page, 'page tree');
      await shot(page, 'tree-1280');
      await tabTo(page, treegrid.getByRole('row').first(), 60);
      await page.keyboard.type(row.title);
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
        .toContain(row.path);
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`/admin/content/pages/${row.id}$`));
      await page.getByRole('heading', { level: 1, name: row.title }).waitFor();

      // A text block with bold text and a link.
      await press(page, 'button', 'Lisää lohko');
      const n = blockCount + 1;
      const addedTitle = page.getByRole('heading', { level: 3, name: `${n}/${n}: Teksti` });
      await expect.poll(() => isFocused(addedTitle)).toBe(true);
      await page.getByText(`Lohko Teksti lisättiin kohtaan ${n}/${n}.`).waitFor();
      const textbox = page.getByRole('textbox', { name: 'Teksti', exact: true });
      await tabTo(page, textbox, 30);
      await page.keyboard.type('Uutuus: ');
      await page.keyboard.press('ControlOrMeta+b');
      await page.keyboard.type('kookosbroileri');
      await page.keyboard.press('ControlOrMeta+b');
      await page.keyboard.type(' on nyt kaupoissa. ');
      // The link button of the toolbar: Shift+Tab into the toolbar, arrows to the button.
      await page.keyboard.press('Shift+Tab');
      const linkButton = page.getByRole('button', { name: 'Linkki' });
      for (let i = 0; i < 10 && !(await isFocused(linkButton)); i++) {
        await page.keyboard.press('ArrowRight');
      }
      expect(await isFocused(linkButton)).toBe(true);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await typeInto(page, dialog.getByLabel('Linkin teksti'), 'Katso reseptit');
      await typeInto(page, dialog.getByLabel('Osoite'), '/reseptit');
      await axe(page, 'link dialog');
      await shot(page, 'link-dialog-1280');
      await press(page, 'button', 'Lisää linkki', dialog);
      await dialog.waitFor({ state: 'detached' });
      await axe(page, 'rich-text block');
      await shot(page, 'rich-text-1280');

      // Moved to the top by keyboard only: the focus stays on its button, its place is read out.
      const up = page.getByRole('button', { name: `Siirrä lohko ${n} ylös` });
      await tabTo(page, up, 250);
      for (let at = n; at > 1; at--) {
        await page.keyboard.press('Enter');
        await page.getByText(`Lohko Teksti on nyt kohdassa ${at - 1}/${n}.`).waitFor();
        await expect
          .poll(() => isFocused(page.getByRole('button', { name: `Siirrä lohko ${at - 1} ylös` })))
          .toBe(true);
      }
      await page.getByRole('heading', { level: 3, name: /^1\/\d+: Teksti: Uutuus/ }).waitFor();
      await axe(page, 'block list reordered');
      await shot(page, 'blocks-1280', true);

      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 2.', { exact: false }).waitFor();
      // What TipTap wrote is what the sanitiser keeps, unchanged.
      const saved = await adminJson<Opened>(page, `/api/admin/content/pages/${row.id}`);
      const html = saved.head.document.blocks[0]?.html ?? '';
      // (Where a typed space lands, and whether it is a no-break space, is the browser's.)
      expect(html).toMatch(
        /^<p>Uutuus:\s?<strong>\s?kookosbroileri<\/strong>\son\snyt\skaupoissa\.\s<a href="\/reseptit">Katso reseptit<\/a><\/p>$/,
      );
      expect(sanitizeRichText(html)).toBe(html);
      // A draft: the site as it was.
      const lookout = await context.newPage();
      await lookout.goto(`${site}${row.path}`);
      expect(await lookout.content()).not.toContain('kookosbroileri');
      await lookout.close();

      // Preview, then publish: the site shows the new block first.
      await press(page, 'button', 'Esikatsele');
      const previewLink = page.getByRole('link', { name: /^Avaa esikatselu \(versio 2/ });
      await expect.poll(() => isFocused(previewLink)).toBe(true);
      const preview = await context.newPage();
      const previewed = await preview.goto((await previewLink.getAttribute('href')) ?? '');
      expect(previewed?.headers()['cache-control']).toBe('no-store');
      await preview.getByRole('complementary', { name: 'Esikatselu' }).waitFor();
      const previewText = (await preview.locator('main').textContent()) ?? '';
      expect(previewText.indexOf('kookosbroileri')).toBeGreaterThan(-1);
      await preview.close();
      await press(page, 'button', 'Julkaise');
      await page.getByText('Versio 2 on julkaistu sivustolle.').waitFor();
      const visitor = await context.newPage();
      await visitor.goto(`${site}${row.path}`);
      const shown = await visitor.content();
      expect(shown).toMatch(/<strong>\s?kookosbroileri<\/strong>/);
      expect(shown).toContain('<a href="/reseptit">Katso reseptit</a>');
      const mainText = (await visitor.locator('main').textContent()) ?? '';
      expect(mainText.indexOf('kookosbroileri')).toBeGreaterThan(-1);
      expect(mainText.indexOf('kookosbroileri')).toBeLessThan(mainText.indexOf(firstBlockText));
      await shot(visitor, 'published-1280');
      await visitor.close();

      // Two editors at once: Eeva saves first, Pekka's save is refused with what she changed;
      // his typed edit is still in his form, made again on hers, and saved: nothing is lost.
      const { context: second, page: pekka } = await enrolled(
        browser,
        colleagueLink,
        'Pekka Julkaisija',
        PASSWORD,
      );
      await pekka.goto(`${admin}/content/pages/${row.id}`);
      await pekka.getByRole('heading', { level: 1, name: row.title }).waitFor();
      await pekka.getByText(/Tämän sivun on avannut myös: Eeva Editori/).waitFor();
      const newTitle = `${row.title} ja uutuudet`;
      await typeInto(page, page.getByLabel('Otsikko', { exact: true }), newTitle);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 3.', { exact: false }).waitFor();
      const teaser = 'Pekan kirjoittama ingressi.';
      await typeInto(pekka, pekka.getByLabel('Ingressi'), teaser);
      await press(pekka, 'button', 'Tallenna luonnos');
      const conflict = pekka.getByRole('heading', {
        level: 2,
        name: 'Joku tallensi uudemman version sillä välin',
      });
      await conflict.waitFor();
      await expect.poll(() => isFocused(conflict)).toBe(true);
      await pekka.getByText(/Eeva Editori tallensi version 3/).waitFor();
      const theirs = pekka.getByRole('table', { name: 'Erot: versio 2 → versio 3' });
      expect(await theirs.getByRole('row', { name: /Otsikko/ }).textContent()).toContain(newTitle);
      // His typing is still in the form while he reads.
      expect(await pekka.getByLabel('Ingressi').inputValue()).toBe(teaser);
      await axe(pekka, 'stale save');
      await shot(pekka, 'conflict-1280');
      await press(pekka, 'button', 'Tee muutokseni uusimpaan versioon');
      await pekka
        .getByText('Muutoksesi ovat nyt uusimman version (3) päällä.', { exact: false })
        .waitFor();
      expect(await pekka.getByLabel('Otsikko', { exact: true }).inputValue()).toBe(newTitle);
      await press(pekka, 'button', 'Tallenna luonnos');
      await pekka.getByText('Luonnos tallennettu: versio 4.', { exact: false }).waitFor();
      const last = await adminJson<Opened & { head: { document: { teaser: string } } }>(
        pekka,
        `/api/admin/content/pages/${row.id}`,
      );
      expect(last.head.version).toBe(4);
      expect(last.head.document.title).toBe(newTitle);
      expect(last.head.document.teaser).toBe(teaser);
      expect(words(last.head.document.blocks[0]?.html ?? '')).toContain('kookosbroileri');
      await second.close();

      // At 375 px: the tree and the editor with a block open.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/content`);
      await page.getByRole('treegrid').getByRole('row').first().waitFor();
      await axe(page, 'tree at 375');
      await shot(page, 'tree-375');
      await page.goto(`${admin}/content/pages/${row.id}`);
      await page.getByRole('heading', { level: 1, name: newTitle }).waitFor();
      await press(page, 'button', 'Muokkaa lohkoa 1');
      await page.getByRole('textbox', { name: 'Teksti', exact: true }).waitFor();
      await axe(page, 'editor at 375');
      await shot(page, 'editor-375', true);
      await context.close();
    } finally {
      await server.stop();
    }
  }, 300_000);
});
