import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { serverT } from '../../src/i18n/catalogues.ts';
import type { Site } from '../../src/sites/types.ts';

/**
 * The sites whose home pages `header.spec.ts` opens at 1280 and 375 px: one or more of each
 * header variant. `sites.spec.ts` checks the home pages of the others.
 */
export const headerSiteIds = [
  'lihakauppa',
  'konsernifi',
  'koncernse',
  'sibylla',
  'mestariforsmanfi',
  'ridderheimsse',
  'export',
  'jyvabroiler',
] as const;

export function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * What every site's home page shows, whichever test opens it: the site's language and name, its
 * logo and brand colour in the header, and what `content.spec.ts` asks of every other page type
 * (one h1, every image sized in the markup, no product, recipe or news markup on a home page).
 */
export async function expectHomeBasics(page: Page, site: Site): Promise<void> {
  expect(await page.getAttribute('html', 'lang')).toBe(site.languages[0]);
  expect(await page.title()).toBe(site.name);
  const logo = page.locator('header svg[data-logo]');
  await expect.poll(() => logo.isVisible()).toBe(true);
  expect(await logo.getAttribute('data-logo')).toBe(site.logo);
  const headerBackground = await page
    .locator('header')
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(headerBackground).toBe(hexToRgb(site.theme.brand));
  expect(await page.locator('h1').count()).toBe(1);
  const unsized = await page.locator('main img:not([width]), main img:not([height])').count();
  expect(unsized, `${site.id}: images without width or height`).toBe(0);
  const types = await page.evaluate(() =>
    [...document.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => (JSON.parse(s.textContent ?? '{}') as { '@type'?: string })['@type'],
    ),
  );
  expect(types.filter((type) => ['Product', 'Recipe', 'NewsArticle'].includes(type ?? ''))).toEqual(
    [],
  );
}

/** The bar's height, and how much of its row of links lies outside the row's box. */
export const measure = (page: Page, t: ReturnType<typeof serverT>) =>
  page.locator('header').evaluate((header, label) => {
    const bar = header.firstElementChild as HTMLElement;
    const nav = header.querySelector<HTMLElement>(`nav[aria-label="${label}"]`);
    const row = nav?.querySelector('ul');
    const box = row?.getBoundingClientRect();
    const links = [...(row?.querySelectorAll('a') ?? [])].map((a) => a.getBoundingClientRect());
    return {
      bar: bar.getBoundingClientRect().height,
      hidden: row ? row.scrollWidth - row.clientWidth : 0,
      outside: links.filter((l) => !box || l.left < box.left - 0.5 || l.right > box.right + 0.5)
        .length,
      more: {
        start: nav?.dataset.moreStart !== undefined,
        end: nav?.dataset.moreEnd !== undefined,
      },
      mask: row ? getComputedStyle(row).maskImage : 'none',
    };
  }, t('header.shortcuts'));

/** The mobile bar is one 56 px row whose links all show whole, with no fade at either end. */
export async function expectOneWholeRow(page: Page, t: ReturnType<typeof serverT>, id: string) {
  const found = await measure(page, t);
  expect(found.bar, id).toBe(56);
  expect({ hidden: found.hidden, outside: found.outside, more: found.more }, id).toEqual({
    hidden: 0,
    outside: 0,
    more: { start: false, end: false },
  });
}
