import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createPage } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { sessions } from '../../server/tables.ts';
import { desktopNavSchema, mobileNavSchema } from './schemas.ts';

let t: TestApp;
let recipesId = 0;
const host = { host: 'sibylla.localhost' };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const image = await createImage(db);
  const home = await createPage(db, {
    siteId: 'sibylla',
    path: '/',
    type: 'home',
    title: 'Sibylla',
  });
  const products = await createPage(db, {
    siteId: 'sibylla',
    path: '/tuotteet',
    title: 'Tuotteet',
    parentId: home.id,
    sortOrder: 1,
    teaserImageId: image.id,
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/tuotteet/makkarat',
    title: 'Makkarat',
    parentId: products.id,
    sortOrder: 1,
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/tuotteet/burgerit',
    title: 'Burgerit',
    parentId: products.id,
    sortOrder: 2,
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/tuotteet/piilo',
    title: 'Piilossa',
    parentId: products.id,
    showInNav: false,
  });
  const recipes = await createPage(db, {
    siteId: 'sibylla',
    path: '/reseptit',
    title: 'Reseptit',
    navLabel: 'Ruokaohjeet',
    parentId: home.id,
    sortOrder: 2,
  });
  recipesId = recipes.id;
  await createPage(db, {
    siteId: 'sibylla',
    path: '/reseptit/grilli',
    title: 'Grilliruoat',
    parentId: recipes.id,
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/ota-yhteytta',
    title: 'Ota yhteyttä',
    parentId: home.id,
    navArea: 'top',
    icon: 'mail',
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/',
    lang: 'sv',
    type: 'home',
    title: 'Sibylla',
  });
  await createPage(db, {
    siteId: 'lithellsse',
    path: '/',
    lang: 'sv',
    type: 'home',
    title: 'Lithells',
  });
  const goohHome = await createPage(db, {
    siteId: 'goohse',
    path: '/',
    lang: 'sv',
    type: 'home',
    title: 'GOOH!',
    showInNav: false,
  });
  await createPage(db, {
    siteId: 'goohse',
    path: '/produkter',
    lang: 'sv',
    title: 'Produkter',
    parentId: goohHome.id,
  });
});

afterAll(() => t.close());

describe('caching of /api/nav/*', () => {
  it.each(['/api/nav/desktop?languageId=fi', '/api/nav/mobile?languageId=fi'])(
    '%s is public and carries no session or cookie',
    async (url) => {
      const sessionsBefore = await t.app.db.select().from(sessions);
      const res = await t.app.inject({ url, headers: host });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['set-cookie']).toBeUndefined();
      // A visitor's cookies are neither needed nor renewed.
      const withCookies = await t.app.inject({
        url,
        headers: { ...host, cookie: `kattaus_session=${'a'.repeat(43)}; XSRF-TOKEN=x` },
      });
      expect(withCookies.headers['set-cookie']).toBeUndefined();
      expect(withCookies.headers['cache-control']).toBe('public, max-age=60');
      expect(await t.app.db.select().from(sessions)).toHaveLength(sessionsBefore.length);
    },
  );
});

describe('GET /api/nav/desktop', () => {
  it('answers the page tree as top and bottom tabs with children, teaser and language menu', async () => {
    const res = await t.app.inject({ url: '/api/nav/desktop?languageId=fi', headers: host });
    expect(res.statusCode).toBe(200);
    const nav = desktopNavSchema.parse(res.json());
    expect(nav.bottomTabs.map((tab) => tab.label)).toEqual(['Tuotteet', 'Ruokaohjeet']);
    expect(nav.topTabs.map((tab) => [tab.label, tab.icon])).toEqual([['Ota yhteyttä', 'mail']]);
    const products = nav.bottomTabs[0];
    expect(products?.children.map((c) => [c.label, c.link])).toEqual([
      ['Makkarat', '/tuotteet/makkarat'],
      ['Burgerit', '/tuotteet/burgerit'],
    ]);
    expect(products?.teaserImage).toMatch(/^\/images\/\d+\/tuotteet\.jpg\?preset=third$/);
    expect(products?.showMoreLabel).toBe('Näytä kaikki: Tuotteet');
    expect(nav.languageMenu).toEqual([
      { label: 'På svenska', link: '/sv/', lang: 'sv' },
      { label: 'In English', link: '/en/', lang: 'en' },
    ]);
  });

  it('is public: a shared cache may keep it, so it sets no session or anti-forgery cookie', async () => {
    for (const path of ['/api/nav/desktop', '/api/nav/mobile']) {
      const res = await t.app.inject({ url: `${path}?languageId=fi`, headers: host });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['set-cookie'], path).toBeUndefined();
    }
  });

  it('takes the children of a home page that is itself not in the menus', async () => {
    const res = await t.app.inject({
      url: '/api/nav/desktop?languageId=se',
      headers: { host: 'goohse.localhost' },
    });
    const nav = desktopNavSchema.parse(res.json());
    expect(nav.bottomTabs.map((tab) => tab.link)).toEqual(['/produkter']);
  });

  it('answers the Swedish version for languageId=se with prefixed links', async () => {
    const res = await t.app.inject({ url: '/api/nav/desktop?languageId=se', headers: host });
    const nav = desktopNavSchema.parse(res.json());
    expect(nav.bottomTabs).toEqual([]);
    expect(nav.languageMenu.map((l) => l.link)).toEqual(['/', '/en/']);
  });

  it('refuses a language the site does not have, and bad parameters, with problem+json', async () => {
    const de = await t.app.inject({ url: '/api/nav/desktop?languageId=de', headers: host });
    expect(de.statusCode).toBe(404);
    const bad = await t.app.inject({
      url: '/api/nav/desktop?languageId=xx&pageId=abc',
      headers: host,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toContain('application/problem+json');
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['languageId', 'pageId']),
    );
    const unknown = await t.app.inject({
      url: '/api/nav/desktop?languageId=fi&evil=1',
      headers: host,
    });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('GET /api/nav/mobile', () => {
  it('answers bar links in capitals, accordions expanded for the current page, and utility links', async () => {
    const res = await t.app.inject({
      url: `/api/nav/mobile?languageId=fi&pageId=${recipesId}`,
      headers: host,
    });
    expect(res.statusCode).toBe(200);
    const nav = mobileNavSchema.parse(res.json());
    expect(nav.barLinks).toEqual([
      { label: 'TUOTTEET', link: '/tuotteet' },
      { label: 'RUOKAOHJEET', link: '/reseptit' },
    ]);
    expect(nav.navAccordions.map((a) => [a.label, a.expanded])).toEqual([
      ['Tuotteet', false],
      ['Ruokaohjeet', true],
    ]);
    expect(nav.navLinks).toEqual([{ label: 'Ota yhteyttä', link: '/ota-yhteytta', icon: 'mail' }]);
  });

  it('refuses a page of another site', async () => {
    const res = await t.app.inject({
      url: `/api/nav/mobile?languageId=se&pageId=${recipesId}`,
      headers: { host: 'lithellsse.localhost' },
    });
    expect(res.statusCode).toBe(404);
  });
});
