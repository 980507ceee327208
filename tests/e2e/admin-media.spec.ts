import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { MediaImage, MediaList } from '../../src/features/content/admin.ts';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  screenshots,
  tabTo,
} from './browser.ts';
import { byKeyboard, enrolled, startContentServer } from './content-support.ts';

/**
 * The image library of issue 35 (decision 168), on a server of its own with jyväbroileri's and
 * Sibylla's demo content: an editor of both sites in every language finds a picture a recipe
 * uses by its alt text, gives it a Swedish alt text, moves its focus point by keyboard and saves
 * (the crop gets a new address), sees where it is used, is refused when deleting it, and gives it
 * a new file, which the recipe's page on the site then shows; she uploads a picture of her own,
 * used nowhere, and deletes it. axe finds nothing serious at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-media');
const { press, typeInto } = byKeyboard(200);
const PASSWORD = 'kuvien pitkä salasana 9';

/** An image of the library that a jyväbroileri recipe in Finnish uses, read from the API. */
async function usedImage(page: Page): Promise<MediaImage> {
  const list = await page.evaluate(async () => {
    const res = await fetch('/api/admin/content/media');
    return (await res.json()) as MediaList;
  });
  for (const row of list.images) {
    const image = await page.evaluate(async (id) => {
      const res = await fetch(`/api/admin/content/media/${id}`);
      return (await res.json()) as MediaImage;
    }, row.id);
    const recipe = image.uses.find(
      (u) => u.kind === 'recipe' && u.siteId === 'jyvabroiler' && u.lang === 'fi',
    );
    if (recipe && image.alt.fi) return image;
  }
  throw new Error('no image a jyväbroileri recipe uses');
}

