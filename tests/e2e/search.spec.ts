import { get } from 'node:http';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { serverT } from '../../src/i18n/catalogues.ts';
import {
  chromiumForFile,
  screenshots,
  screenshotsWanted,
  seriousViolations,
  serverPort,
  watchProblems,
} from './browser.ts';

/**
 * The search pages in the browser: the site search page (sibylla `/haku`) with every URL rule of
 * spec §2, server-rendered results without script, 'Näytä lisää', the content-group filter and
 * history; the product and recipe searches of the third brand (jyvabroiler `/tuotteet`,
 * `/reseptit`) with facets and chips by keyboard only; the corporate newsroom and the shop's
 * product grid; axe with and without results; screenshots at 1280 and 375 px.
 */

const port = serverPort();
const t = serverT('fi');
const origin = (site: string) => `http://${site}.localhost:${port}`;

let browser: Browser;

chromiumForFile((b) => {
  browser = b;
});

interface Opened {
  context: BrowserContext;
  page: Page;
  problems: ReturnType<typeof watchProblems>;
}

async function open(
  site: string,
  url: string,
  options: { width?: number; javaScript?: boolean } = {},
): Promise<Opened> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    javaScriptEnabled: options.javaScript ?? true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems = watchProblems(page);
  const response = await page.goto(`${origin(site)}${url}`);
  expect(response?.status()).toBe(200);
  if (options.javaScript !== false) {
    await page
      .locator(
        'k-island:is([data-name="site-search"], [data-name="facet-search"], [data-name="shop-product-search"])[data-hydrated]',
      )
      .waitFor();
  }
  return { context, page, problems };
}

/** Path and query of the page's URL. */
const here = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

const picture = screenshots('search');

/** Pictures of the page at 1280 and 375 px (with SCREENSHOTS=1), back at 1280 px after. */
const shot = async (page: Page, name: string) => {
  if (!screenshotsWanted) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await picture(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/**
 * The status line: 'N tulosta', 'Etsitään...' or the no-results text. It comes before the cards,
 * whose buy controls in the shop have status lines of their own.
 */
const status = (page: Page) => page.locator('main section[aria-busy] [role="status"]').first();

async function settled(page: Page) {
  await page.locator('section[aria-busy="false"]').first().waitFor();
}

/** The 'Näytä lisää' link of the results. */
const more = (page: Page) =>
  page.locator('main section[aria-busy]').getByRole('link', { name: t('search.showMore') });

/** Hits of the site search page, as links. */
const siteHits = (page: Page) => page.locator('main section[aria-busy] ol li a');
/** Cards of a product, recipe or newsroom search. */
const cards = (page: Page) => page.locator('main section[aria-busy] ul li article h3 a');

/** The total an endpoint answers on a site (asked from Node, with the site's host name). */
async function totalOf(site: string, endpoint: string, query: string): Promise<number> {
  return (await answerOf(site, endpoint, query)).totalCount;
}

interface Answer {
  totalCount: number;
  facetCategories: { name: string; facetTags: { id: number; name: string; count: number }[] }[];
}

/** What an endpoint answers on a site (asked from Node, with the site's host name). */
function answerOf(site: string, endpoint: string, query: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(
      {
        host: '127.0.0.1',
        port,
        path: `${endpoint}?${query}`,
        headers: { host: `${site}.localhost` },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`${endpoint}: ${response.statusCode}`));
          else resolve(JSON.parse(body) as Answer);
        });
      },
    );
    request.on('error', reject);
  });
}

