import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { containing } from '../../../db/patterns.ts';
import { auditedSearch } from '../../../server/email-hash.ts';
import { Forbidden, NotFound } from '../../../server/errors.ts';
import { getSite } from '../../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { actorOf, recordAudit, scopeWhere, staffMembers } from '../../staff/index.server.ts';
import { type AccessGrant, can, type Permission } from '../../staff/index.ts';
import { helsinkiDate } from '../dates.ts';
import { CANCELLABLE_FULFILMENT, FULFILMENT_TRANSITIONS } from '../orders/lifecycle.server.ts';
import { chargedLinesOf } from '../orders/payments.server.ts';
import { refundableCents } from '../orders/refunds.server.ts';
import { vatOfGross } from '../pricing.ts';
import {
  orderEvents,
  orderGiftCards,
  orderLines,
  orderPayments,
  orderRefunds,
  orders,
  type PaymentAttemptStatus,
} from '../tables.ts';
import {
  type OrderDetail,
  type OrderRow,
  type OrdersList,
  type OrdersQuery,
  type OrderTimelineEntry,
  orderIdParamsSchema,
  type PickList,
  type PickListQuery,
} from './schemas.ts';

/**
 * The shop's orders as staff read them (decision 141). Every query is limited to the sites and
 * languages the staff member's grants give `orders.read` (`scopeWhere` for lists, `can` for one
 * order). Names, addresses and e-mail addresses are personal data: each list, pick list and
 * opened order writes its audit row.
 */

const PAGE_SIZE = 50;

type Order = typeof orders.$inferSelect;

/** The status of the order's latest payment attempt. */
const latestPayment = sql<PaymentAttemptStatus | null>`(
  select p.status from ${orderPayments} p where p.order_id = ${orders.id}
  order by p.created_at desc limit 1)`;

const nameOf = (order: Pick<Order, 'deliveryAddress'>) =>
  `${order.deliveryAddress.firstName} ${order.deliveryAddress.lastName}`.trim();

function rowOf(order: Order, payment: PaymentAttemptStatus | null): OrderRow {
  return {
    id: order.id,
    number: order.number,
    siteId: order.siteId,
    lang: order.language,
    createdAt: order.createdAt.toISOString(),
    status: order.status,
    fulfilment: order.fulfilment,
    payment,
    name: nameOf(order),
    email: order.email,
    deliveryDate: order.deliveryDate,
    startTime: order.startTime,
    endTime: order.endTime,
    totalCents: order.totalCents,
    usedGiftCardCents: order.usedGiftCardCents,
  };
}

function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** The grants' `orders.read` scope narrowed by the query's filters. */
function ordersWhere(grants: readonly AccessGrant[], query: Omit<OrdersQuery, 'offset'>): SQL[] {
  const where: SQL[] = [
    scopeWhere(grants, 'orders.read', { site: orders.siteId, lang: orders.language }),
  ];
  if (query.site) where.push(eq(orders.siteId, query.site));
  if (query.lang) where.push(eq(orders.language, query.lang));
  if (query.status) where.push(eq(orders.status, query.status));
  if (query.fulfilment) where.push(eq(orders.fulfilment, query.fulfilment));
  if (query.payment) {
    where.push(
      query.payment === 'none'
        ? sql`${latestPayment} is null`
        : sql`${latestPayment} = ${query.payment}`,
    );
  }
  if (query.orderedOn) {
    where.push(
      sql`(${orders.createdAt} at time zone 'Europe/Helsinki')::date = ${query.orderedOn}`,
    );
  }
  if (query.deliveryDate) where.push(eq(orders.deliveryDate, query.deliveryDate));
  if (query.slot) where.push(eq(orders.startTime, query.slot));
  const q = query.q?.trim();
  if (q) {
    const like = containing(q);
    const name = sql`(${orders.deliveryAddress}->>'firstName') || ' ' || (${orders.deliveryAddress}->>'lastName')`;
    const matches = [sql`${orders.email} ilike ${like}`, sql`${name} ilike ${like}`];
    if (/^\d{1,9}$/.test(q)) matches.push(eq(orders.number, Number(q)));
    where.push(sql`(${sql.join(matches, sql` or `)})`);
  }
  return where;
}

