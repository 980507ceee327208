import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { plainGet } from '../../scripts/page-javascript.ts';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  hydrated,
  idle,
  isFocused,
  screenshots,
  scrollIslandIntoView,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * The widgets of issue 16 in the browser, at 1280 and 375 px: the portion calculator under both
 * rule sets (worked examples of the spec's formulas), the timeline's anchors and keys, the jobs
 * listing's pages, the expandable list, the map, the hero video's pause, the counters with
 * reduced motion, the video dialog and the school vote. axe in every state.
 */

const port = serverPort();
const fi = serverT('fi');
const sv = serverT('sv');
let browser: Browser;
let context: BrowserContext | undefined;

chromiumForFile((b) => {
  browser = b;
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

const origin = (site: string) => `http://${site}.localhost:${port}`;
const get = plainGet(`http://127.0.0.1:${port}`);

/** A page's HTML as the server sends it (no script runs): Node does not resolve *.localhost. */
async function html(url: string): Promise<string> {
  const { host, pathname, search } = new URL(url);
  const answer = await get(`${pathname}${search}`, host);
  expect(answer.status, url).toBe(200);
  return answer.body.toString('utf8');
}

async function open(
  url: string,
  width: number,
  options: {
    javaScript?: boolean;
    reducedMotion?: 'reduce' | 'no-preference';
    /** Runs in the page before any of its own scripts. */
    init?: () => void;
    /** The client address the server believes (X-Forwarded-For from loopback). */
    clientAddress?: string;
  } = {},
): Promise<{ page: Page; problems: ReturnType<typeof watchProblems> }> {
  context = await browser.newContext({
    viewport: { width, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
    reducedMotion: options.reducedMotion ?? 'no-preference',
    ...(options.clientAddress
      ? { extraHTTPHeaders: { 'x-forwarded-for': options.clientAddress } }
      : {}),
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems = watchProblems(page);
  if (options.init) await page.addInitScript(options.init);
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  return { page, problems };
}

const shot = screenshots('widgets');

/** A client address of its own for each voter: a vote counts once per address a day. */
let voters = 0;
const voterAddress = () => `198.51.100.${++voters}`;

async function noSeriousViolations(page: Page, state: string) {
  expect(await seriousViolations(page), state).toEqual([]);
}

/**
 * Axe on a page as it is before any script has run. Axe itself is script: in a context with
 * JavaScript disabled it never finishes, so this context has it enabled but every script file
 * the page asks for is refused, and the page stays as the server sent it (no island hydrates).
 */
async function noSeriousViolationsBeforeScript(url: string, width: number, state: string) {
  const own = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    own.setDefaultTimeout(10_000);
    await own.route('**/*', (route) =>
      route.request().resourceType() === 'script' ? route.abort() : route.continue(),
    );
    const page = await own.newPage();
    await page.goto(url);
    expect(await page.locator('k-island[data-hydrated]').count(), state).toBe(0);
    await noSeriousViolations(page, state);
  } finally {
    await own.close();
  }
}

/** Wakes an island that hydrates when seen or idle, and waits until it has. */
async function hydrate(page: Page, name: string) {
  const island = page.locator(`k-island[data-name="${name}"]`).first();
  // An island below the fold hydrates only once seen.
  await scrollIslandIntoView(island);
  await island.dispatchEvent('pointerover');
  await hydrated(page, name);
  return island;
}

/** A recipe of a food-service site that has the portion calculator. */
async function calculatorRecipe(site: string, section: string): Promise<string> {
  const sitemap = await html(`${origin(site)}/sitemap.xml`);
  const urls = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map((m) => m[1] ?? '')
    .filter((u) => new RegExp(`/${section}/[^/]+/[^/]+$`).test(u));
  for (const url of urls) {
    const local = url.replace(/^https?:\/\/[^/]+/, origin(site));
    if ((await html(local)).includes('data-name="portion-calculator"')) return local;
  }
  throw new Error(`no recipe with the calculator on ${site}`);
}

interface CalculatorProps {
  base: { yield: number; portionSize: number; totalYieldKg: number | null };
  groups: { ingredients: { amount: number | null }[] }[];
}

async function calculatorProps(page: Page): Promise<CalculatorProps> {
  const json = await page
    .locator('k-island[data-name="portion-calculator"]')
    .getAttribute('data-props');
  return JSON.parse(json ?? '{}') as CalculatorProps;
}

/** The spec's formula, written out: amount × (count × size) / (default count × default size). */
const scaled = (
  amount: number,
  p: CalculatorProps,
  count: number,
  size: number,
  decimals: number,
) =>
  ((amount * count * size) / (p.base.yield * p.base.portionSize))
    .toFixed(decimals)
    .replace('.', ',');

describe.each([
  [1280, 'every check'],
  [375, 'each state as the narrow window shows it'],
] as const)('widgets at %i px, %s', (width, _scope) => {
  // What the server or the script decides whatever the width (a second page, a vote counted
  // once, a video that waits with reduced motion, a count) is checked at 1280 px; at 375 px each
  // widget's states as the narrow window shows them, with axe (decision 155).
  const wide = width === 1280;
  it('portion calculator, Finnish rules: steps 1 and 10, no bounds, 3 decimals, net total', async () => {
    const url = await calculatorRecipe('ammattilaiset', 'reseptit');
    const { page, problems } = await open(url, width);
    const island = await hydrate(page, 'portion-calculator');
    const p = await calculatorProps(page);
    const firstAmount = p.groups.flatMap((g) => g.ingredients).find((i) => (i.amount ?? 0) > 0)
      ?.amount as number;
    const amount = island.locator('[data-amount]').first();
    // At the recipe's own portions: the stored amount, three decimals.
    await expect
      .poll(() => amount.textContent())
      .toContain(scaled(firstAmount, p, p.base.yield, p.base.portionSize, 3));
    const count = island.getByLabel(fi('widgets.portions.count'), { exact: true });
    const size = island.getByLabel(fi('widgets.portions.size', { unit: 'g' }), { exact: true });
    await count.fill('60');
    await island
      .getByRole('button', {
        name: fi('widgets.portions.increase', {
          label: fi('widgets.portions.size', { unit: 'g' }),
        }),
      })
      .click();
    const newSize = p.base.portionSize + 10;
    expect(await size.inputValue()).toBe(String(newSize));
    await expect.poll(() => amount.textContent()).toContain(scaled(firstAmount, p, 60, newSize, 3));
    if (p.base.totalYieldKg !== null) {
      const net =
        (60 * newSize) / 1000 + (p.base.totalYieldKg - (p.base.yield * p.base.portionSize) / 1000);
      await expect
        .poll(() => island.locator('[data-net-total]').textContent())
        .toBe(`${net.toFixed(3).replace('.', ',')} kg`);
    }
    // No bounds: 2000 portions are taken as they are.
    await count.fill('2000');
    await expect
      .poll(() => amount.textContent())
      .toContain(scaled(firstAmount, p, 2000, newSize, 3));
    await noSeriousViolations(page, 'fi calculator changed');
    await scrollIslandIntoView(island);
    await shot(page, `portions-fi-${width}`);
    expect(problems.console).toEqual([]);
  });

  it('portion calculator, Swedish rules: 1–1000 and 150–650, outside ignored, one decimal', async () => {
    const url = await calculatorRecipe('foodservicese', 'recept');
    const { page, problems } = await open(url, width);
    const island = await hydrate(page, 'portion-calculator');
    const p = await calculatorProps(page);
    const firstAmount = p.groups.flatMap((g) => g.ingredients).find((i) => (i.amount ?? 0) > 0)
      ?.amount as number;
    const amount = island.locator('[data-amount]').first();
    const count = island.getByLabel(sv('widgets.portions.count'), { exact: true });
    const size = island.getByLabel(sv('widgets.portions.size', { unit: 'g' }), { exact: true });
    await count.fill('40');
    await size.fill('300');
    const expected = scaled(firstAmount, p, 40, 300, 1);
    await expect.poll(() => amount.textContent()).toContain(expected);
    // Out of range: ignored, the amounts stay.
    await count.fill('1001');
    await size.fill('700');
    await expect.poll(() => amount.textContent()).toContain(expected);
    await size.fill('140');
    await expect.poll(() => amount.textContent()).toContain(expected);
    // Stepping stops at the edges.
    await count.fill('1');
    await count.blur();
    await island
      .getByRole('button', {
        name: sv('widgets.portions.decrease', { label: sv('widgets.portions.count') }),
      })
      .click();
    expect(await count.inputValue()).toBe('1');
    await expect.poll(() => amount.textContent()).toContain(scaled(firstAmount, p, 1, 300, 1));
    expect(await island.locator('[data-net-total]').count()).toBe(0);
    await noSeriousViolations(page, 'sv calculator changed');
    await scrollIslandIntoView(island);
    await shot(page, `portions-sv-${width}`);
    expect(problems.console).toEqual([]);
  });

  it('timeline: a year anchor opens its window; arrow keys move between years', async () => {
    const base = `${origin('konsernifi')}/yritys/historia`;
    const page0 = await html(base);
    const years = [...page0.matchAll(/data-name="year_(\d{4})"/g)].map((m) => Number(m[1]));
    // The Finnish corporate site has 19 years; a window of 5 around the 11th.
    expect(years.length).toBeGreaterThan(12);
    const year = years[10] as number;
    const { page, problems } = await open(`${base}#${year}`, width);
    await hydrate(page, 'timeline');
    const entry = page.locator(`[data-name="year_${year}"]`);
    await expect.poll(() => entry.getAttribute('id')).toBe(String(year));
    await expect.poll(() => page.locator('[data-name^="year_"]').count()).toBe(5);
    const link = page.locator(`nav a[href="#${year}"]`);
    await expect.poll(() => link.getAttribute('aria-current')).toBe('true');
    await noSeriousViolations(page, 'timeline at a year');
    await shot(page, `timeline-${width}`);
    await link.focus();
    await page.keyboard.press('ArrowRight');
    const next = years[11] as number;
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(`#${next}`);
    await expect.poll(() => isFocused(page.locator(`nav a[href="#${next}"]`))).toBe(true);
    await page.keyboard.press('End');
    const last = years[years.length - 1] as number;
    await expect.poll(() => page.locator(`[data-name="year_${last}"]`).count()).toBe(1);
    await noSeriousViolations(page, 'timeline at the end');
    expect(problems.console).toEqual([]);
  });

  it('jobs: title, city, link and end date, paged by real links without script', async () => {
    const url = `${origin('konsernifi')}/tyopaikat/avoimet-tyopaikat`;
    // Without script: the server's HTML has the first 10 postings and a plain link onwards.
    const raw = await html(url);
    expect(raw.match(/<time dateTime=|<time datetime=/gi)?.length).toBe(10);
    expect(raw).toMatch(/href="[^"]*\?page=2" rel="next"/);
    const { page } = await open(url, width);
    const jobs = page.locator('[data-jobs] > li');
    expect(await jobs.count()).toBe(10);
    const first = jobs.first();
    expect(await first.locator('h3 a').getAttribute('href')).toMatch(/^https:\/\//);
    expect(await first.textContent()).toContain(fi('widgets.jobs.city'));
    expect(await first.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\d/);
    await noSeriousViolations(page, 'jobs page 1');
    await shot(page, `jobs-${width}`, true);
    if (wide) {
      const hrefs = () =>
        page
          .locator('[data-jobs] > li h3 a')
          .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      const firstPage = await hrefs();
      await page.locator('a[rel="next"]').click();
      await page.waitForURL(/\?page=2$/);
      const second = await hrefs();
      expect(second.length).toBeGreaterThan(0);
      for (const href of second) expect(firstPage).not.toContain(href);
      await noSeriousViolations(page, 'jobs page 2');
    }
  });

  it('expandable list: 9, then 5 more per click, focus on the first new item', async () => {
    const { page, problems } = await open(`${origin('konsernifi')}/vastuullisuus/raportit`, width);
    const island = await hydrate(page, 'expandable-list');
    const visible = island.locator('li:not([hidden])');
    expect(await visible.count()).toBe(9);
    const more = island.getByRole('button', { name: fi('widgets.list.more') });
    await more.click();
    await expect.poll(() => visible.count()).toBe(14);
    await expect.poll(() => isFocused(island.locator('li').nth(9))).toBe(true);
    await noSeriousViolations(page, 'list expanded once');
    await shot(page, `list-${width}`);
    await more.click();
    await expect.poll(() => isFocused(island.locator('li').nth(14))).toBe(true);
    await more.click();
    await expect.poll(() => visible.count()).toBe(21);
    await expect.poll(() => more.count()).toBe(0);
    await noSeriousViolations(page, 'list all shown');
    expect(problems.console).toEqual([]);
  });

  it('map: a button shows its region, the same button again clears it', async () => {
    const { page, problems } = await open(
      `${origin('konsernifi')}/yritys/tuotantolaitokset`,
      width,
    );
    const island = await hydrate(page, 'region-map');
    const buttons = island.locator('button[aria-expanded]');
    expect(await buttons.count()).toBeGreaterThan(5);
    const info = island.locator('[aria-live="polite"]').first();
    // The map's picture, drawn from the data: a numbered marker per region, named in its text.
    const picture = island.getByRole('img', { name: fi('widgets.map.picture') });
    expect(await picture.count()).toBe(1);
    expect(await island.locator('[data-marker]').count()).toBe(await buttons.count());
    await buttons.nth(0).click();
    expect(await buttons.nth(0).getAttribute('aria-expanded')).toBe('true');
    expect(await info.locator('h3').textContent()).toMatch(/^1\. /);
    expect(await island.locator('[data-marker="1"] circle').getAttribute('r')).toBe('13');
    await noSeriousViolations(page, 'map region open');
    await shot(page, `map-${width}`);
    await buttons.nth(1).click();
    expect(await buttons.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await info.locator('h3').textContent()).toMatch(/^2\. /);
    await buttons.nth(1).click();
    expect(await buttons.nth(1).getAttribute('aria-expanded')).toBe('false');
    expect(await info.textContent()).toBe(fi('widgets.map.choose'));
    await noSeriousViolations(page, 'map cleared');
    expect(problems.console).toEqual([]);
  });

  it('hero video: plays and pauses by its button; no autoplay with reduced motion', async () => {
    const { page, problems } = await open(`${origin('konsernifi')}/yritys`, width);
    const island = await hydrate(page, 'hero-video');
    const video = island.locator('video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    await island.getByRole('button', { name: fi('widgets.video.pause') }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    expect(await island.getByRole('button', { name: fi('widgets.video.play') }).count()).toBe(1);
    await noSeriousViolations(page, 'video paused');
    await shot(page, `video-${width}`);
    expect(problems.console).toEqual([]);
    if (wide) {
      await context?.close();
      const reduced = await open(`${origin('konsernifi')}/yritys`, width, {
        reducedMotion: 'reduce',
      });
      const still = await hydrate(reduced.page, 'hero-video');
      // The island starts the video from an effect at hydration: it has run by the next idle.
      await idle(reduced.page);
      expect(await still.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
      expect(await still.getByRole('button', { name: fi('widgets.video.play') }).count()).toBe(1);
    }
  });

  it('counters: the real figure in the HTML, at once with reduced motion, counted otherwise', async () => {
    const url = `${origin('konsernifi')}/yritys`;
    const figure = /data-counter="(\d+)"[^>]*>(\d+)/.exec(await html(url));
    expect(figure?.[1]).toBe(figure?.[2]);
    const value = Number(figure?.[1]);
    const reduced = await open(url, width, { reducedMotion: 'reduce' });
    await hydrate(reduced.page, 'number-animation');
    const counter = reduced.page.locator(`[data-counter="${value}"]`);
    expect(await counter.textContent()).toBe(String(value));
    await noSeriousViolations(reduced.page, 'counters reduced motion');
    await shot(reduced.page, `counters-${width}`);
    if (wide) {
      await context?.close();
      // Every figure each counter shows, from the page's first moment: where the counters are in
      // view at load, the count may be over before the test looks.
      const moving = await open(url, width, {
        init: () => {
          const seen: [number, number][] = [];
          (window as unknown as { counted: typeof seen }).counted = seen;
          new MutationObserver(() => {
            for (const el of document.querySelectorAll<HTMLElement>('[data-counter]')) {
              seen.push([Number(el.dataset.counter), Number.parseInt(el.textContent ?? '', 10)]);
            }
          }).observe(document, { subtree: true, childList: true, characterData: true });
        },
      });
      await hydrate(moving.page, 'number-animation');
      const live = moving.page.locator(`[data-counter="${value}"]`);
      await expect
        .poll(async () => Number(await live.textContent()), { timeout: 5000 })
        .toBe(value);
      const counted = await moving.page.evaluate(
        () => (window as unknown as { counted: [number, number][] }).counted,
      );
      // It counted up to the figure: smaller figures shown on the way.
      expect(counted.some(([counter, shown]) => counter === value && shown < value)).toBe(true);
    }
  });

  it('video dialog: opens, closes with Escape and gives the focus back', async () => {
    const { page, problems } = await open(`${origin('konsernifi')}/tyopaikat/tyo-meilla`, width);
    const island = await hydrate(page, 'video-modal');
    const opener = island.getByRole('button');
    await opener.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await noSeriousViolations(page, 'video dialog open');
    await shot(page, `video-dialog-${width}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(opener)).toBe(true);
    expect(problems.console).toEqual([]);
  });

  it('school vote: a choice shows its text and hides the options; counted once', async () => {
    const url = `${origin('konsernifi')}/tyopaikat/koulumateriaalit`;
    const { page, problems } = await open(url, width, { clientAddress: voterAddress() });
    const island = await hydrate(page, 'school-vote');
    const props = JSON.parse((await island.getAttribute('data-props')) ?? '{}') as {
      options: { Title: string; Text: string }[];
    };
    const [first, second] = props.options;
    if (!first || !second) throw new Error('the vote has fewer than two options');
    await noSeriousViolations(page, 'vote choosing');
    await island.getByRole('button', { name: second.Title }).click();
    await expect
      .poll(() => island.locator('[data-vote-result]').textContent())
      .toContain(second.Text);
    expect(await island.getByRole('button').count()).toBe(0);
    await noSeriousViolations(page, 'vote chosen');
    await shot(page, `vote-${width}`);
    if (wide) {
      // The same visitor again: another choice is not counted; the answer is the first choice.
      await page.reload();
      const again = await hydrate(page, 'school-vote');
      await again.getByRole('button', { name: first.Title }).click();
      await expect
        .poll(() => again.locator('[data-vote-result]').textContent())
        .toContain(second.Text);
    }
    expect(problems.console).toEqual([]);
  });

  it('portion calculator without script: a GET form the server answers with the amounts', async () => {
    const url = await calculatorRecipe('ammattilaiset', 'reseptit');
    const { page } = await open(url, width, { javaScript: false });
    const calculator = page.locator('k-island[data-name="portion-calculator"]');
    expect(await page.locator('k-island[data-hydrated]').count()).toBe(0);
    const p = await calculatorProps(page);
    const firstAmount = p.groups.flatMap((g) => g.ingredients).find((i) => (i.amount ?? 0) > 0)
      ?.amount as number;
    // No step buttons that would do nothing; a submit button instead.
    expect(await calculator.getByRole('button').count()).toBe(1);
    await calculator.getByLabel(fi('widgets.portions.count'), { exact: true }).fill('60');
    const size = p.base.portionSize + 10;
    await calculator
      .getByLabel(fi('widgets.portions.size', { unit: 'g' }), { exact: true })
      .fill(String(size));
    await Promise.all([
      page.waitForURL(new RegExp(`\\?count=60&size=${size}#annoslaskuri$`)),
      calculator.getByRole('button', { name: fi('widgets.portions.calculate') }).click(),
    ]);
    const again = page.locator('k-island[data-name="portion-calculator"]');
    expect(await again.locator('[data-amount]').first().textContent()).toContain(
      scaled(firstAmount, p, 60, size, 3),
    );
    expect(await again.getByLabel(fi('widgets.portions.count'), { exact: true }).inputValue()).toBe(
      '60',
    );
    if (p.base.totalYieldKg !== null) {
      const net =
        (60 * size) / 1000 + (p.base.totalYieldKg - (p.base.yield * p.base.portionSize) / 1000);
      expect(await again.locator('[data-net-total]').textContent()).toBe(
        `${net.toFixed(3).replace('.', ',')} kg`,
      );
    }
    await noSeriousViolationsBeforeScript(page.url(), width, 'calculator without script');
    await scrollIslandIntoView(again);
    await shot(page, `portions-no-script-${width}`);
  });

  it('portion calculator without script, Swedish rules: out-of-range values ignored', async () => {
    const url = await calculatorRecipe('foodservicese', 'recept');
    const { page } = await open(`${url}?count=40&size=700`, width, { javaScript: false });
    const p = await calculatorProps(page);
    const firstAmount = p.groups.flatMap((g) => g.ingredients).find((i) => (i.amount ?? 0) > 0)
      ?.amount as number;
    const calculator = page.locator('k-island[data-name="portion-calculator"]');
    expect(await calculator.locator('[data-amount]').first().textContent()).toContain(
      scaled(firstAmount, p, 40, p.base.portionSize, 1),
    );
    await noSeriousViolationsBeforeScript(page.url(), width, 'sv calculator without script');
  });

  it('school vote without script: a plain form post, the choice shown, counted once', async () => {
    const url = `${origin('konsernifi')}/tyopaikat/koulumateriaalit`;
    const { page } = await open(url, width, {
      javaScript: false,
      clientAddress: voterAddress(),
    });
    const island = page.locator('k-island[data-name="school-vote"]');
    const props = JSON.parse((await island.getAttribute('data-props')) ?? '{}') as {
      voteId: string;
      options: { Title: string; Text: string }[];
    };
    const [first, second] = props.options;
    if (!first || !second) throw new Error('the vote has fewer than two options');
    await Promise.all([
      page.waitForURL(/[?&]valinta=1#aanestys-/),
      island.getByRole('button', { name: second.Title }).click(),
    ]);
    const result = page.locator('[data-vote-result]');
    expect(await result.textContent()).toContain(second.Text);
    expect(await page.locator('k-island[data-name="school-vote"] button').count()).toBe(0);
    await noSeriousViolationsBeforeScript(page.url(), width, 'vote chosen without script');
    await result.scrollIntoViewIfNeeded();
    await shot(page, `vote-no-script-${width}`);
    if (wide) {
      // The same session again (its cookie kept): the first choice stays the counted one.
      await page.goto(url);
      await Promise.all([
        page.waitForURL(/[?&]valinta=1#aanestys-/),
        page
          .locator('k-island[data-name="school-vote"]')
          .getByRole('button', { name: first.Title })
          .click(),
      ]);
      expect(await page.locator('[data-vote-result]').textContent()).toContain(second.Text);
      // A failed vote comes back as an alert above the options, which stay.
      await page.goto(`${url}?aanestys=${props.voteId}&aanestysvirhe=1#aanestys-${props.voteId}`);
      expect(
        await page.locator('k-island[data-name="school-vote"]').getByRole('alert').textContent(),
      ).toBe(fi('widgets.school.voteFailed'));
      expect(
        await page.locator('k-island[data-name="school-vote"]').getByRole('button').count(),
      ).toBe(props.options.length);
      await noSeriousViolationsBeforeScript(page.url(), width, 'vote failed without script');
      await shot(page, `vote-failed-no-script-${width}`);
    }
  });

  it('school slider without script: every slide reachable in a focusable sideways list', async () => {
    const url = `${origin('konsernifi')}/tyopaikat/koulumateriaalit`;
    const { page } = await open(url, width, { javaScript: false });
    const slider = page.locator('[data-slider="list"]');
    expect(await slider.getAttribute('tabindex')).toBe('0');
    const slides = slider.locator('li');
    const total = await slides.count();
    expect(total).toBeGreaterThan(1);
    expect(await slider.locator('[inert]').count()).toBe(0);
    expect(await page.locator('k-island[data-name="slider"] button').count()).toBe(0);
    // The last slide scrolls into the list's view.
    await slider.scrollIntoViewIfNeeded();
    await slides.last().evaluate((el) => el.scrollIntoView({ inline: 'start', block: 'nearest' }));
    const box = await slider.boundingBox();
    const last = await slides.last().boundingBox();
    expect(box && last && last.x >= box.x - 1 && last.x < box.x + box.width).toBe(true);
    await noSeriousViolationsBeforeScript(url, width, 'slider without script');
    await shot(page, `slider-no-script-${width}`);
    await context?.close();
    // With the script: one slide at a time and the buttons.
    const live = await open(url, width);
    await hydrate(live.page, 'slider');
    await expect.poll(() => live.page.locator('[data-slider="live"]').count()).toBe(1);
    await live.page
      .locator('k-island[data-name="slider"]')
      .getByRole('button', { name: fi('widgets.school.next') })
      .click();
    expect(await live.page.locator('[data-slider="live"] li:not([inert])').count()).toBe(1);
  });

  it('map without script: the picture with its text alternative and every region listed', async () => {
    const { page } = await open(`${origin('konsernifi')}/yritys/tuotantolaitokset`, width, {
      javaScript: false,
    });
    const picture = page.locator('svg[data-map-picture]');
    expect(await picture.getAttribute('role')).toBe('img');
    const label = await picture.evaluate((svg) =>
      (svg.getAttribute('aria-labelledby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(label).toContain(fi('widgets.map.picture'));
    expect(label).toMatch(/1\. [^;]+, [^;]+; 2\. /);
    expect(await picture.locator('[data-marker]').count()).toBeGreaterThan(5);
    await noSeriousViolationsBeforeScript(page.url(), width, 'map without script');
    await picture.scrollIntoViewIfNeeded();
    await shot(page, `map-no-script-${width}`);
  });
});
