import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  isFocused,
  screenshots,
  tabTo,
} from './browser.ts';
import { byKeyboard, enrolled, startContentServer } from './content-support.ts';

/**
 * The first line of issue 35's done-when, as far as it is built (decision 162), on a server of
 * its own with jyväbroileri's and Sibylla's demo content: a new publisher of jyväbroileri in
 * Finnish only enrols, and by keyboard makes a recipe with an image and three ingredients (one
 * moved up by its button), saves it as a draft, previews it on the site (marked, no-store,
 * noindex), publishes it; within 5 s the recipe search of /reseptit and the site search find it,
 * and its page has the chosen image's crop and the recipe's JSON-LD. She changes its title, sees
 * the difference to the published version, and restores version 1 as a new draft. Sibylla's
 * recipes, in Finnish and in Swedish, are refused. axe finds nothing serious at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-recipes');
const { press, typeInto } = byKeyboard(200);
const PASSWORD = 'julkaisijan pitkä salasana 7';

/** A recipe of Sibylla in a language, found through the site's own search. */
async function sibyllaRecipe(page: Page, origin: string, q: string, language: string) {
  // Through the browser: only Chromium resolves the sites' `*.localhost` names.
  const res = await page.goto(
    `${origin}/api/search/content/?q=${encodeURIComponent(q)}&language=${language}&pageSize=50`,
  );
  if (!res) throw new Error('no answer from the search');
  const hits = ((await res.json()) as { hits: { contentId: string }[] }).hits;
  const id = hits.find((h) => h.contentId.startsWith('recipe-'))?.contentId.slice('recipe-'.length);
  if (!id) throw new Error(`no Sibylla recipe for ${q}`);
  return id;
}