/** The orders the grants give `orders.read` for, newest first, narrowed by the query. */
export async function listOrders(request: FastifyRequest, query: OrdersQuery): Promise<OrdersList> {
  const db = request.server.db;
  const where = ordersWhere(signedIn(request).grants, query);
  const [total] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(...where));
  const rows = await db
    .select({ order: orders, payment: latestPayment })
    .from(orders)
    .where(and(...where))
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(PAGE_SIZE)
    .offset(query.offset);
  await recordAudit(db, actorOf(request), {
    action: 'order.list',
    subjectType: 'order',
    siteId: query.site ?? null,
    lang: query.lang ?? null,
    changes: { query: { after: auditedSearch(request.server.config.forms.encryptionKey, query) } },
  });
  return {
    orders: rows.map(({ order, payment }) => rowOf(order, payment)),
    total: Number(total?.n ?? 0),
  };
}

/**
 * One order, if the grants give `permission` for its site and language: 404 when there is none,
 * 403 outside the grants. With `tx` the row is read under its lock.
 */
export async function scopedOrder(
  request: FastifyRequest,
  id: string,
  permission: Permission,
  tx?: Transaction,
): Promise<Order> {
  const query = (tx ?? request.server.db).select().from(orders).where(eq(orders.id, id));
  const [order] = tx ? await query.for('update') : await query;
  if (!order) throw new NotFound('No such order.');
  if (!can(signedIn(request).grants, permission, { siteId: order.siteId, lang: order.language })) {
    throw new Forbidden(
      `This needs the permission ${permission} for ${order.siteId}/${order.language}.`,
    );
  }
  return order;
}

/**
 * Refuses (403) a staff member whose grants do not give `permission` for the order's site and
 * language, or 404 when there is none; for a route's `preValidation`, so that a refusal comes
 * before any look at the body.
 */
export async function assertOrderAccess(
  request: FastifyRequest,
  permission: Permission,
): Promise<void> {
  const id = orderIdParamsSchema.safeParse(request.params);
  // A malformed id is left to the route's validation (400).
  if (id.success) await scopedOrder(request, id.data.id, permission);
}

/**
 * Refuses (403) a staff member whose grants give `permission` for none of the shop's languages:
 * for routes that name their orders in the body, before it is read. Each order is checked again
 * once found.
 */
export function assertShopAccess(request: FastifyRequest, permission: Permission): void {
  const grants = signedIn(request).grants;
  const shop = getSite(SHOP_SITE_ID);
  if (!shop?.languages.some((lang) => can(grants, permission, { siteId: shop.id, lang }))) {
    throw new Forbidden(`This needs the permission ${permission} for the shop.`);
  }
}

/** The audit row's subject for an order. */
export const orderSubject = (order: Pick<Order, 'id' | 'siteId' | 'language'>) => ({
  subjectType: 'order',
  subjectId: order.id,
  siteId: order.siteId,
  lang: order.language,
});

/** The order's payment attempts, first first. */
const paymentsOf = (db: Database | Transaction, orderId: string) =>
  db
    .select()
    .from(orderPayments)
    .where(eq(orderPayments.orderId, orderId))
    .orderBy(asc(orderPayments.createdAt));

/** The order's refunds, first first. */
const refundsOf = (db: Database | Transaction, orderId: string) =>
  db
    .select()
    .from(orderRefunds)
    .where(eq(orderRefunds.orderId, orderId))
    .orderBy(asc(orderRefunds.createdAt));

/** A timeline entry of what the shop did by itself: no member of staff, no text. */
const shopEntry = (
  at: Date,
  kind: OrderTimelineEntry['kind'],
  detail: OrderTimelineEntry['detail'],
): OrderTimelineEntry => ({ at: at.toISOString(), kind, staff: null, text: null, detail });

