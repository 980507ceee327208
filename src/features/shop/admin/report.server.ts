import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import { adminT } from '../../../i18n/admin.ts';
import { csvText } from '../../../server/csv.ts';
import { Forbidden } from '../../../server/errors.ts';
import { scopeWhere } from '../../staff/index.server.ts';
import { helsinkiDate } from '../dates.ts';
import { chargedLinesOf } from '../orders/payments.server.ts';
import { vatOfGross } from '../pricing.ts';
import { orderRefunds, orders } from '../tables.ts';
import type { DailyReport, DailyReportQuery } from './schemas.ts';

/**
 * The daily sales report (decision 141): for a day in Helsinki, the orders paid that day and
 * the refunds the provider confirmed that day, in the sites the staff member's grants give
 * `orders.read` for. Each order's VAT is its own per rate (as its receipt shows), summed;
 * gift cards sold carry no VAT (multi-purpose vouchers). No names or addresses: no audit row.
 */

const onDay = (column: AnyPgColumn, date: string) =>
  sql`(${column} at time zone 'Europe/Helsinki')::date = ${date}`;

export async function dailyReport(
  request: FastifyRequest,
  query: DailyReportQuery,
): Promise<DailyReport> {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  const db = request.server.db;
  const date = query.date ?? helsinkiDate(new Date());
  const scope: SQL[] = [
    scopeWhere(staff.grants, 'orders.read', { site: orders.siteId, lang: orders.language }),
  ];
  if (query.site) scope.push(eq(orders.siteId, query.site));
  if (query.lang) scope.push(eq(orders.language, query.lang));
  const paid = await db
    .select()
    .from(orders)
    .where(and(...scope, sql`${orders.paidAt} is not null`, onDay(orders.paidAt, date)))
    .orderBy(asc(orders.paidAt), asc(orders.number));
  const refunds = await db
    .select({ refund: orderRefunds, number: orders.number, siteId: orders.siteId })
    .from(orderRefunds)
    .innerJoin(orders, eq(orders.id, orderRefunds.orderId))
    .where(and(...scope, eq(orderRefunds.status, 'ok'), onDay(orderRefunds.updatedAt, date)))
    .orderBy(asc(orderRefunds.updatedAt));

  const vat = new Map<number, { grossCents: number; vatCents: number }>();
  const rows: DailyReport['rows'] = [];
  let giftCardSalesCents = 0;
  for (const order of paid) {
    let orderVat = 0;
    const byRate = new Map<number, number>();
    for (const line of await chargedLinesOf(db, order)) {
      if (line.isGiftCard) giftCardSalesCents += line.chargedCents;
      else
        byRate.set(line.vatBasisPoints, (byRate.get(line.vatBasisPoints) ?? 0) + line.chargedCents);
    }
    for (const [rate, gross] of byRate) {
      const share = vat.get(rate) ?? { grossCents: 0, vatCents: 0 };
      const cents = vatOfGross(gross, rate);
      share.grossCents += gross;
      share.vatCents += cents;
      orderVat += cents;
      vat.set(rate, share);
    }
    rows.push({
      kind: 'order',
      number: order.number,
      siteId: order.siteId,
      at: (order.paidAt as Date).toISOString(),
      grossCents: order.totalCents + order.usedGiftCardCents,
      vatCents: orderVat,
      giftCardUseCents: order.usedGiftCardCents,
      paidCents: order.totalCents,
    });
  }
  for (const { refund, number, siteId } of refunds) {
    rows.push({
      kind: 'refund',
      number,
      siteId,
      at: refund.updatedAt.toISOString(),
      grossCents: 0,
      vatCents: 0,
      giftCardUseCents: 0,
      paidCents: -refund.amountCents,
    });
  }
  const sum = (pick: (o: (typeof paid)[number]) => number) =>
    paid.reduce((total, o) => total + pick(o), 0);
  const paidCents = sum((o) => o.totalCents);
  const refundCents = refunds.reduce((total, r) => total + r.refund.amountCents, 0);
  const shares = [...vat.entries()]
    .sort(([a], [b]) => b - a)
    .map(([basisPoints, s]) => ({
      basisPoints,
      grossCents: s.grossCents,
      vatCents: s.vatCents,
      netCents: s.grossCents - s.vatCents,
    }));
  return {
    date,
    sites: [...new Set(paid.map((o) => o.siteId))].sort(),
    orders: paid.length,
    grossCents: sum((o) => o.totalCents + o.usedGiftCardCents),
    discountCents: sum((o) => o.discountCents),
    shippingCents: sum((o) => o.shippingCents),
    vat: shares,
    vatCents: shares.reduce((total, s) => total + s.vatCents, 0),
    giftCardSalesCents,
    giftCardUseCents: sum((o) => o.usedGiftCardCents),
    paidCents,
    refunds: { count: refunds.length, cents: refundCents },
    netCents: paidCents - refundCents,
    rows,
  };
}

/** Cents as a spreadsheet's decimal number in Finnish: `12,34`, `-5,00`. */
const decimal = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)},${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * The report as CSV for accounting, in the staff member's language: a row per order and refund,
 * then the day's totals and each VAT rate's.
 */
export function dailyReportCsv(report: DailyReport, lang: string): string {
  const t = adminT(lang);
  const rows: unknown[][] = [
    [
      t('admin.report.csv.kind'),
      t('admin.report.csv.number'),
      t('admin.report.csv.site'),
      t('admin.report.csv.time'),
      t('admin.report.csv.gross'),
      t('admin.report.csv.vat'),
      t('admin.report.csv.giftCardUse'),
      t('admin.report.csv.paid'),
    ],
    ...report.rows.map((row) => [
      t(row.kind === 'order' ? 'admin.report.csv.order' : 'admin.report.csv.refund'),
      row.number,
      row.siteId,
      row.at,
      decimal(row.grossCents),
      decimal(row.vatCents),
      decimal(row.giftCardUseCents),
      decimal(row.paidCents),
    ]),
    [
      t('admin.report.csv.total'),
      report.orders,
      report.sites.join(', '),
      report.date,
      decimal(report.grossCents),
      decimal(report.vatCents),
      decimal(report.giftCardUseCents),
      decimal(report.netCents),
    ],
    ...report.vat.map((share) => [
      t('admin.report.csv.vatRate', { rate: (share.basisPoints / 100).toLocaleString('fi-FI') }),
      '',
      '',
      '',
      decimal(share.grossCents),
      decimal(share.vatCents),
      '',
      '',
    ]),
    [
      t('admin.report.csv.giftCardSales'),
      '',
      '',
      '',
      decimal(report.giftCardSalesCents),
      '',
      '',
      '',
    ],
  ];
  return csvText(rows);
}
