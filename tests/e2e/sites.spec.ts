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
import { expectHomeBasics, expectOneWholeRow, headerSiteIds } from './home-page.ts';

let browser: Browser;
const port = serverPort();
// The pictures are named by the site alone.
const shot = screenshots('');

chromiumForFile((b) => {
  browser = b;
});

describe('home page of every site', () => {
  // header.spec.ts opens the home pages of the other sites at both widths and checks the same.
  const others = sites.filter((s) => !(headerSiteIds as readonly string[]).includes(s.id));
  it.each(others.map((s) => [s.id, s] as const))(
    '%s: language, title, logo, theme, menu island, mobile bar, no errors, axe',
    async (id, site) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const problems = watchProblems(page);
      const response = await page.goto(`http://${id}.localhost:${port}/`);
      expect(response?.status()).toBe(200);
      await expectHomeBasics(page, site);

      // The header island hydrates; on a wide screen the burger is hidden.
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-1280`, true);

      // On a phone the menu folds behind the burger, which opens by keyboard and closes with Escape.
      await page.setViewportSize({ width: 375, height: 800 });
      const t = serverT(site.languages[0]);
      const toggle = page.getByRole('button', { name: t('menu.label'), exact: true });
      await expect.poll(() => toggle.isVisible()).toBe(true);
      // The mobile bar: one 56 px row whose links all show whole.
      await expectOneWholeRow(page, t, id);
      const panel = page.locator(
        `#${await toggle.getAttribute('aria-controls')}`.replaceAll(':', '\\:'),
      );
      expect(await panel.isVisible()).toBe(false);
      await toggle.focus();
      await page.keyboard.press('Enter');
      // The side menu opens once its code has come (decision 160).
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `${id}-375-menu`);
      await page.keyboard.press('Escape');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      await expect.poll(() => panel.isVisible()).toBe(false);
      expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
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