/** Everything that happened to the order, oldest first. */
async function timelineOf(db: Database | Transaction, order: Order): Promise<OrderTimelineEntry[]> {
  const entries = [shopEntry(order.createdAt, 'placed', {})];
  if (order.paidAt) {
    entries.push(shopEntry(order.paidAt, 'paid', { method: order.paymentMethodCode }));
  }
  for (const p of await paymentsOf(db, order.id)) {
    const detail = { provider: p.provider, status: p.status, amountCents: p.amountCents };
    entries.push(shopEntry(p.updatedAt, 'payment', detail));
  }
  for (const r of await refundsOf(db, order.id)) {
    entries.push(
      shopEntry(r.updatedAt, 'refund', { status: r.status, amountCents: r.amountCents }),
    );
  }
  const events = await db
    .select({ event: orderEvents, staff: staffMembers.name })
    .from(orderEvents)
    .leftJoin(staffMembers, eq(staffMembers.id, orderEvents.staffId))
    .where(eq(orderEvents.orderId, order.id))
    .orderBy(asc(orderEvents.id));
  for (const { event, staff } of events) {
    entries.push({
      at: event.at.toISOString(),
      kind: event.kind,
      staff: staff ?? null,
      text: event.text,
      detail: event.detail,
    });
  }
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

/** The order as the order page shows it, read in `db` (a transaction after a change). */
export async function orderDetail(db: Database | Transaction, order: Order): Promise<OrderDetail> {
  const lines = await chargedLinesOf(db, order);
  const [payment] = await db
    .select({ status: orderPayments.status })
    .from(orderPayments)
    .where(eq(orderPayments.orderId, order.id))
    .orderBy(desc(orderPayments.createdAt))
    .limit(1);
  const payments = await paymentsOf(db, order.id);
  const refunds = await refundsOf(db, order.id);
  const refunded = new Map<string, number>();
  for (const refund of refunds) {
    if (refund.status === 'fail') continue;
    for (const l of refund.lines ?? [])
      refunded.set(l.code, (refunded.get(l.code) ?? 0) + l.quantity);
  }
  const byRate = new Map<number, number>();
  for (const line of lines) {
    const rate = line.isGiftCard ? 0 : line.vatBasisPoints;
    byRate.set(rate, (byRate.get(rate) ?? 0) + line.chargedCents);
  }
  const giftCards = await db
    .select({ id: orderGiftCards.giftCardId, amountCents: orderGiftCards.amountCents })
    .from(orderGiftCards)
    .where(eq(orderGiftCards.orderId, order.id))
    .orderBy(asc(orderGiftCards.giftCardId));
  const refundable = await refundableCents(db, order.id);
  return {
    ...rowOf(order, payment?.status ?? null),
    phoneNumber: order.phoneNumber,
    deliveryAddress: order.deliveryAddress,
    billingAddress: order.billingAddress,
    additionalInformation: order.additionalInformation,
    lines: lines.map((line) => ({
      code: line.code,
      name: line.name,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      linePriceCents: line.linePriceCents,
      chargedCents: line.chargedCents,
      vatBasisPoints: line.isGiftCard ? 0 : line.vatBasisPoints,
      isGiftCard: line.isGiftCard,
      refundedQuantity: refunded.get(line.code) ?? 0,
    })),
    subTotalCents: order.subTotalCents,
    discountCents: order.discountCents,
    shippingCents: order.shippingCents,
    vatCents: order.vatCents,
    vat: [...byRate.entries()]
      .filter(([, gross]) => gross > 0)
      .sort(([a], [b]) => b - a)
      .map(([basisPoints, grossCents]) => ({
        basisPoints,
        grossCents,
        vatCents: vatOfGross(grossCents, basisPoints),
      })),
    couponCodes: order.couponCodes,
    giftCards,
    payments: payments.map((p) => ({
      stamp: p.stamp,
      provider: p.provider,
      status: p.status,
      amountCents: p.amountCents,
      method: p.method,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      status: r.status,
      lines: r.lines,
      createdAt: r.createdAt.toISOString(),
    })),
    refundableCents: refundable,
    cancellable:
      order.status === 'pending_payment' ||
      (order.status === 'paid' &&
        CANCELLABLE_FULFILMENT.includes(order.fulfilment) &&
        !lines.some((line) => line.isGiftCard)),
    nextFulfilment:
      order.status === 'paid'
        ? FULFILMENT_TRANSITIONS.filter((move) => move.from === order.fulfilment).map(
            (move) => move.to,
          )
        : [],
    timeline: await timelineOf(db, order),
  };
}

/** Opens an order for its page; a read of personal data, written to the audit log. */
export async function openOrder(request: FastifyRequest, id: string): Promise<OrderDetail> {
  const order = await scopedOrder(request, id, 'orders.read');
  return request.server.db.transaction(async (tx) => {
    await recordAudit(tx, actorOf(request), { action: 'order.open', ...orderSubject(order) });
    return orderDetail(tx, order);
  });
}

/**
 * A delivery date's pick list: its slots with their paid orders counted, and for the chosen slot
 * (or the whole day) the products summed, then each order with its address and lines. Cancelled,
 * expired and unpaid orders are not picked.
 */
export async function pickList(request: FastifyRequest, query: PickListQuery): Promise<PickList> {
  const db = request.server.db;
  const grants = signedIn(request).grants;
  const date = query.date ?? helsinkiDate(new Date());
  const day: SQL[] = [
    scopeWhere(grants, 'orders.read', { site: orders.siteId, lang: orders.language }),
    eq(orders.deliveryDate, date),
    eq(orders.status, 'paid'),
  ];
  if (query.site) day.push(eq(orders.siteId, query.site));
  if (query.lang) day.push(eq(orders.language, query.lang));
  const slots = await db
    .select({ startTime: orders.startTime, endTime: orders.endTime, orders: count() })
    .from(orders)
    .where(and(...day))
    .groupBy(orders.startTime, orders.endTime)
    .orderBy(asc(orders.startTime), asc(orders.endTime));
  const chosen = await db
    .select()
    .from(orders)
    .where(and(...day, ...(query.slot ? [eq(orders.startTime, query.slot)] : [])))
    .orderBy(asc(orders.startTime), asc(orders.number));
  const lines = await linesOfOrders(
    db,
    chosen.map((o) => o.id),
  );
  const summed = new Map<string, { code: string; name: string; quantity: number }>();
  for (const line of lines) {
    const sum = summed.get(line.code) ?? { code: line.code, name: line.name, quantity: 0 };
    sum.quantity += line.quantity;
    summed.set(line.code, sum);
  }
  await recordAudit(db, actorOf(request), {
    action: 'order.pick-list',
    subjectType: 'order',
    siteId: query.site ?? null,
    lang: query.lang ?? null,
    changes: { query: { after: query } },
  });
  return {
    date,
    slot: query.slot ?? null,
    slots: slots.map((s) => ({
      startTime: s.startTime ?? '',
      endTime: s.endTime ?? '',
      orders: Number(s.orders),
    })),
    products: [...summed.values()].sort(
      (a, b) => a.name.localeCompare(b.name, 'fi') || a.code.localeCompare(b.code),
    ),
    orders: chosen.map((order) => ({
      id: order.id,
      number: order.number,
      siteId: order.siteId,
      lang: order.language,
      fulfilment: order.fulfilment,
      startTime: order.startTime,
      endTime: order.endTime,
      name: nameOf(order),
      phoneNumber: order.phoneNumber,
      address: order.deliveryAddress,
      additionalInformation: order.additionalInformation,
      lines: lines
        .filter((line) => line.orderId === order.id)
        .map(({ code, name, quantity }) => ({ code, name, quantity })),
    })),
  };
}

/** The lines of the orders, gift cards left out (nothing to pick), in name order. */
async function linesOfOrders(db: Database, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      orderId: orderLines.orderId,
      code: orderLines.code,
      name: orderLines.name,
      quantity: orderLines.quantity,
    })
    .from(orderLines)
    .where(and(inArray(orderLines.orderId, ids), ne(orderLines.isGiftCard, true)))
    .orderBy(asc(orderLines.name), asc(orderLines.code));
}
