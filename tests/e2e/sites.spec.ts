import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { sites } from '../../src/sites/registry.ts';
import {
  chromiumForFile,
  screenshots,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

let browser: Browser;
const port = serverPort();
// The pictures are named by the site alone.
const shot = screenshots('');

chromiumForFile((b) => {
  browser = b;
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

describe('home page of every site', () => {
  it.each(sites.map((s) => [s.id, s] as const))(
    '%s: language, title, logo, theme, menu island, no errors, axe',
    async (id, site) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watchProblems(page);
      const response = await page.goto(`http://${id}.localhost:${port}/`);
      expect(response?.status()).toBe(200);

      expect(await page.getAttribute('html', 'lang')).toBe(site.languages[0]);
      expect(await page.title()).toBe(site.name);
      const logo = page.locator('header svg[data-logo]');
      await expect.poll(() => logo.isVisible()).toBe(true);
      expect(await logo.getAttribute('data-logo')).toBe(site.logo);
      const headerBackground = await page
        .locator('header')
        .evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(headerBackground).toBe(hexToRgb(site.theme.brand));

      // The header island hydrates; on a wide screen the burger is hidden.
      await page.locator('k-island[data-name="site-header"][data-hydrated]').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-1280`, true);
      // What content.spec.ts asks of every other page type: one h1, every image sized in the
      // markup, and no product, recipe or news markup on a home page.
      expect(await page.locator('h1').count()).toBe(1);
      const unsized = await page.locator('main img:not([width]), main img:not([height])').count();
      expect(unsized, `${id}: images without width or height`).toBe(0);
      const types = await page.evaluate(() =>
        [...document.querySelectorAll('script[type="application/ld+json"]')].map(
          (s) => (JSON.parse(s.textContent ?? '{}') as { '@type'?: string })['@type'],
        ),
      );
      expect(
        types.filter((type) => ['Product', 'Recipe', 'NewsArticle'].includes(type ?? '')),
      ).toEqual([]);

      // On a phone the menu folds behind the burger, which opens by keyboard and closes with Escape.
      await page.setViewportSize({ width: 375, height: 800 });
      const toggle = page.getByRole('button', {
        name: serverT(site.languages[0])('menu.label'),
        exact: true,
      });
      await expect.poll(() => toggle.isVisible()).toBe(true);
      const panel = page.locator(
        `#${await toggle.getAttribute('aria-controls')}`.replaceAll(':', '\\:'),
      );
      expect(await panel.isVisible()).toBe(false);
      await toggle.focus();
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-375-menu`);
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => panel.isVisible()).toBe(false);
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      await shot(page, `${id}-375`, true);

      expect(problems.console).toEqual([]);
      await context.close();
    },
  );
});

describe('language switch', () => {
  it('goes from Finnish to /en/ and back to /', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`http://sibylla.localhost:${port}/`);
    // Sibylla has three languages: the other two are in the header's language menu.
    const languageMenu = page.locator('k-island[data-hydrated] [data-disclosure="language"]');
    await languageMenu.hover();
    await page.getByRole('link', { name: 'In English' }).click();
    await page.waitForURL(`http://sibylla.localhost:${port}/en/`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await languageMenu.hover();
    await page.getByRole('link', { name: 'Suomeksi' }).click();
    await page.waitForURL(`http://sibylla.localhost:${port}/`);
    expect(await page.getAttribute('html', 'lang')).toBe('fi');
    await context.close();
  });

  it('shows the 404 page of the site with no serious axe violation', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`http://lithellsse.localhost:${port}/finns-inte`);
    expect(response?.status()).toBe(404);
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    expect(await page.locator('h1').textContent()).toBe('Sidan hittades inte');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
