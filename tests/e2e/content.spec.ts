import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sites } from '../../src/sites/registry.ts';
import {
  chromiumForFile,
  screenshots,
  screenshotsWanted,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

const port = serverPort();
const shot = screenshots('content');
let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

type Kind = 'home' | 'content' | 'product' | 'recipe' | 'news';

/** What kind of page a document is, read from its search engine markup. */
async function kindOf(page: Page): Promise<Kind> {
  return page.evaluate(() => {
    const types = [...document.querySelectorAll('script[type="application/ld+json"]')].map(
      (s) => (JSON.parse(s.textContent ?? '{}') as { '@type'?: string })['@type'],
    );
    if (types.includes('Product')) return 'product';
    if (types.includes('Recipe')) return 'recipe';
    if (types.includes('NewsArticle')) return 'news';
    if (location.pathname === '/' || /^\/(en|sv)\/$/.test(location.pathname)) return 'home';
    return 'content';
  });
}

/**
 * One address of each page type the site has, found through its sitemap: candidates are tried
 * deepest first, since products, recipes and releases sit below their sections.
 */
async function pagesOfEachKind(page: Page, origin: string): Promise<Map<Kind, string>> {
  await page.goto(`${origin}/sitemap.xml`);
  let xml = await page.evaluate(() => fetch('/sitemap.xml').then((r) => r.text()));
  const part = /<sitemap>\s*<loc>([^<]+)<\/loc>/.exec(xml)?.[1];
  if (part)
    xml = await page.evaluate((url) => fetch(new URL(url).pathname).then((r) => r.text()), part);
  const urls = [...xml.matchAll(/<url>\s*<loc>([^<]+)<\/loc>/g)].map(
    (m) => new URL(m[1] ?? '').pathname,
  );
  // The home page is not among them: header.spec.ts and sites.spec.ts open every site's home
  // page and check it as this file checks the other types.
  const found = new Map<Kind, string>();
  // Products, recipes and releases live under their own sections: try the deepest two paths of
  // every section, then a shallow one of each for a plain content page.
  const sections = new Map<string, string[]>();
  for (const url of new Set(urls)) {
    if (url === '/' || /^\/(en|sv)\/$/.test(url)) continue;
    const key = url
      .split('/')
      .slice(0, url.startsWith('/en/') || url.startsWith('/sv/') ? 3 : 2)
      .join('/');
    sections.set(key, [...(sections.get(key) ?? []), url]);
  }
  const byDepth = (list: string[]) =>
    [...list].sort((a, b) => b.split('/').length - a.split('/').length || a.localeCompare(b));
  const candidates = [
    ...[...sections.values()].flatMap((list) => byDepth(list).slice(0, 2)),
    ...[...sections.values()].map((list) => byDepth(list).at(-1) ?? ''),
  ];
  for (const candidate of candidates) {
    if (found.size === 4) break;
    const kind = await page.evaluate(async (url) => {
      const html = await fetch(url).then((r) => r.text());
      if (html.includes('"@type":"Product"')) return 'product';
      if (html.includes('"@type":"Recipe"')) return 'recipe';
      if (html.includes('"@type":"NewsArticle"')) return 'news';
      return 'content';
    }, candidate);
    if (!found.has(kind)) found.set(kind, candidate);
  }
  return found;
}

describe('page types of every site', () => {
  it.each(sites.map((s) => [s.id] as const))(
    '%s: each page type besides the home page renders, accessible and without errors',
    async (id) => {
      const origin = `http://${id}.localhost:${port}`;
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const found = await pagesOfEachKind(page, origin);
      const problems = watchProblems(page);
      for (const [kind, url] of found) {
        const response = await page.goto(`${origin}${url}`);
        expect(response?.status(), `${id} ${kind} ${url}`).toBe(200);
        expect(await kindOf(page)).toBe(kind);
        expect(await page.locator('h1').count()).toBe(1);
        // Every image has its size in the markup, so nothing shifts while it loads.
        const unsized = await page.locator('main img:not([width]), main img:not([height])').count();
        expect(unsized, `${id} ${kind}: images without width or height`).toBe(0);
        if (screenshotsWanted) {
          await shot(page, `${id}-${kind}-1280`);
          await page.setViewportSize({ width: 375, height: 800 });
          await shot(page, `${id}-${kind}-375`);
          await page.setViewportSize({ width: 1280, height: 900 });
        }
        expect(await seriousViolations(page), `${id} ${kind} ${url}`).toEqual([]);
      }
      expect(problems.console).toEqual([]);
      await context.close();
    },
  );
});
