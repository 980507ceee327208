import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  expectNoSeriousViolations as axe,
  chromiumForFile,
  screenshots,
  tabTo,
} from './browser.ts';
import { adminJson, byKeyboard, enrolled, startContentServer } from './content-support.ts';

/**
 * Products and job listings in the back office (decision 171), on a server of its own with the
 * meat shop's and the Finnish group site's demo content: a new publisher of both, in Finnish,
 * by keyboard changes a shop product's name and description (rich text), saves a draft (the
 * product page does not change), publishes it; the product page shows the new name and
 * description at the price it had — the price is the shop's, not the document's. Then she adds
 * a job listing, publishes it, and the group site's jobs listing shows it. axe finds nothing
 * serious on the lists and editors at 1280 and 375 px.
 */
let browser: Browser;
chromiumForFile((b) => {
  browser = b;
});
const shot = screenshots('admin-products');
const { press, typeInto } = byKeyboard(250);
const PASSWORD = 'julkaisijan pitkä salasana 9';

/** The product page's own price (the first euro amount of its article). */
async function pagePrice(page: Page): Promise<string> {
  const text = (await page.locator('article').first().textContent()) ?? '';
  const price = /\d+,\d{2}\s?€/.exec(text)?.[0];
  if (!price) throw new Error('no price on the product page');
  return price;
}

