import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import { chromiumForFile, serverPort, settled, watchProblems } from './browser.ts';
import { productsForSale, SHOP_ORIGIN } from './shop-support.ts';

const origin = `http://sibylla.localhost:${serverPort()}`;
let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

/**
 * A page built from the real server output and the real client build, with the same island
 * three times under each trigger, so the triggers themselves are tested in the browser.
 */
async function triggerPage(page: Page): Promise<string> {
  // The browser resolves *.localhost; Node does not.
  await page.goto(`${origin}/health`);
  const html = await page.evaluate(() => fetch('/').then((r) => r.text()));
  const head = /<head>[\s\S]*<\/head>/.exec(html)?.[0];
  const island = /<k-island[\s\S]*?<\/k-island>/.exec(html)?.[0];
  if (!head || !island) throw new Error('home page has no head or island');
  const copy = (n: number, trigger: string) =>
    island
      .replaceAll('site-header-0-', `site-header-${n}-`)
      .replace(/data-hydrate="\w+"/, `data-hydrate="${trigger}" data-test="${trigger}"`);
  // Each copy sits in a box that holds its fixed-position parts (the header's side menu), so the
  // late one really is out of view until scrolled to.
  const box = (html: string) =>
    `<div style="transform:translateZ(0);overflow:hidden">${html}</div>`;
  return `<!DOCTYPE html><html lang="fi">${head}<body><main>
    ${box(copy(0, 'load'))}${box(copy(1, 'idle'))}
    <div style="height:4000px"></div>
    ${box(copy(2, 'visible'))}</main></body></html>`;
}

describe('island triggers', () => {
  it('hydrates load and idle islands at once and a visible island only when scrolled to', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
    const body = await triggerPage(page);
    const problems = watchProblems(page);
    await page.route(`${origin}/trigger-test`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body }),
    );
    await page.goto(`${origin}/trigger-test`);
    const hydrated = (trigger: string) =>
      page.locator(`k-island[data-test="${trigger}"][data-hydrated]`);
    await hydrated('load').waitFor();
    await hydrated('idle').waitFor();
    // The visible island's observer has reported it out of view long before the page has loaded
    // everything it asked for and been idle after it; had it hydrated, it would have by then.
    await settled(page);
    expect(await hydrated('visible').count()).toBe(0);

    const lateButton = page.locator('k-island[data-test="visible"] button[aria-controls]').first();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await hydrated('visible').waitFor();
    await lateButton.click();
    // The side menu opens once its code has come (decision 160).
    await expect.poll(() => lateButton.getAttribute('aria-expanded')).toBe('true');
    // Each island is its own root with its own id prefix: no hydration mismatch.
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it('loads the island code only when an island asks for it', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${origin}/`);
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    expect(scripts.some((s) => /\/assets\/site-header-[\w-]+\.js$/.test(s))).toBe(true);
    // Its own texts in the page's language, not the catalogue (decision 160).
    expect(scripts.some((s) => /\/assets\/texts-sv-[\w-]+\.js$/.test(s))).toBe(false);
    expect(scripts.some((s) => /\/assets\/texts-fi-site-header-[\w-]+\.js$/.test(s))).toBe(true);
    expect(scripts.some((s) => /\/assets\/(fi|sv|en)-[\w-]+\.js$/.test(s))).toBe(false);
    await page.close();
  });

  it('asks for no island code before the first contentful paint (decision 067)', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
    // The first paint is held back for a second by a render-blocking script that neither blocks
    // the parser nor the page's own scripts: like a style sheet or font that arrives late.
    await page.goto(`${origin}/health`);
    const html = await page.evaluate(() => fetch('/').then((r) => r.text()));
    await page.route(`${origin}/hold-test`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: html.replace(
          '</head>',
          '<script async blocking="render" src="/render-hold.js"></script></head>',
        ),
      }),
    );
    await page.route(`${origin}/render-hold.js`, async (route) => {
      // The late resource itself (what the test is about, asserted on below), not a wait.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
    });
    await page.goto(`${origin}/hold-test`);
    // The hero carousel hydrates at load: its code has been asked for and has run.
    await page.locator('k-island[data-name="hero-carousel"][data-hydrated]').waitFor();
    const timing = await page.evaluate(() => {
      const declared = new Set(
        Array.from(
          document.querySelectorAll<HTMLScriptElement | HTMLLinkElement>(
            'script[type="module"][src], link[rel="modulepreload"]',
          ),
          (el) => ('src' in el ? el.src : el.href),
        ),
      );
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const islandCode = performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.+\.js$/.test(new URL(e.name).pathname) && !declared.has(e.name))
        .map((e) => ({ name: new URL(e.name).pathname, startTime: e.startTime }));
      return { firstPaint: paint?.startTime, declared: declared.size, islandCode };
    });
    // The hold worked: nothing painted before it ended.
    expect(timing.firstPaint).toBeGreaterThan(1_000);
    expect(timing.declared).toBeGreaterThan(0);
    expect(timing.islandCode.some((e) => /\/hero-carousel-[\w-]+\.js$/.test(e.name))).toBe(true);
    const early = timing.islandCode.filter((e) => e.startTime < (timing.firstPaint ?? 0));
    expect(early).toEqual([]);
    await page.close();
  });

  /**
   * Holds an island's code back until `release`, as a slow connection would: a press made
   * meanwhile lands on the server's HTML before the island has hydrated.
   */
  async function lateCode(page: Page, chunk: string) {
    let asked = 0;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/assets/${chunk}-*.js`, async (route) => {
      asked += 1;
      await released;
      await route.continue();
    });
    return { asked: () => asked, release };
  }

  it('makes a press on a menu toggle before the header hydrates once it has (decision 070)', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
    const problems = watchProblems(page);
    const code = await lateCode(page, 'site-header');
    await page.goto(`${origin}/`);
    const header = page.locator('k-island[data-name^="site-header"]');
    const toggle = header.locator('button[aria-controls]').first();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    // Pressed twice while nothing seemed to happen: meant to open the menu, not to open and close.
    await toggle.click();
    await toggle.click();
    expect(code.asked()).toBeGreaterThan(0);
    expect(await header.getAttribute('data-hydrated')).toBeNull();
    code.release();
    await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    expect(problems.console).toEqual([]);
    await page.close();
  });

  it("makes every press on the shop's + button before the control hydrates (decision 070)", async () => {
    const t = serverT('fi');
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(`${SHOP_ORIGIN}/`);
    const [product] = await productsForSale(page, 1, 4);
    if (!product) throw new Error('the seeded shop has no product with 4 in stock');
    const code = await lateCode(page, 'buy-control');
    await page.goto(`${SHOP_ORIGIN}${product.url}`);
    const control = page.locator('k-island[data-name="shop-buy-control"]');
    const quantity = control.getByRole('spinbutton', { name: t('shop.buy.quantity') });
    expect(await quantity.inputValue()).toBe('1');
    const more = control.getByRole('button', { name: t('shop.buy.increase') });
    // Three presses while nothing seemed to happen: each counts. (The server renders − disabled
    // at the least quantity, so it cannot be pressed before the control hydrates.)
    await more.click();
    await more.click();
    await more.click();
    expect(code.asked()).toBeGreaterThan(0);
    expect(await control.getAttribute('data-hydrated')).toBeNull();
    code.release();
    await page.locator('k-island[data-name="shop-buy-control"][data-hydrated]').waitFor();
    await expect.poll(() => quantity.inputValue()).toBe('4');
    expect(problems.console).toEqual([]);
    await page.close();
  });
});
