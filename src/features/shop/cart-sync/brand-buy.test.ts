import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';

/**
 * The shop's buy box on a brand site's product page (decision 021): shown for a product whose
 * `shop_code` names a product the shop sells, with the shop's price, price per kilo and stock from
 * the shop's row, and the buy control set to add through the shop frame. Not shown without a
 * shop code, for a code the shop does not sell, or on a site that does not sell through the shop.
 */

let t: TestApp;
const SHOP_CODE = '7790001';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createProduct(db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/fileet',
    code: SHOP_CODE,
    name: 'Broilerin fileet 400 g (kauppa)',
    priceCents: 695,
    pricePerKgCents: 1738,
    stock: 3,
  });
  const brand = { kind: 'broiler-product', gtin: '6410000000017' } as const;
  await createProduct(db, {
    ...brand,
    siteId: 'jyvabroiler',
    path: '/tuotteet/fileet',
    name: 'Broilerin fileet 400 g',
    shopCode: SHOP_CODE,
  });
  await createProduct(db, { ...brand, siteId: 'jyvabroiler', path: '/tuotteet/ei-kaupassa' });
  await createProduct(db, {
    ...brand,
    siteId: 'jyvabroiler',
    path: '/tuotteet/tuntematon',
    shopCode: '7799999',
  });
  await createProduct(db, {
    siteId: 'sibylla',
    path: '/tuotteet/fileet',
    shopCode: SHOP_CODE,
  });
  for (const siteId of ['jyvabroiler', 'sibylla']) {
    await createPage(db, { siteId, path: '/', type: 'home', title: siteId });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function page(host: string, url: string) {
  return t.app.inject({ url, headers: { host } });
}

function buyControlProps(html: string): Record<string, unknown> {
  const match = /<k-island[^>]*data-name="shop-buy-control"[^>]*data-props="([^"]*)"/.exec(html);
  if (!match) throw new Error('no buy control');
  return JSON.parse((match[1] ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
}

describe('the shop’s buy box on a brand product page', () => {
  it('shows the shop’s price and stock and adds through the shop frame', async () => {
    const res = await page('jyvabroiler.localhost:3000', '/tuotteet/fileet');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`data-shop-code="${SHOP_CODE}"`);
    expect(res.body).toContain('6,95\u00a0€');
    expect(res.body).toContain('17,38\u00a0€/kg');
    expect(res.body).toContain('Varastossa vain 3 kpl');
    expect(buyControlProps(res.body)).toEqual({
      code: SHOP_CODE,
      name: 'Broilerin fileet 400 g (kauppa)',
      category: null,
      price: '6,95',
      svhPrice: null,
      stock: 3,
      viewItem: true,
      sync: {
        frameUrl: 'http://lihakauppa.localhost:3000/cart-sync',
        shopOrigin: 'http://lihakauppa.localhost:3000',
        frameTitle: 'Ostoskori',
      },
    });
  });

  it('is not there without a shop code, for a code the shop does not sell, or elsewhere', async () => {
    for (const [host, url] of [
      ['jyvabroiler.localhost', '/tuotteet/ei-kaupassa'],
      ['jyvabroiler.localhost', '/tuotteet/tuntematon'],
      ['sibylla.localhost', '/tuotteet/fileet'],
    ] as const) {
      const res = await page(host, url);
      expect(res.statusCode, `${host}${url}`).toBe(200);
      expect(res.body, `${host}${url}`).not.toContain('data-shop-code');
      expect(res.body, `${host}${url}`).not.toContain('data-name="shop-buy-control"');
    }
  });
});
