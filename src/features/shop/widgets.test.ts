import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createProduct, createShopProducts } from '../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/app.ts';
import { Visitor } from '../../../tests/helpers/visitor.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { CART_API } from './schemas.ts';

const HOST = 'lihakauppa.localhost';
const t = serverT('fi');
let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  const db = app.app.db;
  await createShopProducts(db, [
    { path: '/tuotteet/pihvi', code: '6100001', name: 'Pihvi', priceCents: 1290, stock: 3 },
    { path: '/tuotteet/loppu', code: '6100002', priceCents: 990, stock: 0 },
  ]);
  await createProduct(db, {
    siteId: 'sibylla',
    kind: 'retail-product',
    path: '/tuotteet/nakki',
    code: '6100003',
    priceCents: null,
  });
  await createPage(db, { siteId: 'lihakauppa', lang: 'fi', path: '/ostoskori', type: 'cart' });
});
afterAll(() => app.close());

describe('the shop on content pages', () => {
  it('a product page of the shop has the stock text, the buy control and the delivery checks', async () => {
    const visitor = new Visitor(app.app, { host: HOST });
    const page = await visitor.get('/tuotteet/pihvi');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(t('shop.stock.few', { count: 3 }));
    expect(page.body).toContain('data-name="shop-buy-control"');
    expect(page.body).toContain('data-name="shop-availability-check"');
    const soldOut = await visitor.get('/tuotteet/loppu');
    expect(soldOut.body).toContain(t('shop.stock.soldOut'));
    // A sold-out product has no buy control to offer.
    expect(soldOut.body).not.toContain(t('shop.buy.add'));
  });

  it('a brand site product page has none of it', async () => {
    const page = await new Visitor(app.app, { host: 'sibylla.localhost' }).get('/tuotteet/nakki');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('shop-buy-control');
  });

  it('the cart page lists the session cart rendered with the page', async () => {
    const visitor = new Visitor(app.app, { host: HOST });
    expect((await visitor.get('/ostoskori')).body).toContain(t('shop.cart.empty'));
    const added = await visitor.post(`${CART_API}/add?language=fi&code=6100001&quantity=2`);
    expect(added.statusCode).toBe(200);
    const page = await visitor.get('/ostoskori');
    expect(page.body).toContain('data-name="shop-cart"');
    expect(page.body).toContain('data-code="6100001"');
    expect(page.body).toContain('25,80');
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });
});