describe('products and job listings in the back office', () => {
  it('a publisher changes a shop product’s page without its price, and adds a job listing', async () => {
    const server = await startContentServer(
      'products',
      [
        {
          email: 'tiina.tuote@kattaus.example',
          name: 'Tiina Tuote',
          role: 'publisher',
          sites: ['lihakauppa', 'konsernifi'],
          langs: ['fi'],
        },
      ],
      ['lihakauppa', 'konsernifi'],
    );
    const [link] = server.links;
    const { admin } = server;
    const shop = server.origin('lihakauppa');
    const group = server.origin('konsernifi');
    try {
      const { context, page } = await enrolled(browser, link, 'Tiina Tuote', PASSWORD);

      // A product the shop sells, and its price on its page.
      type Rows = { rows: { id: number; title: string; detail: string }[] };
      const listed = await adminJson<Rows>(
        page,
        '/api/admin/content/products?site=lihakauppa&lang=fi',
      );
      const product = listed.rows[0];
      if (!product) throw new Error('no shop product');
      const visitor = await context.newPage();
      await visitor.goto(`${shop}${product.detail}`);
      await visitor.getByRole('heading', { level: 1, name: product.title }).waitFor();
      const price = await pagePrice(visitor);

      // To the products, found by name.
      await press(page, 'link', 'Sisältö');
      await press(
        page,
        'link',
        'Tuotteet',
        page.getByRole('navigation', { name: 'Sisällön valikko' }),
      );
      await page.getByRole('heading', { level: 1, name: 'Tuotteet' }).waitFor();
      await typeInto(page, page.getByRole('searchbox', { name: 'Nimi' }), product.title);
      await press(page, 'button', 'Hae');
      await page
        .getByRole('status')
        .getByText(/tuotetta/)
        .waitFor();
      await axe(page, 'products list');
      await shot(page, 'list-1280');
      await press(page, 'link', product.title);
      await page.getByRole('heading', { level: 1, name: product.title }).waitFor();
      await page.getByText(/Hinnat, varasto, ALV-luokka ja lahjakortit/).waitFor();

      const name = `${product.title} – uusi pakkaus`;
      const description = 'Kypsytetty kolme viikkoa ja leikattu käsin.';
      await typeInto(page, page.getByLabel('Nimi', { exact: true }), name);
      await typeInto(page, page.getByRole('textbox', { name: 'Kuvaus' }), description);
      await axe(page, 'product editor filled');
      await shot(page, 'editor-1280', true);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 2.', { exact: false }).waitFor();
      // A draft: the product page is as it was.
      await visitor.reload();
      await visitor.getByRole('heading', { level: 1, name: product.title }).waitFor();
      expect(await visitor.locator('article').first().textContent()).not.toContain(description);

      await press(page, 'button', 'Julkaise');
      await page.getByText('Versio 2 on julkaistu sivustolle.').waitFor();
      const differences = page.getByRole('table', { name: /Erot: versio 1 → versio 2/ });
      await differences.getByRole('row', { name: /Nimi/ }).waitFor();
      // The description compared as its words, not its markup.
      const described = await differences.getByRole('row', { name: /Kuvaus/ }).textContent();
      expect(described).toContain(description);
      expect(described).not.toContain('<p>');
      await axe(page, 'product published');
      await shot(page, 'published-1280', true);

      await expect
        .poll(
          async () => {
            await visitor.reload();
            return visitor.getByRole('heading', { level: 1 }).textContent();
          },
          { timeout: 5_000 },
        )
        .toBe(name);
      expect(await visitor.locator('article').first().textContent()).toContain(description);
      expect(await pagePrice(visitor)).toBe(price);
      await shot(visitor, 'product-page-1280');

      // A job listing: made, published, shown by the group site's jobs listing.
      type Tree = { pages: { path: string }[] };
      const tree = await adminJson<Tree>(
        page,
        '/api/admin/content/pages/tree?site=konsernifi&lang=fi',
      );
      const jobsPath = tree.pages.find((p) => p.path.endsWith('/avoimet-tyopaikat'))?.path;
      if (!jobsPath) throw new Error('no jobs page');
      await press(
        page,
        'link',
        'Työpaikat',
        page.getByRole('navigation', { name: 'Sisällön valikko' }),
      );
      await page.getByRole('heading', { level: 1, name: 'Työpaikat' }).waitFor();
      await axe(page, 'jobs list');
      await shot(page, 'jobs-1280');
      await press(page, 'link', 'Uusi työpaikka');
      await page.getByRole('heading', { level: 1, name: 'Uusi työpaikka' }).waitFor();
      if (await page.getByRole('button', { name: /Sivusto ja kieli/ }).count()) {
        // Two sites: the group site's Finnish.
        await press(page, 'button', /Sivusto ja kieli/);
        await page.getByRole('option', { name: 'konsernifi (fi)' }).click();
      }
      const job = 'Tuotekehityspäällikkö';
      await typeInto(page, page.getByLabel('Tehtävä', { exact: true }), job);
      await typeInto(page, page.getByLabel('Paikkakunta'), 'Forssa');
      await typeInto(
        page,
        page.getByLabel('Hakuilmoituksen osoite'),
        'https://careers.kattaus.example/fi/jobs/9001',
      );
      // The last day to apply, two days ahead, typed into the date's segments (day, month, year).
      const end = new Date(Date.now() + 2 * 86_400_000);
      const endDate = page.getByRole('group', { name: 'Hakuaika päättyy' });
      await tabTo(page, endDate.getByRole('spinbutton').first(), 250);
      await page.keyboard.type(
        `${String(end.getUTCDate()).padStart(2, '0')}${String(end.getUTCMonth() + 1).padStart(2, '0')}${end.getUTCFullYear()}`,
      );
      await axe(page, 'job filled');
      await shot(page, 'job-1280', true);
      await press(page, 'button', 'Tallenna luonnos');
      await page.getByText('Luonnos tallennettu: versio 1.', { exact: false }).waitFor();
      await page.getByRole('heading', { level: 1, name: job }).waitFor();
      const jobs = await context.newPage();
      await jobs.goto(`${group}${jobsPath}`);
      expect(await jobs.locator('main').textContent()).not.toContain(job);
      await press(page, 'button', 'Julkaise');
      await page.getByText('Versio 1 on julkaistu sivustolle.').waitFor();
      await expect
        .poll(
          async () => {
            await jobs.reload();
            return jobs.locator('main').textContent();
          },
          { timeout: 5_000 },
        )
        .toContain(job);
      await shot(jobs, 'jobs-page-1280');

      // The other rows the group site's widgets show: each list and a seeded row's editor.
      for (const [address, heading, key] of [
        ['school-materials', 'Koulumateriaalit', 'materials'],
        ['timeline', 'Aikajana', 'timeline'],
        ['map', 'Kartta', 'map'],
      ] as const) {
        await page.goto(`${admin}/content/${address}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        const first = page.getByRole('table').getByRole('link').first();
        await first.waitFor();
        await axe(page, `${key} list`);
        await shot(page, `${key}-1280`);
        const title = (await first.textContent()) ?? '';
        await first.click();
        await page
          .getByRole('heading', { level: 1 })
          .filter({ hasText: title.slice(0, 10) })
          .waitFor();
        await page.getByRole('heading', { level: 2, name: 'Versiot' }).waitFor();
        await axe(page, `${key} editor`);
        await shot(page, `${key}-editor-1280`, true);
      }

      // At 375 px: the lists and the editors.
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${admin}/content/products`);
      await page.getByRole('link', { name }).waitFor();
      await axe(page, 'products list at 375');
      await shot(page, 'list-375');
      await page.goto(`${admin}/content/products/${product.id}`);
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await axe(page, 'product editor at 375');
      await shot(page, 'editor-375', true);
      await page.goto(`${admin}/content/jobs`);
      await page.getByRole('link', { name: job }).waitFor();
      await axe(page, 'jobs list at 375');
      await shot(page, 'jobs-375');
      await context.close();
    } finally {
      await server.stop();
    }
  }, 300_000);
});