describe('recipes in the back office', () => {
  it('a new publisher of jyväbroileri makes, previews, publishes, compares and restores a recipe by keyboard', async () => {
    const server = await startContentServer('recipes', [
      {
        email: 'eeva.editori@kattaus.example',
        name: 'Eeva Editori',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
      {
        email: 'pekka.julkaisija@kattaus.example',
        name: 'Pekka Julkaisija',
        role: 'publisher',
        sites: ['jyvabroiler'],
        langs: ['fi'],
      },
    ]);
    const [link, colleagueLink] = server.links;
    const { admin } = server;
    const site = server.origin('jyvabroiler');
    const sibylla = server.origin('sibylla');
    try {
      const { context, page } = await enrolled(browser, link, 'Eeva Editori', PASSWORD);

      // To the recipes, and a new one.
      await press(page, 'link', 'Sisältö');
      await press(
        page,
        'link',
        'Reseptit',
        page.getByRole('navigation', { name: 'Sisällön valikko' }),
      );
      await page.getByRole('heading', { level: 1, name: 'Reseptit' }).waitFor();
      await axe(page, 'recipes list');
      await shot(page, 'list-1280');
      await press(page, 'link', 'Uusi resepti');
      await page.getByRole('heading', { level: 1, name: 'Uusi resepti' }).waitFor();

      const title = 'Aamiaisbroileri kookoksella';
      await typeInto(page, page.getByLabel('Nimi', { exact: true }), title);
      await expect
        .poll(() => page.getByLabel('Osoite', { exact: true }).inputValue())
        .toBe('/reseptit/aamiaisbroileri-kookoksella');
      await typeInto(page, page.getByLabel('Ingressi'), 'Mehevä broileri kookoskastikkeessa.');

      // The image, from the library's dialog.
      await press(page, 'button', 'Valitse kuva');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await page.getByText('Korjaa lomakkeen virheet').count()).toBe(0);
      const firstImage = dialog.getByRole('radio').first();
      await tabTo(page, firstImage, 20);
      await page.keyboard.press('Space');
      await axe(page, 'image dialog');
      await shot(page, 'image-dialog-1280');
      await press(page, 'button', 'Valitse', dialog);
      await dialog.waitFor({ state: 'detached' });
      // Choosing in the dialog saved nothing and checked nothing of the recipe's form.
      expect(await page.getByText('Korjaa lomakkeen virheet').count()).toBe(0);
      const thumbnail = page.getByRole('img', { name: /^Valittu kuva/ });
      await thumbnail.waitFor();
      const imageId = /\/images\/(\d+)\//.exec((await thumbnail.getAttribute('src')) ?? '')?.[1];
      expect(imageId).toBeDefined();

      await typeInto(page, page.getByLabel('Valmistusaika (min)'), '35');
      const tag = page.getByRole('checkbox').first();
      await tabTo(page, tag, 60);
      await page.keyboard.press('Space');
      await typeInto(
        page,
        page.getByLabel('Ohje'),
        'Paista broileri, lisää kookosmaito ja hauduta.',
      );

      // Three ingredients: the first row is there, two more are added by their button.
      const ingredients: [string, string, string][] = [
        ['400', 'g', 'broilerin fileesuikaleita'],
        ['4', 'dl', 'kookosmaitoa'],
        ['1', 'rkl', 'currytahnaa'],
      ];
      for (const [i, [amount, unit, name]] of ingredients.entries()) {
        if (i > 0) {
          await press(page, 'button', 'Lisää ainesosa vaiheeseen 1');
          await expect.poll(() => isFocused(page.getByLabel('Määrä').nth(i))).toBe(true);
        } else {
          await tabTo(page, page.getByLabel('Määrä').first(), 60);
        }
        await page.keyboard.type(amount);
        await page.keyboard.press('Tab');
        await page.keyboard.type(unit);
        await page.keyboard.press('Tab');
        await page.keyboard.type(name);
      }
      // The last one moves up by its button; the focus stays on it, and the move is said.
      const up = page.getByRole('button', { name: 'Siirrä ainesosa currytahnaa ylös' });
      await tabTo(page, up, 20);
      await page.keyboard.press('Enter');
      await expect.poll(() => isFocused(up)).toBe(true);
      await page.getByText('currytahnaa on nyt kohdassa 2/3.').waitFor();
      const names = () =>
        page
          .getByLabel('Ainesosa', { exact: true })
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      expect(await names()).toEqual(['broilerin fileesuikaleita', 'currytahnaa', 'kookosmaitoa']);
      await axe(page, 'new recipe filled');
      await shot(page, 'new-1280', true);

      await press(page, 'button', 'Tallenna luonnos');
      await page.waitForURL(/\/admin\/content\/recipes\/\d+$/);
      const recipeId = /recipes\/(\d+)$/.exec(page.url())?.[1];
      await page.getByText('Luonnos tallennettu: versio 1.', { exact: false }).waitFor();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      // A draft: not on the site.
      const lookout = await context.newPage();
      const notYet = await lookout.goto(`${site}/reseptit/aamiaisbroileri-kookoksella`);
      expect(notYet?.status()).toBe(404);
      await lookout.close();
      await axe(page, 'draft saved');
      await shot(page, 'draft-1280');

      // Preview: a link to the site's own page, marked, never kept, never indexed.
      await press(page, 'button', 'Esikatsele');
      const previewLink = page.getByRole('link', { name: /^Avaa esikatselu \(versio 1/ });
      await expect.poll(() => isFocused(previewLink)).toBe(true);
      const previewUrl = (await previewLink.getAttribute('href')) ?? '';
      expect(previewUrl.startsWith(`${site}/_preview/`)).toBe(true);
      const preview = await context.newPage();
      const previewed = await preview.goto(previewUrl);
      expect(previewed?.headers()['cache-control']).toBe('no-store');
      expect(previewed?.headers()['x-robots-tag']).toBe('noindex, nofollow');
      await preview.getByRole('complementary', { name: 'Esikatselu' }).waitFor();
      await preview.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(await preview.locator('meta[name="robots"]').first().getAttribute('content')).toBe(
        'noindex, nofollow',
      );
      await axe(preview, 'preview');
      await shot(preview, 'preview-1280');
      await preview.close();

      // Published: the recipe search of /reseptit and the site search find it within 5 s.
      await press(page, 'button', 'Julkaise');
      await page.getByText('Versio 1 on julkaistu sivustolle.').waitFor();
      const publishedAt = Date.now();
      const visitor = await context.newPage();
      await visitor.goto(`${site}/reseptit?q=${encodeURIComponent('aamiaisbroileri')}`);
      await visitor
        .locator('a[href="/reseptit/aamiaisbroileri-kookoksella"]')
        .first()
        .waitFor({ timeout: 5_000 });
      await visitor.goto(`${site}/haku?q=${encodeURIComponent('aamiaisbroileri')}`);
      await visitor.getByRole('link', { name: title }).first().waitFor({ timeout: 5_000 });
      expect(Date.now() - publishedAt).toBeLessThan(5_000);
      await visitor.goto(`${site}/reseptit/aamiaisbroileri-kookoksella`);
      await visitor.getByRole('heading', { level: 1, name: title }).waitFor();
      const html = await visitor.content();
      expect(html).toContain(`/images/${imageId}/`);
      expect(html).toMatch(new RegExp(`/images/${imageId}/[^"]*preset=three-by-two-crop`));
      const jsonLd = await visitor.locator('script[type="application/ld+json"]').allTextContents();
      const recipe = jsonLd.map((text) => JSON.parse(text)).find((d) => d['@type'] === 'Recipe');
      expect(recipe?.name).toBe(title);
      expect(recipe?.recipeIngredient).toHaveLength(3);
      await shot(visitor, 'published-1280');
      await visitor.close();

      // A new title: the difference to the published version, then version 1 back as a draft.
      const changed = `${title} ja limellä`;
      await typeInto(page, page.getByLabel('Nimi', { exact: true }), changed);
      // A new picture, uploaded through the dialog from a file the file chooser hands over.
      await press(page, 'button', 'Vaihda kuva');
      const uploadDialog = page.getByRole('dialog');
      await uploadDialog.waitFor();
      const chooser = page.waitForEvent('filechooser');
      await press(page, 'button', 'Valitse tiedosto', uploadDialog);
      await (await chooser).setFiles({
        name: 'pata.png',
        mimeType: 'image/png',
        buffer: await sharp({
          create: { width: 1200, height: 800, channels: 3, background: '#e67e22' },
        })
          .png()
          .toBuffer(),
      });
      await uploadDialog.getByText('Valittu tiedosto: pata.png').waitFor();
      await typeInto(page, uploadDialog.getByLabel('Kuvan kuvaus (alt-teksti)'), 'Broileripata');
      await axe(page, 'upload dialog');
      await shot(page, 'upload-dialog-1280');
      await press(page, 'button', 'Lataa ja valitse', uploadDialog);
      await uploadDialog.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await thumbnail.getAttribute('src'))?.includes(`/images/${imageId}/`))
        .toBe(false);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 2.', { exact: false }).waitFor();
      const differences = page.getByRole('table', { name: 'Erot: versio 1 → versio 2' });
      await differences.waitFor();
      const row = differences.getByRole('row', { name: /Nimi/ });
      expect(await row.textContent()).toContain(title);
      expect(await row.textContent()).toContain(changed);
      await differences.getByRole('row', { name: /Kuva/ }).waitFor();
      await axe(page, 'compared');
      await shot(page, 'compared-1280', true);
      await press(page, 'button', 'Palauta versio 1');
      await page.getByText('Versio 1 palautettiin uudeksi luonnokseksi (versio 3).').waitFor();
      expect(await page.getByLabel('Nimi', { exact: true }).inputValue()).toBe(title);

      // Two editors at once: Pekka sees that Eeva has it open; Eeva saves first; Pekka's save is
      // refused with what she changed, and his change is made again on hers: nothing is lost.
      const { context: second, page: pekka } = await enrolled(
        browser,
        colleagueLink,
        'Pekka Julkaisija',
        PASSWORD,
      );
      await pekka.goto(`${admin}/content/recipes/${recipeId}`);
      await pekka.getByRole('heading', { level: 1, name: title }).waitFor();
      await pekka.getByText(/Tämän reseptin on avannut myös: Eeva Editori/).waitFor();
      const teaser = 'Kookosta, limeä ja korianteria.';
      await typeInto(page, page.getByLabel('Ingressi'), teaser);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 4.', { exact: false }).waitFor();
      await typeInto(pekka, pekka.getByLabel('Valmistusaika (min)'), '45');
      await press(pekka, 'button', 'Tallenna luonnos');
      const conflict = pekka.getByRole('heading', {
        level: 2,
        name: 'Joku tallensi uudemman version sillä välin',
      });
      await conflict.waitFor();
      await expect.poll(() => isFocused(conflict)).toBe(true);
      await pekka.getByText(/Eeva Editori tallensi version 4/).waitFor();
      const theirs = pekka.getByRole('table', { name: 'Erot: versio 3 → versio 4' });
      expect(await theirs.getByRole('row', { name: /Ingressi/ }).textContent()).toContain(teaser);
      await axe(pekka, 'stale save');
      await shot(pekka, 'conflict-1280');
      await press(pekka, 'button', 'Tee muutokseni uusimpaan versioon');
      await pekka
        .getByText('Muutoksesi ovat nyt uusimman version (4) päällä.', { exact: false })
        .waitFor();
      await press(pekka, 'button', 'Tallenna luonnos');
      await pekka.getByText('Luonnos tallennettu: versio 5.', { exact: false }).waitFor();
      expect(await pekka.getByLabel('Ingressi').inputValue()).toBe(teaser);
      expect(await pekka.getByLabel('Valmistusaika (min)').inputValue()).toBe('45');
      await second.close();

      // Sibylla's recipes, in Finnish and in Swedish, are not hers.
      for (const [q, language] of [
        ['kastike', 'fi'],
        ['sås', 'se'],
      ] as const) {
        const other = await sibyllaRecipe(page, sibylla, q, language);
        await page.goto(`${admin}/content/recipes/${other}`);
        await page
          .getByText('Sinulla ei ole oikeutta tämän sivuston tai kielen resepteihin.')
          .waitFor();
      }
      const refused = await page.evaluate(async () => {
        const token = decodeURIComponent(/XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '');
        const res = await fetch('/api/admin/content/recipes?site=sibylla&lang=sv', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-xsrf-token': token },
          body: JSON.stringify({ document: {} }),
        });
        return res.status;
      });
      expect(refused).toBe(403);

      // At 375 px: the list and the editor.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/content/recipes`);
      await page.getByRole('link', { name: title }).waitFor();
      await axe(page, 'list at 375');
      await shot(page, 'list-375');
      await page.goto(`${admin}/content/recipes/${recipeId}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await axe(page, 'editor at 375');
      await shot(page, 'editor-375', true);
      await context.close();
    } finally {
      await server.stop();
    }
  }, 240_000);
});
