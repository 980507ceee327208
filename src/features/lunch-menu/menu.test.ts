import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createPage, createRecipe } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { arrive, fromAddress, type Visitor } from '../../../tests/helpers/visitor.ts';
import { MENU_LIMITS_PER_MINUTE } from './routes.server.ts';
import {
  TOO_LONG,
  TOO_MANY_CARDS,
  TOO_MANY_WEEKS,
  UNKNOWN_RECIPE,
  WEEK_ORDER,
  WEEK_OUT_OF_RANGE,
  WEEKDAYS_ONLY,
} from './schemas.ts';
import { lunchMenus } from './tables.ts';
import {
  MENU_API,
  MENU_ID_PATTERN,
  MENU_RECIPES_API,
  type MenuRecipes,
  type MenuWeek,
  stepWeek,
  weekBounds,
} from './values.ts';

/**
 * The lunch menu's API (spec shop-and-widgets §3, §7, §9; decision 042): the site's recipes by
 * name, the default menu, saving and reading back, immutability, and bad input that answers 400
 * naming the field and stores nothing.
 */

const HOST = 'ammattilaiset.localhost';
const PAGE = '/ideat/lounaslista';
let t: TestApp;
let n = 0;
const links: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createPage(db, { siteId: 'ammattilaiset', path: '/', type: 'home', title: 'Etusivu' });
  await createPage(db, {
    siteId: 'ammattilaiset',
    path: PAGE,
    title: 'Lounaslista',
    navLabel: 'Lounaslista',
    settings: { widget: 'lunch-menu' },
  });
  for (const title of [
    'Broileripasta',
    'Jauhelihakeitto',
    'Kinkkukiusaus',
    'Lihapullat',
    'Nakkikastike',
    'Porsaanleike',
  ]) {
    const image = await createImage(db);
    const recipe = await createRecipe(db, {
      siteId: 'ammattilaiset',
      path: `/reseptit/${title.toLowerCase()}`,
      title,
      imageId: image.id,
    });
    links.push(recipe.path);
  }
  await createRecipe(db, { siteId: 'sibylla', path: '/reseptit/vieras', title: 'Vieras' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A visitor of the food-service site from an address of its own (limits count per address). */
async function visitor(): Promise<Visitor> {
  n += 1;
  const v = await arrive(t.app, '/', { host: HOST });
  return fromAddress(v, `10.16.${Math.floor(n / 250)}.${(n % 250) + 1}`);
}

const json = (body: unknown) => ({
  payload: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const card = (link: string, header = 'Mikä tahansa') => ({ header, link, image: '' });

/** A valid week: this ISO week (or `offset` weeks on), one dish a day. */
function week(offset = 0, extra: Record<string, unknown> = {}) {
  const { year, week: number } = stepWeek(weekBounds().first, offset);
  return {
    year,
    week: number,
    heading: 'Viikon lounas',
    text: 'Hyvää ruokahalua!',
    background: 'leaves',
    monday: [card(links[0] ?? '')],
    tuesday: [card(links[1] ?? '')],
    wednesday: [card(links[2] ?? ''), card(links[3] ?? '')],
    thursday: [],
    friday: [card(links[4] ?? '')],
    ...extra,
  };
}

async function storedCount(): Promise<number> {
  const [row] = await t.app.db.select({ n: count() }).from(lunchMenus);
  return row?.n ?? 0;
}

async function save(v: Visitor, body: unknown) {
  return v.post(MENU_API, json(body));
}

describe('the recipes', () => {
  it('answers the site’s own recipes by name with link and image', async () => {
    const res = await (await visitor()).get(MENU_RECIPES_API);
    expect(res.statusCode, res.body).toBe(200);
    const recipes = res.json() as MenuRecipes;
    expect(Object.keys(recipes)).toEqual([
      'Broileripasta',
      'Jauhelihakeitto',
      'Kinkkukiusaus',
      'Lihapullat',
      'Nakkikastike',
      'Porsaanleike',
    ]);
    expect(recipes.Lihapullat).toEqual({
      link: '/reseptit/lihapullat',
      image: expect.stringMatching(/^\/images\/\d+\/lihapullat\.jpg\?preset=card-wide$/),
    });
  });

  it('is not offered on a site outside food service', async () => {
    const res = await t.app.inject({
      url: MENU_RECIPES_API,
      headers: { host: 'sibylla.localhost' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});

describe('reading a menu', () => {
  it('answers a default menu of this week from the site’s recipes without a menuId', async () => {
    const res = await (await visitor()).get(`${MENU_API}?page=2`);
    expect(res.statusCode, res.body).toBe(200);
    const weeks = res.json() as MenuWeek[];
    expect(weeks).toHaveLength(1);
    expect(weeks[0]).toMatchObject({ ...weekBounds().first, background: 'plain' });
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const) {
      const cards = weeks[0]?.[day] ?? [];
      expect(cards.length).toBe(1);
      for (const c of cards) expect(links).toContain(c.link);
    }
  });

  it('answers 404 problem+json for an id no menu has and 400 for a malformed one', async () => {
    const v = await visitor();
    const unknown = await v.get(`${MENU_API}?menuId=AAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    const malformed = await v.get(`${MENU_API}?menuId=../x`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().errors).toEqual({ menuId: 'validation.invalid' });
  });
});

describe('saving a menu', () => {
  it('saves the weeks under a new unguessable id and reads them back', async () => {
    const v = await visitor();
    const before = await storedCount();
    // The header and image of a post are not kept: the recipe's own are.
    const body = [
      week(0, {
        monday: [{ header: 'Väärä nimi', link: links[3], image: 'https://evil.example/x.jpg' }],
      }),
    ];
    const res = await save(v, body);
    expect(res.statusCode, res.body).toBe(200);
    const { menuId } = res.json() as { menuId: string };
    expect(menuId).toMatch(MENU_ID_PATTERN);
    expect(await storedCount()).toBe(before + 1);

    const read = await v.get(`${MENU_API}?menuId=${menuId}`);
    expect(read.statusCode, read.body).toBe(200);
    const recipes = (await v.get(MENU_RECIPES_API)).json() as MenuRecipes;
    const expected = week(0);
    expect(read.json()).toEqual([
      {
        year: expected.year,
        week: expected.week,
        heading: 'Viikon lounas',
        text: 'Hyvää ruokahalua!',
        background: 'leaves',
        monday: [{ header: 'Lihapullat', link: links[3], image: recipes.Lihapullat?.image }],
        tuesday: [
          { header: 'Jauhelihakeitto', link: links[1], image: recipes.Jauhelihakeitto?.image },
        ],
        wednesday: [
          { header: 'Kinkkukiusaus', link: links[2], image: recipes.Kinkkukiusaus?.image },
          { header: 'Lihapullat', link: links[3], image: recipes.Lihapullat?.image },
        ],
        thursday: [],
        friday: [{ header: 'Nakkikastike', link: links[4], image: recipes.Nakkikastike?.image }],
      },
    ]);
  });

  it('never changes a saved menu: a second save is a new id, and the row refuses updates', async () => {
    const v = await visitor();
    const first = (await save(v, [week(0)])).json() as { menuId: string };
    const second = (await save(v, [week(0, { heading: 'Toinen' })])).json() as { menuId: string };
    expect(second.menuId).not.toBe(first.menuId);
    const read = (await v.get(`${MENU_API}?menuId=${first.menuId}`)).json() as MenuWeek[];
    expect(read[0]?.heading).toBe('Viikon lounas');
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      const res = await v.request(method, `${MENU_API}?menuId=${first.menuId}`, json([week(0)]));
      expect(res.statusCode).toBe(404);
    }
    const update = await t.app.db
      .execute(sql`update lunch_menus set weeks = '[]'::jsonb where id = ${first.menuId}`)
      .then(
        () => 'updated',
        (error: Error) => String(error.cause ?? error),
      );
    expect(update).toMatch(/lunch_menus rows are immutable/);
    const [row] = await t.app.db.select().from(lunchMenus).where(eq(lunchMenus.id, first.menuId));
    expect(row?.weeks[0]?.heading).toBe('Viikon lounas');
  });

  it('is refused without the anti-forgery header', async () => {
    const v = await visitor();
    const before = await storedCount();
    const res = await v.post(MENU_API, { ...json([week(0)]), xsrf: false });
    expect(res.statusCode).toBe(403);
    expect(await storedCount()).toBe(before);
  });
});

describe('bad input answers 400 naming the field and stores nothing', () => {
  const last = weekBounds().last;
  // Built when each test runs: the recipes' links are known only after `beforeAll`.
  const cases: [string, () => unknown, Record<string, string>][] = [
    [
      'an unknown recipe link',
      () => [week(0, { tuesday: [card('/reseptit/ei-ole')] })],
      { 'weeks.0.tuesday.0.link': UNKNOWN_RECIPE },
    ],
    [
      'another site’s recipe',
      () => [week(0, { friday: [card('/reseptit/vieras')] })],
      { 'weeks.0.friday.0.link': UNKNOWN_RECIPE },
    ],
    [
      'a link off the site',
      () => [week(0, { monday: [card('https://evil.example/reseptit/x')] })],
      { 'weeks.0.monday.0.link': UNKNOWN_RECIPE },
    ],
    ['too many weeks', () => Array.from({ length: 11 }, () => week(0)), { weeks: TOO_MANY_WEEKS }],
    ['no weeks', () => [], { weeks: 'validation.required' }],
    [
      'a week past 31 December',
      () => [week(0, { ...stepWeek(last, 1) })],
      { 'weeks.0.week': WEEK_OUT_OF_RANGE },
    ],
    [
      'a week of next year',
      () => [week(0, { year: last.year + 1, week: 10 })],
      { 'weeks.0.week': WEEK_OUT_OF_RANGE },
    ],
    [
      'a past week',
      () => [week(0, { ...stepWeek(weekBounds().first, -1) })],
      { 'weeks.0.week': WEEK_OUT_OF_RANGE },
    ],
    ['a week 54', () => [week(0, { week: 54 })], { 'weeks.0.week': 'validation.invalid' }],
    ['the same week twice', () => [week(0), week(0)], { 'weeks.1.week': WEEK_ORDER }],
    [
      'a missing weekday',
      () => [week(0, { friday: undefined })],
      { 'weeks.0.friday': 'validation.required' },
    ],
    ['a sixth weekday', () => [week(0, { saturday: [] })], { 'weeks.0.saturday': WEEKDAYS_ONLY }],
    [
      'too many dishes a day',
      () => [week(0, { monday: Array.from({ length: 5 }, () => card(links[0] ?? '')) })],
      { 'weeks.0.monday': TOO_MANY_CARDS },
    ],
    [
      'a heading too long',
      () => [week(0, { heading: 'x'.repeat(81) })],
      { 'weeks.0.heading': TOO_LONG },
    ],
    ['a text too long', () => [week(0, { text: 'x'.repeat(601) })], { 'weeks.0.text': TOO_LONG }],
    [
      'a control character',
      () => [week(0, { heading: 'a\u0007b' })],
      { 'weeks.0.heading': 'validation.invalid' },
    ],
    [
      'an unknown background',
      () => [week(0, { background: 'url(x)' })],
      { 'weeks.0.background': 'validation.invalid' },
    ],
    ['an object for the list', () => ({ weeks: [week(0)] }), { weeks: expect.any(String) }],
    ['a week that is not an object', () => ['viikko'], { 'weeks.0': expect.any(String) }],
  ];

  for (const [name, body, errors] of cases) {
    it(name, async () => {
      const before = await storedCount();
      const res = await save(await visitor(), body());
      expect(res.statusCode, res.body).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors).toMatchObject(errors);
      expect(await storedCount()).toBe(before);
    });
  }

  it('a body that is not JSON', async () => {
    const before = await storedCount();
    const res = await save(await visitor(), '[{"year": 2026,');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(await storedCount()).toBe(before);
  });
});

describe('the rate limit', () => {
  it('refuses more saves than the limit from one address in a minute with 429', async () => {
    const v = await visitor();
    const { max } = MENU_LIMITS_PER_MINUTE.save;
    for (let i = 0; i < max; i++) expect((await save(v, [week(0)])).statusCode).toBe(200);
    const before = await storedCount();
    const res = await save(v, [week(0)]);
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(await storedCount()).toBe(before);
    // Another address still saves.
    expect((await save(await visitor(), [week(0)])).statusCode).toBe(200);
  });
});

describe('the page', () => {
  it('renders the default menu on the lunch-menu page, and a saved one from its menuId', async () => {
    const v = await visitor();
    const page = await v.get(PAGE);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-name="lunch-menu"');
    expect(page.body).toContain('data-hydrate="idle"');
    const { menuId } = (await save(v, [week(0, { heading: 'Tallennettu lista' })])).json() as {
      menuId: string;
    };
    const saved = await v.get(`${PAGE}?menuId=${menuId}`);
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Tallennettu lista');
    expect(saved.body).toContain('href="/reseptit/nakkikastike"');
    const unknown = await v.get(`${PAGE}?menuId=AAAAAAAAAAAAAAAAAAAAAA`);
    expect(unknown.statusCode).toBe(404);
  });
});
