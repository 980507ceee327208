import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImage,
  createNews,
  createPage,
  createProduct,
  createRecipe,
} from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';

let t: TestApp;
const host = { host: 'sibylla.localhost' };
const get = (url: string, headers: Record<string, string> = host) => t.app.inject({ url, headers });

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  const image = await createImage(db);
  const home = await createPage(db, {
    siteId: 'sibylla',
    path: '/',
    type: 'home',
    title: 'Sibylla',
    translationKey: 'home',
    blocks: [
      {
        type: 'hero-carousel',
        slides: [
          {
            imageId: image.id,
            text: '<h2>Grillikausi</h2><script>alert(1)</script>',
            textAlignment: 'Center',
            darken: true,
          },
        ],
      },
      {
        type: 'card-grid',
        header: 'Suosikit',
        cardType: 'recipeCard',
        cards: [
          {
            type: 'recipeCard',
            link: '/reseptit/jauhelihakastike',
            header: 'Jauhelihakastike',
            totalTime: 75,
            likeCount: 12,
            imageId: image.id,
          },
        ],
      },
    ],
  });
  const products = await createPage(db, {
    siteId: 'sibylla',
    path: '/tuotteet',
    type: 'product-list',
    title: 'Tuotteet',
    parentId: home.id,
    translationKey: 'products',
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/yritys',
    type: 'content',
    title: 'Yritys',
    teaser: 'Tietoa meistä',
    parentId: home.id,
    translationKey: 'company',
    blocks: [
      {
        type: 'rich-text',
        html: '<p>Perustettu <strong>1954</strong>.</p><img src=x onerror=alert(1)>',
      },
    ],
  });
  await createPage(db, {
    siteId: 'sibylla',
    path: '/yritys/historia',
    title: 'Historia',
    parentId: products.id + 1,
    translationKey: 'history',
  });
  for (let i = 0; i < 30; i++) {
    await createProduct(db, {
      siteId: 'sibylla',
      path: `/tuotteet/makkarat/grillimakkara-${String(i).padStart(2, '0')}`,
      name: `Grillimakkara ${String(i).padStart(2, '0')}`,
      imageIds: [image.id],
    });
  }
  await createProduct(db, {
    siteId: 'sibylla',
    path: '/tuotteet/kaupan/naudan-jauheliha',
    name: 'Naudan jauheliha 400 g',
    kind: 'shop-product',
    priceCents: 549,
    pricePerKgCents: 1373,
    svhPriceCents: 649,
    discountPercentage: 15,
    stock: 0,
  });
  await createRecipe(db, {
    siteId: 'sibylla',
    path: '/reseptit/jauhelihakastike',
    title: 'Jauhelihakastike',
    imageId: image.id,
  });
  await createNews(db, {
    siteId: 'sibylla',
    path: '/uutiset/2026/grillikausi-alkaa',
    title: 'Grillikausi alkaa',
    imageId: image.id,
  });
});

afterAll(() => t.close());

describe('home page', () => {
  it('renders the hero carousel and card grids from its blocks, with sanitised rich text', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('aria-roledescription="carousel"');
    expect(res.body).toContain('<h2>Grillikausi</h2>');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).toContain('Suosikit');
    expect(res.body).toContain('1h 15min');
    expect(res.body).toMatch(
      /<img[^>]+src="\/images\/\d+\/[^"]*preset=hero[^"]*"[^>]+width="\d+"[^>]+height="\d+"/,
    );
  });
});

describe('content page', () => {
  it('shows breadcrumbs, title, teaser and sanitised blocks', async () => {
    const res = await get('/yritys');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Yritys</h1>');
    expect(res.body).toContain('Tietoa meistä');
    expect(res.body).toContain('<strong>1954</strong>');
    expect(res.body).not.toContain('onerror');
    expect(res.body).toMatch(
      /aria-label="Murupolku"[\s\S]*href="\/"[\s\S]*aria-current="page">Yritys/,
    );
    expect(res.body).toContain('<title>Yritys | Sibylla</title>');
  });

  it('redirects a trailing slash to the canonical path, keeping the query', async () => {
    const res = await get('/yritys/?a=1');
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/yritys?a=1');
  });

  it('answers an unknown path with 404', async () => {
    expect((await get('/ei-ole-olemassa')).statusCode).toBe(404);
  });
});