describe('the image library in the back office', () => {
  it('an editor finds an image, gives it a Swedish alt text and a focus point by keyboard, is refused its delete and replaces its file', async () => {
    const server = await startContentServer('media', [
      {
        email: 'kaisa.kuvat@kattaus.example',
        name: 'Kaisa Kuvatoimittaja',
        role: 'editor',
        sites: ['jyvabroiler', 'sibylla'],
      },
    ]);
    const [link] = server.links;
    const { admin } = server;
    try {
      const { context, page } = await enrolled(browser, link, 'Kaisa Kuvatoimittaja', PASSWORD);
      const target = await usedImage(page);
      const word = (target.alt.fi ?? '').split(/\s+/)[0] ?? '';

      // To the library by the menus, and the image found by a word of its Finnish alt text.
      await press(page, 'link', 'Sisältö');
      await press(
        page,
        'link',
        'Kuvat',
        page.getByRole('navigation', { name: 'Sisällön valikko' }),
      );
      await page.getByRole('heading', { level: 1, name: 'Kuvat' }).waitFor();
      await axe(page, 'library');
      await shot(page, 'list-1280');
      await typeInto(page, page.getByLabel('Kuvaus', { exact: true }), word);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\?q=/);
      const card = page.locator(`a[href="/admin/content/media/${target.id}"]`);
      await card.waitFor();
      await tabTo(page, card, 80);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: `Kuva ${target.id}` }).waitFor();

      // Where it is used: the recipe among the places, linked to its editor.
      const uses = page.getByRole('table', { name: 'Missä kuvaa käytetään' });
      await uses.waitFor();
      const recipeUse = target.uses.find((u) => u.kind === 'recipe' && u.siteId === 'jyvabroiler');
      if (!recipeUse) throw new Error('no recipe use');
      await page.getByText(`Käytössä ${target.uses.length} paikassa.`).waitFor();
      // The first 25 until all are asked for (an image of every recipe is used in hundreds).
      const shownRows = Math.min(25, target.uses.length);
      expect(await uses.getByRole('row').count()).toBe(shownRows + 1);
      await axe(page, 'image opened');
      await shot(page, 'image-1280', true);

      // The Swedish alt text and the focus point, by keyboard.
      const swedish = 'Kyckling på tallrik';
      await typeInto(page, page.getByLabel('Kuvaus (alt-teksti), ruotsi'), swedish);
      const focus = page.getByRole('slider', { name: 'Rajauskohta' });
      await tabTo(page, focus, 20);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      // Three big steps left, two small ones up, from where the point was (kept to a percent).
      const step = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 100) / 100;
      const fx = step(step(step(target.focus.x - 0.1) - 0.1) - 0.1);
      const fy = step(step(target.focus.y - 0.01) - 0.01);
      const [x, y] = [Math.round(fx * 100), Math.round(fy * 100)];
      expect(await focus.getAttribute('aria-valuetext')).toBe(`${x} % vasemmalta, ${y} % ylhäältä`);
      const cropBefore = await page.locator('figure img').getAttribute('src');
      await press(page, 'button', 'Tallenna');
      await page.getByText('Tallennettu.').waitFor();
      await expect.poll(() => page.locator('figure img').getAttribute('src')).not.toBe(cropBefore);
      expect(await page.locator('figure img').getAttribute('src')).toContain('&v=2');
      const saved = await page.evaluate(async (id) => {
        const res = await fetch(`/api/admin/content/media/${id}`);
        return (await res.json()) as MediaImage;
      }, target.id);
      expect(saved.alt.sv).toBe(swedish);
      expect(saved.focus).toEqual({ x: fx, y: fy });
      await axe(page, 'saved');

      // Delete: refused while it is used, the places said.
      await press(page, 'button', 'Poista kuva');
      const confirm = page.getByRole('dialog');
      await confirm.waitFor();
      await axe(page, 'delete dialog');
      await press(page, 'button', 'Poista kuva', confirm);
      await page
        .getByText(`Kuvaa ei poistettu: sitä käytetään ${target.uses.length} paikassa`, {
          exact: false,
        })
        .waitFor();
      await shot(page, 'delete-refused-1280');

      // A new file: every place shows it at new addresses.
      const chooser = page.waitForEvent('filechooser');
      await press(page, 'button', 'Valitse tiedosto');
      await (await chooser).setFiles({
        name: 'uusi.png',
        mimeType: 'image/png',
        buffer: await sharp({
          create: { width: 1200, height: 800, channels: 3, background: '#2e86c1' },
        })
          .png()
          .toBuffer(),
      });
      await page.getByText('Valittu tiedosto: uusi.png').waitFor();
      await press(page, 'button', 'Vaihda tiedosto');
      const replaceDialog = page.getByRole('dialog');
      await replaceDialog.waitFor();
      await replaceDialog.getByText(`(${target.uses.length} paikkaa)`, { exact: false }).waitFor();
      await press(page, 'button', 'Vaihda tiedosto', replaceDialog);
      await page.getByText('Kuvatiedosto vaihdettu.').waitFor();
      await expect.poll(() => page.locator('figure img').getAttribute('src')).toContain('&v=3');
      await page.getByText('1200 × 800 px', { exact: false }).waitFor();
      await axe(page, 'replaced');
      await shot(page, 'replaced-1280', true);

      // Every place, each recipe linked to its editor.
      if (target.uses.length > 25) {
        await press(page, 'button', `Näytä kaikki ${target.uses.length} paikkaa`);
      }
      await uses.locator(`a[href="/admin/content/recipes/${recipeUse.id}"]`).first().waitFor();
      expect(await uses.getByRole('row').count()).toBe(target.uses.length + 1);

      const visitor = await context.newPage();
      await visitor.goto(`${server.origin('jyvabroiler')}${recipeUse.path}`);
      await visitor.locator('h1').first().waitFor();
      expect(await visitor.content()).toMatch(new RegExp(`/images/${target.id}/[^"]*&amp;v=3`));
      const crop = await visitor.request.get(
        `${server.base}/images/${target.id}/x.jpg?preset=card-square&v=3`,
      );
      const { data } = await sharp(await crop.body())
        .raw()
        .toBuffer({ resolveWithObject: true });
      // #2e86c1 (46, 134, 193), give or take what JPEG does to it.
      expect(Math.abs((data[0] ?? 0) - 46)).toBeLessThan(12);
      expect(Math.abs((data[2] ?? 0) - 193)).toBeLessThan(12);
      await visitor.close();

      // A new picture into the library, used nowhere: it opens, and it may be deleted.
      await page.goto(`${admin}/content/media`);
      await page.getByRole('heading', { level: 2, name: 'Lataa uusi kuva' }).waitFor();
      const uploadChooser = page.waitForEvent('filechooser');
      await press(page, 'button', 'Valitse tiedosto');
      await (await uploadChooser).setFiles({
        name: 'turha.png',
        mimeType: 'image/png',
        buffer: await sharp({
          create: { width: 800, height: 600, channels: 3, background: '#27ae60' },
        })
          .png()
          .toBuffer(),
      });
      await page.getByText('Valittu tiedosto: turha.png').waitFor();
      await typeInto(page, page.getByLabel('Kuvan kuvaus (alt-teksti)'), 'Vihreä testikuva');
      await axe(page, 'upload filled');
      await press(page, 'button', 'Lataa kuva');
      await page.waitForURL(/\/content\/media\/\d+$/);
      const uploadedId = /media\/(\d+)$/.exec(page.url())?.[1];
      await page.getByRole('heading', { level: 1, name: `Kuva ${uploadedId}` }).waitFor();
      await page.getByText('Kuvaa ei käytetä missään, ei luonnoksissakaan.').waitFor();
      await press(page, 'button', 'Poista kuva');
      const unusedDialog = page.getByRole('dialog');
      await unusedDialog.waitFor();
      await press(page, 'button', 'Poista kuva', unusedDialog);
      await page.getByText(`Kuva ${uploadedId} poistettiin.`).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/content/media');

      // At 375 px: the list and the image.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/content/media`);
      await page.getByRole('heading', { level: 1, name: 'Kuvat' }).waitFor();
      await axe(page, 'library at 375');
      await shot(page, 'list-375');
      await page.goto(`${admin}/content/media/${target.id}`);
      await page.getByRole('heading', { level: 1, name: `Kuva ${target.id}` }).waitFor();
      await axe(page, 'image at 375');
      await shot(page, 'image-375', true);
      await context.close();
    } finally {
      await server.stop();
    }
  }, 240_000);
});
