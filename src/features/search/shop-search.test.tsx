import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImage, createProduct, createRecipe } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { LkProductCardBuy } from '../shop/product-card.tsx';
import { loadShopProductSearch } from './index.server.ts';
import { islandProps, renderFinnish } from './island.test-support.tsx';
import { type ShopProductSearchProps, shopProductSearchWith } from './shop-product-search.tsx';
import { type ShopSearchResult, shopSearchResultSchema } from './shop-search.ts';

/**
 * The shop's product search: its hits carry the shop products' card data (API), and its grid
 * is rendered on the server with each card's price, stock and buy control.
 */

let t: TestApp;
const fi = serverT('fi');
/** The island as the app's registry joins it: the search's grid with the shop's card part. */
const ShopProductSearch = shopProductSearchWith(LkProductCardBuy);
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({
    extend: (app) => {
      app.get('/test/shop', async (request) =>
        loadShopProductSearch(request, {
          path: '/tuotteet',
          settings: { numberOfProducts: 12, widget: 'shop-product-search' },
        }),
      );
    },
  });
  const db = t.app.db;
  const image = await createImage(db);
  const shop = { siteId: 'lihakauppa', kind: 'shop-product' } as const;
  ids.fillet = (
    await createProduct(db, {
      ...shop,
      path: '/tuotteet/naudanliha/naudan-sisafilee',
      name: 'Naudan sisäfilee 400 g',
      code: 'SISA400',
      imageIds: [image.id],
      priceCents: 2490,
      pricePerKgCents: 6225,
      svhPriceCents: 2990,
      discountPercentage: 17,
      stock: 3,
    })
  ).id;
  ids.ham = (
    await createProduct(db, {
      ...shop,
      path: '/tuotteet/leikkeleet/savukinkku',
      name: 'Savukinkku sisäfileestä 300 g',
      code: 'KINKKU300',
      priceCents: 1290,
      pricePerKgCents: 4300,
      svhPriceCents: 1290,
      stock: null,
    })
  ).id;
  ids.soldOut = (
    await createProduct(db, {
      ...shop,
      path: '/tuotteet/naudanliha/sisafileepihvi',
      name: 'Sisäfileepihvi 200 g',
      code: 'PIHVI200',
      priceCents: 1590,
      stock: 0,
    })
  ).id;
  // A product of another site with the same word is not the shop's.
  await createProduct(db, {
    siteId: 'jyvabroiler',
    kind: 'broiler-product',
    path: '/tuotteet/broileri/broilerin-sisafilee',
    name: 'Broilerin sisäfilee',
    priceCents: 990,
  });
  ids.recipe = (
    await createRecipe(db, {
      siteId: 'lihakauppa',
      path: '/reseptit/sisafileepaisti',
      title: 'Sisäfileepaisti',
    })
  ).id;
});

afterAll(async () => {
  await t?.close();
});

async function shopSearch(query: string, host = 'lihakauppa.localhost'): Promise<ShopSearchResult> {
  const response = await t.app.inject({
    url: `/api/search/lihakauppa-products?${query}`,
    headers: { host },
  });
  expect(response.statusCode, response.body).toBe(200);
  return shopSearchResultSchema.parse(response.json());
}

describe('GET /api/search/lihakauppa-products', () => {
  it('carries each shop product’s card: code, prices as money strings, stock', async () => {
    const r = await shopSearch('q=sis%C3%A4filee');
    const byTitle = new Map(r.hits.map((hit) => [hit.title, hit]));
    expect([...byTitle.keys()].sort()).toEqual([
      'Naudan sisäfilee 400 g',
      'Savukinkku sisäfileestä 300 g',
      'Sisäfileepihvi 200 g',
    ]);
    expect(byTitle.get('Naudan sisäfilee 400 g')?.product).toEqual({
      title: 'Naudan sisäfilee 400 g',
      url: '/tuotteet/naudanliha/naudan-sisafilee',
      image: [expect.stringMatching(/^\/images\/.*preset=card-square/)],
      price: '24,90',
      pricePerKg: '62,25',
      svhPrice: '29,90',
      discountPercentage: 17,
      stock: 3,
      isGiftCard: false,
      code: 'SISA400',
      productId: ids.fillet,
      contentId: `product-${ids.fillet}`,
    });
    const ham = byTitle.get('Savukinkku sisäfileestä 300 g');
    expect(ham?.product).toMatchObject({ code: 'KINKKU300', price: '12,90', stock: null });
    expect(ham?.product?.contentId).toBe(ham?.contentId);
    expect(byTitle.get('Sisäfileepihvi 200 g')?.product).toMatchObject({
      code: 'PIHVI200',
      stock: 0,
    });
  });

  it('gives a recipe hit no card, and answers the same from another site', async () => {
    const r = await shopSearch('q=sis%C3%A4filee&contentGroup=0', 'sibylla.localhost');
    const recipe = r.hits.find((hit) => hit.type === 'recipe');
    expect(recipe).toMatchObject({
      title: 'Sisäfileepaisti',
      contentId: `recipe-${ids.recipe}`,
      product: null,
    });
    expect(r.hits.filter((hit) => hit.product !== null)).toHaveLength(3);
  });

  it('keeps the other product searches without cards', async () => {
    const response = await t.app.inject({
      url: '/api/search/products?q=sis%C3%A4filee',
      headers: { host: 'jyvabroiler.localhost' },
    });
    const hits = response.json().hits as Record<string, unknown>[];
    expect(hits.map((hit) => hit.title)).toEqual(['Broilerin sisäfilee']);
    expect(hits[0]).not.toHaveProperty('product');
  });
});

describe('the shop’s search grid on the server', () => {
  const props = (url: string) =>
    islandProps<ShopProductSearchProps>(t, 'lihakauppa.localhost', url);

  it('renders each product as a card with price, price per kilo, discount, stock and buy control', async () => {
    const p = await props('/test/shop?q=sis%C3%A4filee');
    expect(p.kind).toBe('shop');
    expect(p.result.hits.every((hit) => hit.product !== null)).toBe(true);
    const html = renderFinnish(<ShopProductSearch {...p} />);
    expect((html.match(/<article/g) ?? []).length).toBe(3);
    expect(html).toContain('24,90\u00a0€');
    expect(html).toContain(fi('product.pricePerKg', { price: '62,25\u00a0€' }));
    expect(html).toContain(fi('product.discount', { percent: 17 }));
    expect(html).toContain(fi('product.regularPrice', { price: '29,90\u00a0€' }));
    expect(html).toContain(fi('shop.stock.few', { count: 3 }));
    expect(html).toContain(fi('shop.stock.unlimited'));
    expect(html).toContain(fi('shop.stock.soldOut'));
    // A sold-out product offers no buy control; the two others do, each with its quick view.
    expect((html.match(new RegExp(fi('shop.buy.add'), 'g')) ?? []).length).toBe(2);
    expect(html).toContain(fi('shop.buy.quickView', { name: 'Naudan sisäfilee 400 g' }));
  });
});
