import { randomUUID } from 'node:crypto';
import { createProduct } from '../../../../tests/factories/index.ts';
import type { Database } from '../../../db/client.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { customers, orderLines, orders } from '../tables.ts';
import type { OrderRow } from './payments.server.ts';

/**
 * Orders written straight into the tables, for the payment's tests: two lines at 13,5 % VAT
 * (one that does not divide evenly after an order coupon), an order discount and a gift card.
 */

export const ADDRESS = {
  firstName: 'Maija',
  lastName: 'Meikäläinen',
  streetAddress: 'Lihakuja 3',
  postalCode: '00100',
  city: 'Helsinki',
};

export async function createCustomer(db: Database, email = `${randomUUID()}@example.fi`) {
  const [row] = await db
    .insert(customers)
    .values({
      email,
      passwordHash: 'not-a-hash',
      deliveryAddress: ADDRESS,
      billingAddress: ADDRESS,
    })
    .returning();
  if (!row) throw new Error('no customer');
  return row;
}

export async function createOrder(
  db: Database,
  options: {
    customerId: string | null;
    sessionId?: string | null;
    status?: OrderRow['status'];
    expiresAt?: Date;
    withGiftCard?: boolean;
  },
): Promise<OrderRow> {
  const suffix = randomUUID().slice(0, 8);
  const a = await createProduct(db, {
    siteId: SHOP_SITE_ID,
    kind: 'shop-product',
    path: `/tuotteet/a-${suffix}`,
    code: `A${suffix}`,
    name: 'Naudan sisäfilee',
    priceCents: 1000,
    stock: 10,
  });
  const b = await createProduct(db, {
    siteId: SHOP_SITE_ID,
    kind: 'shop-product',
    path: `/tuotteet/b-${suffix}`,
    code: `B${suffix}`,
    name: 'Porsaan kylki',
    priceCents: 695,
    stock: 5,
  });
  // Lines 3 × 10,00 and 2 × 6,95 = 43,90; an order coupon of 5,00 off; a gift card of 10,00.
  const gift = options.withGiftCard ? 1000 : 0;
  const [order] = await db
    .insert(orders)
    .values({
      checkoutId: randomUUID(),
      siteId: SHOP_SITE_ID,
      language: 'fi',
      customerId: options.customerId,
      sessionId: options.sessionId ?? null,
      status: options.status ?? 'pending_payment',
      email: 'maija@example.fi',
      phoneNumber: '+358401234567',
      deliveryAddress: ADDRESS,
      billingAddress: ADDRESS,
      postalCode: '00100',
      deliveryDate: '2026-12-03',
      startTime: '16:00',
      endTime: '18:00',
      subTotalCents: 4390,
      discountCents: 500,
      shippingCents: 0,
      vatCents: 463,
      usedGiftCardCents: gift,
      totalCents: 3890 - gift,
      couponCodes: ['VIISI'],
      expiresAt: options.expiresAt ?? new Date(Date.now() + 30 * 60_000),
    })
    .returning();
  if (!order) throw new Error('no order');
  await db.insert(orderLines).values([
    {
      orderId: order.id,
      code: a.code,
      productId: a.id,
      name: a.name,
      quantity: 3,
      unitPriceCents: 1000,
      linePriceWithoutDiscountsCents: 3000,
      linePriceCents: 3000,
      vatBasisPoints: 1350,
    },
    {
      orderId: order.id,
      code: b.code,
      productId: b.id,
      name: b.name,
      quantity: 2,
      unitPriceCents: 695,
      linePriceWithoutDiscountsCents: 1390,
      linePriceCents: 1390,
      vatBasisPoints: 1350,
    },
  ]);
  return order;
}