describe('site search page: the URL is the state (spec §2)', () => {
  it('drops empty values', async () => {
    const { context, page } = await open('sibylla', '/haku?q=&empty=&x=1');
    await page
      .locator('main')
      .getByRole('searchbox', { name: t('search.label') })
      .fill('kana');
    await page
      .locator('main')
      .getByRole('searchbox', { name: t('search.label') })
      .press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'kana');
    expect(here(page)).toBe('/haku?q=kana&x=1');
    await context.close();
  });

  it('omits language, pageSize, contentGroup, skipPagination, matchAnyCategoryIds and sortOrder at their defaults', async () => {
    const { context, page } = await open(
      'sibylla',
      '/haku?q=kana&language=fi&pageSize=10&contentGroup=1&skipPagination=false&matchAnyCategoryIds=&sortOrder=0',
    );
    await page
      .locator('main')
      .getByRole('radio', { name: t('search.group.all') })
      .check();
    await page.waitForURL((url) => !url.searchParams.has('contentGroup'));
    expect(here(page)).toBe('/haku?q=kana');
    await page
      .locator('main')
      .getByRole('radio', { name: t('search.group.recipes') })
      .check();
    await page.waitForURL((url) => url.searchParams.get('contentGroup') === '2');
    expect(here(page)).toBe('/haku?q=kana&contentGroup=2');
    await context.close();
  });

  it('omits page 1 and writes the pages shown', async () => {
    const { context, page } = await open('sibylla', '/haku?q=kana&page=1');
    const showMore = more(page);
    expect(await showMore.getAttribute('href')).toBe('/haku?q=kana&page=2');
    await page
      .locator('main')
      .getByRole('radio', { name: t('search.group.products') })
      .check();
    await page.waitForURL((url) => url.searchParams.get('contentGroup') === '1');
    expect(here(page)).toBe('/haku?q=kana&contentGroup=1');
    await context.close();
  });

  it('keeps unknown parameters, as the links of site search bring them (currentPage=1)', async () => {
    const { context, page } = await open(
      'sibylla',
      '/haku?q=kana&contentGroup=0&currentPage=1&pageSize=10&utm_source=news',
    );
    expect(await siteHits(page).count()).toBe(10);
    await more(page).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    expect(here(page)).toBe('/haku?q=kana&currentPage=1&utm_source=news&page=2');
    await context.close();
  });

  it('takes facetTags as a comma list of numeric ids and writes them so', async () => {
    const { context, page } = await open('jyvabroiler', '/tuotteet');
    const checkboxes = page.locator('main details input[type="checkbox"]:not([disabled])');
    await page.locator('main details summary').first().click();
    const ids: string[] = [];
    for (const index of [0, 1]) {
      const box = checkboxes.nth(index);
      const id = (await box.getAttribute('value')) ?? '';
      ids.push(id);
      await box.check();
      await page.waitForURL((url) =>
        (url.searchParams.get('facetTags') ?? '').split(',').includes(id),
      );
      await settled(page);
    }
    expect(here(page)).toBe(`/tuotteet?facetTags=${ids.join(',')}`);
    // The same list comes back from a shared link, selected.
    await page.goto(`${origin('jyvabroiler')}/tuotteet?facetTags=${ids.join(',')}&x=&pageSize=12`);
    expect(await page.locator('main details input:checked').count()).toBe(2);
    await context.close();
  });
});

