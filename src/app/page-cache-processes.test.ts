import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createPage, createProduct } from '../../tests/factories/index.ts';
import { twoServersOnPostgres } from '../../tests/helpers/two-servers.ts';
import { arrive, fromAddress } from '../../tests/helpers/visitor.ts';
import { pages, products } from '../features/content/tables.ts';
import { CART_API } from '../features/shop/schemas.ts';
import { createCachedPage } from './page-cache.test-support.ts';

/**
 * Decision 033 on PostgreSQL: two servers on one database (each its own pool and its own LISTEN
 * connection, as two processes have) share no memory; a content change written through one shows
 * on the very next request to the other, whose page cache held the old page.
 */
const template = inject('templateDatabase');
const onPostgres = template.engine === 'postgres';
const HOST = { host: 'sibylla.localhost' };
const SHOP = { host: 'lihakauppa.localhost' };
const hit = (r: LightMyRequestResponse) => r.headers['x-page-cache'] === 'hit';

describe.runIf(onPostgres)('the page cache across processes (PostgreSQL)', () => {
  const { apps, handles } = twoServersOnPostgres(template);
  let pageId = 0;
  let productId = 0;

  beforeAll(async () => {
    if (template.engine !== 'postgres') return;
    const db = handles[0]?.db;
    if (!db) throw new Error('no database');
    pageId = (await createCachedPage(db, 'Alkuperäinen otsikko')).id;
    await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
    for (const code of ['7200001', '7200002']) {
      await createProduct(db, {
        siteId: 'lihakauppa',
        kind: 'shop-product',
        path: code === '7200001' ? '/tuotteet/pihvi' : '/tuotteet/kassler',
        code,
        name: `Tuote ${code}`,
        priceCents: 990,
        stock: 50,
      });
    }
    productId = (
      await createProduct(db, {
        siteId: 'sibylla',
        path: '/tuotteet/tykatty',
        code: '7100001',
        name: 'Tykätty tuote',
      })
    ).id;
    // Both listening connections are up before the test counts on them.
  }, 120_000);

  it('a change written by one server shows on the next request to the other', async () => {
    const [writer, reader] = apps;
    if (!writer || !reader) throw new Error('two apps');
    for (let round = 1; round <= 20; round++) {
      await reader.inject({ url: '/yritys', headers: HOST });
      const cached = await reader.inject({ url: '/yritys', headers: HOST });
      expect(hit(cached)).toBe(true);
      const title = `Otsikko ${round}`;
      await writer.db.update(pages).set({ title }).where(eq(pages.id, pageId));
      // No wait: the very next request.
      const next = await reader.inject({ url: '/yritys', headers: HOST });
      expect(hit(next)).toBe(false);
      expect(next.body).toContain(title);
    }
  });

  it('a like raised by one server makes the other’s pages due, not void (decision 053)', async () => {
    const [writer, reader] = apps;
    const [writerHandle, readerHandle] = handles;
    if (!writer || !reader || !writerHandle || !readerHandle) throw new Error('two apps');
    await reader.inject({ url: '/yritys', headers: HOST });
    expect(hit(await reader.inject({ url: '/yritys', headers: HOST }))).toBe(true);
    const version = readerHandle.contentVersion.current;
    const before = readerHandle.contentVersion.countsChangedAt;
    // As likes.server.ts raises it: inside a transaction.
    await writer.db.transaction(async (tx) => {
      await tx
        .update(products)
        .set({ likeCount: sql`${products.likeCount} + 1` })
        .where(eq(products.id, productId));
    });
    await readerHandle.contentVersion.sync();
    expect(readerHandle.contentVersion.countsChangedAt).toBeGreaterThan(before);
    expect(readerHandle.contentVersion.current).toBe(version);
    expect(writerHandle.contentVersion.countsChangedAt).toBeGreaterThan(before);
    expect(hit(await reader.inject({ url: '/yritys', headers: HOST }))).toBe(true);
  });

  it('a cart changed through one server shows in the other’s shared pages at once (decision 157)', async () => {
    const [writer, reader] = apps;
    if (!writer || !reader) throw new Error('two apps');
    const shopper = fromAddress(await arrive(writer, '/', SHOP), '10.0.2.21');
    const count = async () => {
      const page = await reader.inject({
        url: '/tuotteet/pihvi',
        headers: { ...SHOP, cookie: shopper.cookie },
      });
      expect(page.statusCode).toBe(200);
      return /<a data-hole="header-cart"[^>]*data-cart-count="(\d+)"/.exec(page.body)?.[1];
    };
    expect(await count()).toBe('0');
    for (const [code, lines] of [
      ['7200001', '1'],
      ['7200002', '2'],
    ] as const) {
      const added = await shopper.post(`${CART_API}/add?language=fi&code=${code}`);
      expect(added.statusCode).toBe(200);
      // No wait: the very next request to the other server, its page and visitor memory warm.
      expect(await count()).toBe(lines);
      expect(await count()).toBe(lines);
    }
    const removed = await shopper.post(
      `${CART_API}/changequantity?language=fi&code=7200001&quantity=0`,
    );
    expect(removed.statusCode).toBe(200);
    expect(await count()).toBe('1');
  });

  it('a change inside the other server’s transaction shows once it commits', async () => {
    const [writer, reader] = apps;
    if (!writer || !reader) throw new Error('two apps');
    await reader.inject({ url: '/yritys', headers: HOST });
    await writer.db.transaction(async (tx) => {
      await tx.update(pages).set({ title: 'Kesken' }).where(eq(pages.id, pageId));
      // Not committed yet: the reader still serves the committed title.
      const during = await reader.inject({ url: '/yritys', headers: HOST });
      expect(during.body).not.toContain('Kesken');
      await tx.update(pages).set({ title: 'Valmis' }).where(eq(pages.id, pageId));
    });
    const after = await reader.inject({ url: '/yritys', headers: HOST });
    expect(after.body).toContain('Valmis');
  });
});