describe('listing page', () => {
  it('lists the products under it, 24 per page, with links to the next page', async () => {
    const first = await get('/tuotteet');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('31 kpl');
    expect(first.body.match(/data-card-type=/g)?.length).toBe(24);
    expect(first.body).toContain('href="/tuotteet?page=2"');
    const second = await get('/tuotteet?page=2');
    expect(second.body.match(/data-card-type=/g)?.length).toBe(7);
    expect(second.body).toContain('href="/tuotteet"');
  });

  it('treats a nonsense page number as the first page', async () => {
    const res = await get('/tuotteet?page=abc');
    expect(res.statusCode).toBe(200);
    expect(res.body.match(/data-card-type=/g)?.length).toBe(24);
  });
});

describe('product page', () => {
  it('shows the product with its code, EAN, ingredients and nutrition table', async () => {
    const res = await get('/tuotteet/makkarat/grillimakkara-03');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Grillimakkara 03</h1>');
    expect(res.body).toContain('6410405082657');
    expect(res.body).toContain('sianliha, vesi, suola');
    expect(res.body).toContain('<th scope="row">Proteiini</th>');
    expect(res.body).toMatch(/aria-label="Murupolku"[\s\S]*href="\/tuotteet"/);
  });

  it('shows a shop product’s price, price per kg, discount and stock', async () => {
    const res = await get('/tuotteet/kaupan/naudan-jauheliha');
    expect(res.body).toContain('5,49\u00a0€');
    expect(res.body).toContain('13,73\u00a0€/kg');
    expect(res.body).toContain('-15 %');
    expect(res.body).toContain('Tilapäisesti loppu');
  });
});

describe('recipe page', () => {
  it('shows time, servings, ingredients with product links and steps', async () => {
    const res = await get('/reseptit/jauhelihakastike');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Jauhelihakastike</h1>');
    expect(res.body).toContain('1h 15min');
    expect(res.body).toContain('400 g <a href="/tuotteet/jauheliha">jauhelihaa</a>');
    expect(res.body).toContain('Ruskista jauheliha');
  });
});

describe('news article', () => {
  it('shows the date, text type, body and authors', async () => {
    const res = await get('/uutiset/2026/grillikausi-alkaa');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Grillikausi alkaa</h1>');
    expect(res.body).toContain('4.5.2026');
    expect(res.body).toContain('Lehdistötiedote');
    expect(res.body).toContain('Maija Meikäläinen');
  });
});

describe('languages', () => {
  it('does not find a Finnish page under the English prefix', async () => {
    expect((await get('/en/yritys')).statusCode).toBe(404);
  });
});

function jsonLdOf(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
  );
}

describe('search engine markup in the pages', () => {
  it('a product page carries canonical, Open Graph and Product JSON-LD with what Google requires', async () => {
    const res = await get('/tuotteet/kaupan/naudan-jauheliha');
    expect(res.body).toContain(
      '<link rel="canonical" href="http://sibylla.localhost/tuotteet/kaupan/naudan-jauheliha"/>',
    );
    expect(res.body).toMatch(/<meta property="og:type" content="product"\/>/);
    const product = jsonLdOf(res.body).find((d) => d['@type'] === 'Product');
    expect(product).toMatchObject({
      name: 'Naudan jauheliha 400 g',
      offers: {
        price: '5.49',
        priceCurrency: 'EUR',
        availability: 'https://schema.org/OutOfStock',
      },
    });
    expect(jsonLdOf(res.body).some((d) => d['@type'] === 'BreadcrumbList')).toBe(true);
  });

  it('a recipe page carries Recipe JSON-LD with name, image, ingredients, steps and times', async () => {
    const res = await get('/reseptit/jauhelihakastike');
    const recipe = jsonLdOf(res.body).find((d) => d['@type'] === 'Recipe');
    expect(recipe).toMatchObject({
      name: 'Jauhelihakastike',
      totalTime: 'PT1H15M',
      recipeYield: expect.anything(),
    });
    expect(recipe?.image).toBeTruthy();
    expect(recipe?.recipeIngredient).toEqual(
      expect.arrayContaining([expect.stringContaining('jauhelihaa')]),
    );
    expect(Array.isArray(recipe?.recipeInstructions)).toBe(true);
  });

  it('a news article carries NewsArticle JSON-LD, the home page Organization', async () => {
    const news = jsonLdOf((await get('/uutiset/2026/grillikausi-alkaa')).body).find(
      (d) => d['@type'] === 'NewsArticle',
    );
    expect(news).toMatchObject({
      headline: 'Grillikausi alkaa',
      datePublished: '2026-05-04T09:00:00Z',
    });
    const home = jsonLdOf((await get('/')).body);
    expect(home.some((d) => d['@type'] === 'Organization')).toBe(true);
  });
});