describe('site search page', () => {
  it('shows the results of a shared link before script, and a plain form and link', async () => {
    const total = await totalOf('sibylla', '/api/search/content/', 'q=kana');
    expect(total).toBeGreaterThan(10);
    const { context, page } = await open('sibylla', '/haku?q=kana&page=2', { javaScript: false });
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await siteHits(page).count()).toBe(Math.min(20, total));
    const showMore = more(page);
    if (total > 20) expect(await showMore.getAttribute('href')).toBe('/haku?q=kana&page=3');
    // Without script the form is a GET to the page itself.
    await page
      .locator('main')
      .getByRole('searchbox', { name: t('search.label') })
      .fill('broileri');
    await page
      .locator('main')
      .getByRole('searchbox', { name: t('search.label') })
      .press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'broileri');
    expect(await siteHits(page).count()).toBeGreaterThan(0);
    await context.close();
  });

  it("'Näytä lisää' appends the next page and the URL follows", async () => {
    const total = await totalOf('sibylla', '/api/search/content/', 'q=kana');
    const { context, page, problems } = await open('sibylla', '/haku?q=kana');
    const first = await siteHits(page).allTextContents();
    expect(first).toHaveLength(10);
    await more(page).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await expect.poll(() => siteHits(page).count()).toBe(Math.min(20, total));
    expect((await siteHits(page).allTextContents()).slice(0, 10)).toEqual(first);
    // The first new hit takes focus.
    expect(
      await siteHits(page)
        .nth(10)
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('filters by content group', async () => {
    const { context, page } = await open('sibylla', '/haku?q=kana');
    await page
      .locator('main')
      .getByRole('radio', { name: t('search.group.recipes') })
      .check();
    await page.waitForURL((url) => url.searchParams.get('contentGroup') === '2');
    await settled(page);
    const total = await totalOf('sibylla', '/api/search/content/', 'q=kana&contentGroup=2');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    const hrefs = await siteHits(page).evaluateAll((links) =>
      links.map((a) => a.getAttribute('href') ?? ''),
    );
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/reseptit\//);
    await context.close();
  });

  it('back, forward and reload restore the same results', async () => {
    const { context, page } = await open('sibylla', '/haku?q=kana');
    const kana = await siteHits(page).allTextContents();
    const box = page.locator('main').getByRole('searchbox', { name: t('search.label') });
    await box.fill('makkara');
    await box.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === 'makkara');
    await settled(page);
    const makkara = await siteHits(page).allTextContents();
    expect(makkara).not.toEqual(kana);
    await page.goBack();
    await expect.poll(() => siteHits(page).allTextContents()).toEqual(kana);
    expect(await box.inputValue()).toBe('kana');
    await page.goForward();
    await expect.poll(() => siteHits(page).allTextContents()).toEqual(makkara);
    await more(page).click();
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    await settled(page);
    const twoPages = await siteHits(page).allTextContents();
    await page.reload();
    await page.locator('k-island[data-name="site-search"][data-hydrated]').waitFor();
    expect(await siteHits(page).allTextContents()).toEqual(twoPages);
    expect(await box.inputValue()).toBe('makkara');
    await context.close();
  });

  it('axe finds nothing serious with results and without; screenshots', async () => {
    const { context, page, problems } = await open('sibylla', '/haku?q=kana');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'site-results');
    await page.goto(`${origin('sibylla')}/haku?q=xyzzyqwv`);
    await page.locator('k-island[data-name="site-search"][data-hydrated]').waitFor();
    expect(await status(page).textContent()).toBe(t('search.noResults'));
    expect(await more(page).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'site-none');
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it.each([1280, 375])(
    'each search landmark on the page has a name of its own (%i px)',
    async (width) => {
      const { context, page } = await open('sibylla', '/haku?q=kana', { width });
      await page.locator('k-island[data-name^="site-header"][data-hydrated]').waitFor();
      const names = async () =>
        page
          .getByRole('search')
          .evaluateAll((forms) => forms.map((form) => form.getAttribute('aria-label') ?? ''));
      // As the page opens, and with the header's mobile search panel open too.
      const shown = await names();
      expect(shown).toContain(t('search.pageLabel'));
      expect(new Set(shown).size).toBe(shown.length);
      if (width < 1024) {
        await page
          .locator('header')
          .getByRole('button', { name: t('header.searchToggle'), exact: true })
          .click();
        // The panel opens once the quick search's code has come (decision 160).
        await expect.poll(async () => (await names()).length).toBeGreaterThan(shown.length);
        const withPanel = await names();
        expect(new Set(withPanel).size).toBe(withPanel.length);
      } else {
        expect(shown).toContain(t('search.label'));
      }
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
  );
});

describe.each([
  ['products', '/tuotteet', '/api/search/products', 12],
  ['recipes', '/reseptit', '/api/search/recipes', 12],
] as const)('jyvabroiler %s search', (kind, url, endpoint, pageSize) => {
  it('facets and chips by keyboard only: Tab, Enter, Space, Escape', async () => {
    const { context, page, problems } = await open('jyvabroiler', url);
    const total = await totalOf('jyvabroiler', endpoint, '');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await cards(page).count()).toBe(Math.min(pageSize, total));

    const box = page.locator('main').getByRole('searchbox');
    await box.focus();
    await page.keyboard.type('broileri');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === 'broileri');
    await settled(page);
    const termTotal = await totalOf('jyvabroiler', endpoint, 'q=broileri');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: termTotal }));
    const termChip = page.locator('main').getByRole('button', {
      name: t('search.removeTerm', { name: 'broileri' }),
    });
    expect(await termChip.count()).toBe(1);

    // Tab from the box past 'Hae' to the first dropdown; Enter opens it.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const summary = page.locator('main details summary').first();
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const details = page.locator('main details').first();
    expect(await details.getAttribute('open')).not.toBeNull();
    // Tab to the first checkbox that can be chosen; Space chooses it.
    let name = '';
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        return el?.type === 'checkbox' && !el.disabled
          ? (el.closest('label')?.querySelector('span')?.textContent ?? '')
          : null;
      });
      if (focused) {
        name = focused;
        break;
      }
    }
    expect(name).not.toBe('');
    await page.keyboard.press('Space');
    await page.waitForURL((u) => u.searchParams.has('facetTags'));
    await settled(page);
    const tagId = new URL(page.url()).searchParams.get('facetTags') ?? '';
    expect(tagId).toMatch(/^\d+$/);
    const filtered = await totalOf('jyvabroiler', endpoint, `q=broileri&facetTags=${tagId}`);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: filtered }));
    expect(await summary.textContent()).toContain(t('search.selectedCount', { count: 1 }));
    // Escape closes the dropdown and gives focus back to its button.
    await page.keyboard.press('Escape');
    expect(await details.getAttribute('open')).toBeNull();
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await picture(page, `${kind}-chips-1280`);

    // The chip of the facet: reached by Tab, removed by Enter; results and URL follow.
    const chip = page
      .locator('main')
      .getByRole('button', { name: t('search.removeFilter', { name }) });
    for (let i = 0; i < 10; i++) {
      if (await chip.evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press('Tab');
    }
    expect(await chip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.searchParams.has('facetTags'));
    await settled(page);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: termTotal }));
    expect(here(page)).toBe(`${url}?q=broileri`);
    // Focus stays among the chips: on the term's, now the only one; Space removes it.
    expect(await termChip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    await page.waitForURL((u) => !u.searchParams.has('q'));
    await settled(page);
    expect(here(page)).toBe(url);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('works without script: native dropdowns in a plain GET form', async () => {
    const { context, page } = await open('jyvabroiler', url, { javaScript: false });
    await page.locator('main details summary').first().click();
    const box = page.locator('main details input[type="checkbox"]:not([disabled])').first();
    const id = (await box.getAttribute('value')) ?? '';
    await box.check();
    await page
      .locator('main')
      .getByRole('button', { name: t('search.button') })
      .click();
    await page.waitForURL((u) => u.searchParams.get('facetTags') === id);
    const total = await totalOf('jyvabroiler', endpoint, `facetTags=${id}`);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await page.locator('main details input:checked').getAttribute('value')).toBe(id);
    await context.close();
  });

  it("loading with page above 1 joins every page up to it; 'Näytä lisää' appends", async () => {
    const { context, page } = await open('jyvabroiler', `${url}?page=2`);
    expect(await cards(page).count()).toBe(2 * pageSize);
    const showMore = more(page);
    expect(await showMore.getAttribute('href')).toBe(`${url}?page=3`);
    const before = await cards(page).allTextContents();
    await showMore.click();
    await page.waitForURL((u) => u.searchParams.get('page') === '3');
    await expect.poll(() => cards(page).count()).toBe(3 * pageSize);
    expect((await cards(page).allTextContents()).slice(0, 2 * pageSize)).toEqual(before);
    // The first new card takes focus, so a keyboard user reads on from there.
    expect(
      await cards(page)
        .nth(2 * pageSize)
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    // Back to a URL with page 2 after a new search: the browser joins the two pages itself.
    await page.locator('main').getByRole('searchbox').fill('kana');
    await page.locator('main').getByRole('searchbox').press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === 'kana');
    await settled(page);
    await page.goBack();
    await page.waitForURL((u) => u.searchParams.get('page') === '3');
    await expect.poll(() => cards(page).count()).toBe(3 * pageSize);
    expect((await cards(page).allTextContents()).slice(0, 2 * pageSize)).toEqual(before);
    await context.close();
  });

  it("axe with results (dropdown open) and with 'Ei tuloksia'; screenshots", async () => {
    const { context, page, problems } = await open('jyvabroiler', url);
    await page.locator('main details summary').first().click();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${kind}-open`);
    await page.keyboard.press('Escape');
    await shot(page, kind);
    await page.goto(`${origin('jyvabroiler')}${url}?q=xyzzyqwv`);
    await page.locator('k-island[data-name="facet-search"][data-hydrated]').waitFor();
    expect(await status(page).textContent()).toBe(t('search.noResultsShort'));
    expect(await cards(page).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, `${kind}-none`);
    expect(problems.console).toEqual([]);
    await context.close();
  });
});

describe('a facet none of whose choices would narrow the results', () => {
  it('is not shown, with script and without; choices of none stay disabled; axe', async () => {
    // jyvabroiler's recipes are all of chicken: the ingredient facet has 'Broileri' in every
    // result and the other ingredients in none.
    const answer = await answerOf('jyvabroiler', '/api/search/recipes', '');
    const narrows = (c: Answer['facetCategories'][number]) =>
      c.facetTags.some((tag) => tag.count > 0 && tag.count < answer.totalCount);
    const idle = answer.facetCategories.filter((c) => !narrows(c));
    const shown = answer.facetCategories.filter(narrows).map((c) => c.name);
    expect(idle.map((c) => c.name)).toContain('Raaka-aine');
    expect(shown.length).toBeGreaterThan(1);
    for (const javaScript of [true, false]) {
      const { context, page, problems } = await open('jyvabroiler', '/reseptit', { javaScript });
      expect(await page.locator('main details summary').allTextContents()).toEqual(shown);
      // The facets shown keep their choices of no results, disabled.
      const options = await page.locator('main details label').evaluateAll((labels) =>
        labels.map((label) => ({
          zero: label.textContent?.endsWith('(0)') ?? false,
          disabled: label.querySelector('input')?.disabled ?? false,
        })),
      );
      expect(options.some((option) => option.zero)).toBe(true);
      for (const option of options) expect(option.disabled).toBe(option.zero);
      if (javaScript) {
        // The dropdown with choices of none open.
        await page.locator('main details summary', { hasText: 'Valmistustapa' }).click();
        expect(await seriousViolations(page)).toEqual([]);
        await shot(page, 'recipes-facets-narrowing');
        expect(problems.console).toEqual([]);
      }
      await context.close();
    }
    // A chosen tag keeps its facet shown, so it can be taken off again.
    const chicken = idle
      .find((c) => c.name === 'Raaka-aine')
      ?.facetTags.find((tag) => tag.count === answer.totalCount);
    expect(chicken).toBeDefined();
    const { context, page } = await open('jyvabroiler', `/reseptit?facetTags=${chicken?.id}`);
    const summaries = await page.locator('main details summary').allTextContents();
    expect(summaries.some((name) => name.startsWith('Raaka-aine'))).toBe(true);
    expect(await page.locator('main details input:checked').getAttribute('value')).toBe(
      String(chicken?.id),
    );
    await context.close();
  });
});

describe('food-service product search: results until asked, product-group toggles (spec §4)', () => {
  const hidden = t('search.hiddenUntilSearch');
  const groups = (page: Page) =>
    page.getByRole('group', { name: t('search.productGroups') }).getByRole('button');

  it('shows nothing before a choice; a group pressed by keyboard shows its products, again hides them', async () => {
    const { context, page, problems } = await open('ammattilaiset', '/tuotteet');
    await settled(page);
    expect(await status(page).textContent()).toBe(hidden);
    expect(await cards(page).count()).toBe(0);
    // The site's product groups replace its product-group facet.
    const names = await groups(page).allTextContents();
    expect(names).toContain('Broileri');
    expect(names.length).toBeGreaterThan(3);
    expect(await page.locator('main details summary').allTextContents()).not.toContain(
      'Tuoteryhmä',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'food-products-hidden');

    const broileri = groups(page).filter({ hasText: 'Broileri' });
    await broileri.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('productGroup') === 'Broileri');
    await settled(page);
    const total = await totalOf('ammattilaiset', '/api/search/products', 'productGroup=Broileri');
    expect(total).toBeGreaterThan(0);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await broileri.getAttribute('aria-pressed')).toBe('true');
    expect(await cards(page).count()).toBe(Math.min(total, 12));
    expect(await broileri.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'food-products-group');

    // Another group takes its place; pressed again, it goes and the results hide again.
    const other = groups(page).filter({ hasNotText: 'Broileri' }).first();
    const otherName = ((await other.textContent()) ?? '').trim();
    await other.focus();
    await page.keyboard.press('Space');
    await page.waitForURL((u) => u.searchParams.get('productGroup') === otherName);
    await expect.poll(() => broileri.getAttribute('aria-pressed')).toBe('false');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.searchParams.get('productGroup'));
    await settled(page);
    expect(await status(page).textContent()).toBe(hidden);
    expect(await cards(page).count()).toBe(0);
    // A term shows results with no group chosen.
    await page.locator('main input[type="search"]').fill('nakki');
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.searchParams.get('q') === 'nakki');
    await settled(page);
    expect(await status(page).textContent()).not.toBe(hidden);
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('works without script: the toggles submit the plain form, and a new term keeps the group', async () => {
    const { context, page } = await open('ammattilaiset', '/tuotteet', { javaScript: false });
    expect(await status(page).textContent()).toBe(hidden);
    await groups(page).filter({ hasText: 'Broileri' }).click();
    await page.waitForURL((u) => u.searchParams.get('productGroup') === 'Broileri');
    const total = await totalOf('ammattilaiset', '/api/search/products', 'productGroup=Broileri');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    await page.locator('main input[type="search"]').fill('fileesuikale');
    await page
      .locator('main')
      .getByRole('button', { name: t('search.button') })
      .click();
    await page.waitForURL(
      (u) => u.searchParams.get('q') === 'fileesuikale' && u.searchParams.has('productGroup'),
    );
    await groups(page).filter({ hasText: 'Broileri' }).click();
    await page.waitForURL((u) => !u.searchParams.get('productGroup'));
    expect(await groups(page).filter({ hasText: 'Broileri' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await context.close();
  });
});

describe('newsroom and shop product searches', () => {
  it('corporate newsroom: newest first, topic facet, server-rendered, axe', async () => {
    const total = await totalOf('konsernifi', '/api/search/newsroom', '');
    const { context, page, problems } = await open('konsernifi', '/uutiset');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    const dates = await page
      .locator('main section article time')
      .evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
    expect(dates.length).toBe(10);
    expect([...dates].sort().reverse()).toEqual(dates);
    await page.locator('main details summary').first().click();
    await page.locator('main details input[type="checkbox"]:not([disabled])').first().check();
    await page.waitForURL((u) => u.searchParams.has('facetTags'));
    await settled(page);
    const tags = new URL(page.url()).searchParams.get('facetTags');
    const filtered = await totalOf('konsernifi', '/api/search/newsroom', `facetTags=${tags}`);
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: filtered }));
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await shot(page, 'newsroom');
    expect(problems.console).toEqual([]);
    await context.close();
  });

  it('shop: the product grid searches the shop catalogue, numberOfProducts per page', async () => {
    const total = await totalOf('lihakauppa', '/api/search/lihakauppa-products', 'q=jauheliha');
    const { context, page, problems } = await open('lihakauppa', '/tuotteet?q=jauheliha');
    expect(await status(page).textContent()).toBe(t('search.resultCount', { count: total }));
    expect(await cards(page).count()).toBe(Math.min(24, total));
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'shop');
    expect(problems.console).toEqual([]);
    await context.close();
  });
});
