import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProduct } from '../../../../tests/factories/index.ts';
import { createTestDatabase } from '../../../../tests/setup/database.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { products } from '../../content/tables.ts';
import {
  couponCustomerUses,
  coupons,
  deliveryAreaPostalCodes,
  deliveryAreas,
  deliverySlotBookings,
  giftCards,
  productDateStock,
} from '../tables.ts';
import { compareCodes } from './holds.server.ts';
import {
  giveBackAll,
  LIMITED_RESOURCES,
  type LimitedResource,
  type Takings,
  takeAll,
  takingsOf,
} from './ledger.server.ts';

/**
 * The ledger of limited resources (decision 121): each resource's give-back undoes its take, and
 * the list is the lock order.
 */

let handle: DatabaseHandle;
let takings: Takings;

const DATE = '2026-12-03';

beforeAll(async () => {
  handle = await createTestDatabase(inject('templateDatabase'));
  const db = handle.db;
  const shop = { siteId: SHOP_SITE_ID, kind: 'shop-product' } as const;
  // A code with a stock in two language versions, one with a stock in one, one sold per date.
  for (const lang of ['fi', 'sv']) {
    await createProduct(db, { ...shop, lang, path: '/tuotteet/b200', code: 'B200', stock: 10 });
  }
  await createProduct(db, { ...shop, path: '/tuotteet/b100', code: 'b100', stock: 4 });
  await createProduct(db, { ...shop, path: '/tuotteet/d300', code: 'D300' });
  const [area] = await db
    .insert(deliveryAreas)
    .values({ siteId: SHOP_SITE_ID, name: 'Helsinki' })
    .returning();
  if (!area) throw new Error('no area');
  await db
    .insert(deliveryAreaPostalCodes)
    .values({ siteId: SHOP_SITE_ID, postalCode: '00100', areaId: area.id });
  await db
    .insert(deliverySlotBookings)
    .values({ areaId: area.id, date: DATE, startTime: '08:00', capacity: 5, sold: 1 });
  await db
    .insert(productDateStock)
    .values({ siteId: SHOP_SITE_ID, code: 'D300', date: DATE, capacity: 6, sold: 2 });
  const [card] = await db
    .insert(giftCards)
    .values({ siteId: SHOP_SITE_ID, codeHash: 'hash', initialCents: 5000, balanceCents: 3000 })
    .returning();
  const [coupon] = await db
    .insert(coupons)
    .values({
      siteId: SHOP_SITE_ID,
      code: 'KERTA',
      percentOff: 10,
      maxUses: 10,
      usedCount: 3,
      maxUsesPerCustomer: 1,
    })
    .returning();
  if (!card || !coupon) throw new Error('no card or coupon');
  takings = takingsOf(
    {
      siteId: SHOP_SITE_ID,
      areaId: area.id,
      postalCode: '00100',
      deliveryDate: DATE,
      startTime: '08:00',
      endTime: '12:00',
    },
    [
      { code: 'b100', quantity: 2, tookDateStock: false },
      { code: 'B200', quantity: 3, tookDateStock: false },
      { code: 'D300', quantity: 1, tookDateStock: true },
    ],
    [{ giftCardId: card.id, amountCents: 1200 }],
    [
      {
        couponId: coupon.id,
        code: coupon.code,
        maxUsesPerCustomer: 1,
        customerKey: 'customer',
        limitKeys: ['mailbox', 'address'],
      },
    ],
  );
}, 120_000);
afterAll(async () => {
  await handle?.close();
});

/** Every limited counter there is, by row (a customer's use counted 0 is no use). */
async function counters() {
  const db = handle.db;
  const [stock, cards, slots, dated, uses, used] = await Promise.all([
    db.select({ id: products.id, stock: products.stock }).from(products),
    db.select({ id: giftCards.id, balance: giftCards.balanceCents }).from(giftCards),
    db.select().from(deliverySlotBookings),
    db.select().from(productDateStock),
    db.select().from(couponCustomerUses),
    db.select({ id: coupons.id, used: coupons.usedCount }).from(coupons),
  ]);
  const byKey = <T>(rows: T[], key: (row: T) => string) =>
    Object.fromEntries(rows.map((row) => [key(row), row]));
  return {
    stock: byKey(stock, (row) => String(row.id)),
    cards: byKey(cards, (row) => String(row.id)),
    slots: byKey(slots, (row) => `${row.areaId} ${row.date} ${row.startTime}`),
    dated: byKey(dated, (row) => `${row.code} ${row.date}`),
    uses: byKey(
      uses.filter((row) => row.uses > 0),
      (row) => `${row.couponId} ${row.customerKey}`,
    ),
    used: byKey(used, (row) => String(row.id)),
  };
}

describe('the limited resources', () => {
  it('are listed in the lock order, each with a take and a give-back', () => {
    expect(LIMITED_RESOURCES.map((resource) => resource.name)).toEqual([
      'stock',
      'giftCardBalance',
      'slot',
      'dateStock',
      'couponUses',
    ]);
    for (const resource of LIMITED_RESOURCES) {
      expect(typeof resource.take, resource.name).toBe('function');
      expect(typeof resource.giveBack, resource.name).toBe('function');
    }
  });

  it.each(LIMITED_RESOURCES.map((resource) => [resource.name, resource] as const))(
    '%s: taking changes its counters, giving back restores them',
    async (_, resource: LimitedResource) => {
      const before = await counters();
      await handle.db.transaction((tx) => resource.take(tx, takings, new Date()));
      const taken = await counters();
      expect(taken).not.toEqual(before);
      await handle.db.transaction((tx) => resource.giveBack(tx, takings));
      expect(await counters()).toEqual(before);
    },
  );

  it('all taken and all given back leave every counter where it was', async () => {
    const before = await counters();
    await handle.db.transaction((tx) => takeAll(tx, takings, new Date()));
    const taken = await counters();
    const stock = await handle.db
      .select({ code: products.code, lang: products.lang, stock: products.stock })
      .from(products)
      .orderBy(products.id);
    expect(stock).toEqual([
      { code: 'B200', lang: 'fi', stock: 7 },
      { code: 'B200', lang: 'sv', stock: 7 },
      { code: 'b100', lang: 'fi', stock: 2 },
      { code: 'D300', lang: 'fi', stock: null },
    ]);
    expect(Object.values(taken.slots).map((row) => row.sold)).toEqual([2]);
    expect(Object.values(taken.dated).map((row) => row.sold)).toEqual([3]);
    expect(Object.values(taken.cards).map((row) => row.balance)).toEqual([1800]);
    expect(Object.values(taken.used).map((row) => row.used)).toEqual([4]);
    expect(Object.keys(taken.uses)).toHaveLength(3);
    await handle.db.transaction((tx) => giveBackAll(tx, takings));
    expect(await counters()).toEqual(before);
  });

  it('keys a coupon use under the customer, mailbox and address in one order on both sides', () => {
    const [coupon] = takings.coupons;
    expect(coupon?.keys).toEqual(['address', 'customer', 'mailbox']);
    expect(['b100', 'B200', 'D300'].sort(compareCodes)).toEqual(['B200', 'D300', 'b100']);
  });
});
