import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, PLAYWRIGHT_CHROMIUM_FLAGS, UNUSED_FEATURES } from '../helpers/chromium.ts';
import { launchChromium } from './browser.ts';

/**
 * The browser tests' own Chromium flags (decision 153): they turn off what no page needs, and keep
 * everything Playwright turns off itself.
 */
describe("the browser tests' Chromium", () => {
  it("keeps Playwright's features off: its list is part of the last --disable-features", async () => {
    const server = await chromium.launchServer({
      executablePath: chromiumPath(),
      args: PLAYWRIGHT_CHROMIUM_FLAGS,
      headless: true,
    });
    try {
      const lists = server
        .process()
        .spawnargs.filter((arg) => arg.startsWith('--disable-features='))
        .map((arg) => arg.slice('--disable-features='.length).split(','));
      // Playwright's own, then ours: Chromium reads the last one only.
      expect(lists.length).toBeGreaterThanOrEqual(2);
      const last = new Set(lists.at(-1));
      for (const list of lists.slice(0, -1)) {
        expect(list.filter((feature) => feature && !last.has(feature))).toEqual([]);
      }
      expect(UNUSED_FEATURES.filter((feature) => !last.has(feature))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('opens a window without the address bar popups beside its page', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto('about:blank');
      const cdp = await browser.newBrowserCDPSession();
      // Every kind of target, the browser's own pages too.
      const { targetInfos } = (await cdp.send('Target.getTargets', { filter: [{}] })) as {
        targetInfos: { type: string; url: string }[];
      };
      // The page itself is there; no chrome://omnibox-popup.top-chrome page is.
      expect(targetInfos.some((t) => t.type === 'page' && t.url === 'about:blank')).toBe(true);
      expect(targetInfos.filter((t) => t.url.includes('top-chrome'))).toEqual([]);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
