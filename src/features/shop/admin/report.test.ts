import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { type Enrolled, enrolledStaff } from '../../../../tests/helpers/staff.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { helsinkiDate } from '../dates.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  held,
  order,
  pathOf,
  testBank,
} from '../orders/checkout.test-support.ts';
import { giftCardCodeHash } from '../orders/gift-cards.server.ts';
import { refundOrder } from '../orders/refunds.server.ts';
import { SHOP } from '../orders/refunds.test-support.ts';
import { GIFT_CARD_ADD_API, orderAnswerSchema } from '../orders/schemas.ts';
import { testBank as testBankProvider } from '../payment/providers.server.ts';
import { CART_API } from '../schemas.ts';
import { coupons, giftCards, orders } from '../tables.ts';
import { type DailyReport, REPORT_API } from './schemas.ts';

/**
 * The daily sales report (decision 141) against the day's own rows: orders at 13,5 % and
 * 25,5 % VAT, a coupon, a gift card used and one sold, and a refund; the totals equal the sums
 * of the orders and refunds, each order's VAT as its receipt has it.
 */
let t: TestApp;
let staff: Enrolled;
const STANDARD = '5900077';
const GIFT = 'RAPORTTI-LAHJA-1';

async function paidOrder(setUp: (v: Visitor) => Promise<void>) {
  const v = await buyer(t.app);
  await setUp(v);
  const res = await order(v, await held(v));
  expect(res.statusCode, res.body).toBe(200);
  const answer = orderAnswerSchema.parse(res.json());
  if (answer.status !== 'paid') {
    const back = await testBank(v, answer.next, 'ok');
    expect((await v.get(pathOf(back))).statusCode).toBe(303);
  }
  return answer;
}

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db);
  await createProduct(t.app.db, {
    siteId: 'lihakauppa',
    kind: 'shop-product',
    path: '/tuotteet/grillihiili',
    code: STANDARD,
    name: 'Grillihiili',
    priceCents: 1299,
    taxClass: 'standard',
  });
  await t.app.db.insert(coupons).values({ siteId: 'lihakauppa', code: 'RAPORTTI', percentOff: 10 });
  await t.app.db.insert(giftCards).values({
    siteId: 'lihakauppa',
    codeHash: giftCardCodeHash(GIFT),
    initialCents: 1000,
    balanceCents: 1000,
  });
  // Food and the standard rate with a coupon; the standard rate paid partly by a gift card; a
  // gift card bought with food.
  const first = await paidOrder(async (v) => {
    await addToCart(v, CODES.box, 1);
    await addToCart(v, STANDARD, 2);
    expect((await v.post(`${CART_API}/addcouponcode?language=fi&code=RAPORTTI`)).statusCode).toBe(
      200,
    );
  });
  await paidOrder(async (v) => {
    await addToCart(v, STANDARD, 1);
    await addToCart(v, CODES.plain, 1);
    expect((await v.post(`${GIFT_CARD_ADD_API}?language=fi&code=${GIFT}`)).statusCode).toBeLessThan(
      500,
    );
  });
  await paidOrder(async (v) => {
    await addToCart(v, CODES.gift, 1);
    await addToCart(v, CODES.perDate, 1);
  });
  await refundOrder(
    { db: t.app.db, provider: testBankProvider(t.app), shopUrl: SHOP },
    first.orderId,
    { amountCents: 700 },
    'raportti',
    'staff',
  );
  staff = await enrolledStaff(t.app, [{ role: 'shop-staff', sites: ['lihakauppa'], langs: null }]);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('the daily sales report', () => {
  it('equals the sums of the day’s orders and refunds, VAT per rate as each receipt', async () => {
    const res = await staff.visitor.get(REPORT_API);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json() as DailyReport;
    const day = helsinkiDate(new Date());
    const paid = await t.app.db
      .select()
      .from(orders)
      .where(
        and(
          isNotNull(orders.paidAt),
          sql`(${orders.paidAt} at time zone 'Europe/Helsinki')::date = ${day}`,
        ),
      );
    expect(report.date).toBe(day);
    expect(report.orders).toBe(3);
    expect(report.orders).toBe(paid.length);
    const sum = (pick: (o: (typeof paid)[number]) => number) =>
      paid.reduce((s, o) => s + pick(o), 0);
    expect(report.paidCents).toBe(sum((o) => o.totalCents));
    expect(report.giftCardUseCents).toBe(sum((o) => o.usedGiftCardCents));
    expect(report.giftCardUseCents).toBeGreaterThan(0);
    expect(report.discountCents).toBe(sum((o) => o.discountCents));
    expect(report.discountCents).toBeGreaterThan(0);
    // Each order's VAT as placement computed it, summed.
    expect(report.vatCents).toBe(sum((o) => o.vatCents));
    expect(report.vat.map((v) => v.basisPoints)).toEqual([2550, 1350]);
    for (const share of report.vat) expect(share.netCents).toBe(share.grossCents - share.vatCents);
    expect(report.giftCardSalesCents).toBe(2000);
    // Everything charged: the goods at each rate, gift cards sold and delivery.
    expect(
      report.vat.reduce((s, v) => s + v.grossCents, 0) +
        report.giftCardSalesCents +
        report.shippingCents,
    ).toBe(report.grossCents);
    expect(report.grossCents).toBe(sum((o) => o.totalCents + o.usedGiftCardCents));
    expect(report.refunds).toEqual({ count: 1, cents: 700 });
    expect(report.netCents).toBe(report.paidCents - 700);
    expect(report.rows.filter((r) => r.kind === 'order')).toHaveLength(3);
    expect(report.rows.find((r) => r.kind === 'refund')?.paidCents).toBe(-700);
  });

  it('gives the same totals as CSV for accounting, with decimal commas', async () => {
    const report = (await staff.visitor.get(REPORT_API)).json() as DailyReport;
    const res = await staff.visitor.get(`${REPORT_API}.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`myynti-${report.date}.csv`);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Rivi;Numero;Sivusto;Aika;Myynti (sis. ALV);ALV;Lahjakortilla maksettu;Maksettu / palautettu',
    );
    const euros = (cents: number) =>
      `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    const total = lines.find((line) => line.startsWith('Yhteensä;'));
    expect(total?.split(';')).toEqual([
      'Yhteensä',
      '3',
      'lihakauppa',
      report.date,
      euros(report.grossCents),
      euros(report.vatCents),
      euros(report.giftCardUseCents),
      euros(report.netCents),
    ]);
    expect(lines.filter((line) => line.startsWith('Palautus;'))).toHaveLength(1);
    expect(lines.some((line) => line.startsWith('ALV 25,5 %;'))).toBe(true);
    expect(lines.some((line) => line.startsWith('ALV 13,5 %;'))).toBe(true);
  });

  it('shows another day empty and refuses a malformed date', async () => {
    const empty = (await staff.visitor.get(`${REPORT_API}?date=2020-01-01`)).json() as DailyReport;
    expect(empty).toMatchObject({ orders: 0, paidCents: 0, refunds: { count: 0, cents: 0 } });
    expect((await staff.visitor.get(`${REPORT_API}?date=1.1.2020`)).statusCode).toBe(400);
  });

  it('reports nothing of the shop to an editor of another brand', async () => {
    const other = await enrolledStaff(t.app, [
      { role: 'admin', sites: ['jyvabroiler'], langs: null },
    ]);
    const report = (await other.visitor.get(REPORT_API)).json() as DailyReport;
    expect(report.orders).toBe(0);
    const [row] = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(giftCards)
      .where(eq(giftCards.siteId, 'lihakauppa'));
    expect(row?.n).toBeGreaterThan(0);
  });
});
