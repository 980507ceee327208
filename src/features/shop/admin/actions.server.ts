import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { Conflict, Forbidden, Invalid } from '../../../server/errors.ts';
import type { Lang } from '../../../sites/types.ts';
import { enqueueMail } from '../../forms/index.server.ts';
import { actorOf, recordAudit } from '../../staff/index.server.ts';
import { can } from '../../staff/index.ts';
import {
  CANCELLABLE_FULFILMENT,
  fulfilmentMayMove,
  moveFulfilment,
  moveOrder,
} from '../orders/lifecycle.server.ts';
import { deliveryLabel, euro } from '../orders/paid.server.ts';
import { jobPaymentDeps } from '../orders/payments.server.ts';
import {
  type RefundDeps,
  type RefundRow,
  refundableCents,
  refundCall,
  refundOrder,
  sendRefund,
  type Written,
  writeRefundIn,
} from '../orders/refunds.server.ts';
import { type OrderEventKind, orderEvents, orderLines, orderRefunds, orders } from '../tables.ts';
import { orderDetail, orderSubject, scopedOrder } from './orders.server.ts';
import type { FulfilAnswer, FulfilBody, OrderDetail, RefundBody } from './schemas.ts';

/**
 * What shop staff do to orders (decision 141), each a transaction on the locked order rows with
 * its timeline event, the shopper's mail through the outbox and its audit row: fulfilment steps
 * (singly or in bulk), cancellation (what the order took goes back through the ledger, the money
 * as a refund written in the same transaction), refunds and notes. Every change is made on the
 * state the staff member saw, and a repeat changes nothing more.
 */

type Order = typeof orders.$inferSelect;

function staffOf(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** The refund dependencies of a staff request: the configured provider and shop address. */
function refundDeps(request: FastifyRequest): RefundDeps {
  return jobPaymentDeps(request.server, request.server.db);
}

async function addEvent(
  tx: Transaction,
  request: FastifyRequest,
  orderId: string,
  kind: OrderEventKind,
  detail: Record<string, unknown>,
  text: string | null = null,
): Promise<void> {
  await tx
    .insert(orderEvents)
    .values({ orderId, kind, staffId: request.staff?.staffId ?? null, text, detail });
}

/** A mail to the shopper in the order's language, queued and written on its timeline. */
async function mailShopper(
  tx: Transaction,
  request: FastifyRequest,
  order: Order,
  template: 'cancel' | 'refund' | 'delivery',
  text: (t: ReturnType<typeof serverT>) => { subject: string; text: string },
): Promise<void> {
  const t = serverT((order.language as Lang) ?? 'fi');
  await enqueueMail(tx, request.server.config.forms.encryptionKey, {
    to: order.email,
    ...text(t),
  });
  await addEvent(tx, request, order.id, 'mail', { template, to: order.email });
}

const addressLine = (order: Order) => {
  const a = order.deliveryAddress;
  return `${a.streetAddress}, ${a.postalCode} ${a.city}`;
};

/**
 * Moves each order's fulfilment from the step the staff member saw to `to`. The orders are
 * locked in one order (by id) so that two bulk moves never wait on each other; one already at
 * `to` counts as moved (a repeat), one elsewhere is answered stale and left as it is. Leaving for
 * delivery mails the shopper.
 */
export async function fulfilOrders(
  request: FastifyRequest,
  body: FulfilBody,
): Promise<FulfilAnswer> {
  for (const { from } of body.orders) {
    if (!fulfilmentMayMove(from, body.to)) {
      throw new Invalid(
        { to: 'admin.error.invalid' },
        `Fulfilment cannot go from ${from} to ${body.to}.`,
      );
    }
  }
  const ids = [...new Set(body.orders.map((o) => o.id))].sort();
  const fromOf = new Map(body.orders.map((o) => [o.id, o.from]));
  const grants = staffOf(request).grants;
  return request.server.db.transaction(async (tx) => {
    const locked = await tx
      .select()
      .from(orders)
      .where(inArray(orders.id, ids))
      .orderBy(orders.id)
      .for('update');
    for (const order of locked) {
      if (!can(grants, 'orders.manage', { siteId: order.siteId, lang: order.language })) {
        throw new Forbidden(`This needs orders.manage for ${order.siteId}/${order.language}.`);
      }
    }
    const answer: FulfilAnswer = { moved: [], stale: [] };
    for (const id of ids) {
      const order = locked.find((o) => o.id === id);
      const from = fromOf.get(id);
      if (!order || !from) {
        answer.stale.push(id);
        continue;
      }
      if (order.status === 'paid' && order.fulfilment === body.to) {
        answer.moved.push(id);
        continue;
      }
      const moved = await moveFulfilment(tx, id, from, body.to);
      if (!moved) {
        answer.stale.push(id);
        continue;
      }
      answer.moved.push(id);
      await addEvent(tx, request, id, 'fulfilment', { from, to: body.to });
      if (body.to === 'out_for_delivery' && from === 'packed') {
        await mailShopper(tx, request, moved, 'delivery', (t) => ({
          subject: t('shop.order.deliveryMail.subject', { number: String(moved.number) }),
          text: t('shop.order.deliveryMail.body', {
            number: String(moved.number),
            delivery: deliveryLabel(moved, moved.language as Lang),
            address: addressLine(moved),
          }),
        }));
      }
      await recordAudit(tx, actorOf(request), {
        action: 'order.fulfilment',
        ...orderSubject(order),
        changes: { fulfilment: { before: from, after: body.to } },
      });
    }
    return answer;
  });
}

/** The key of the refund a cancellation writes: one per order, so a repeat finds it. */
const cancelRefundKey = (orderId: string) => `cancel:${orderId}`;

/**
 * Cancels an order: an unpaid one, or a paid one not yet out for delivery. What it took (slot,
 * date stock, stock, coupon uses, gift-card balance) goes back through the ledger in the same
 * transaction, and what was paid is written as a refund there too, then sent to the provider.
 * A second cancel of a cancelled order writes nothing, but sends its refund again if the
 * provider never answered.
 */
export async function cancelOrderByStaff(
  request: FastifyRequest,
  id: string,
  reason: string,
): Promise<OrderDetail> {
  const deps = refundDeps(request);
  const staff = staffOf(request);
  const written = await request.server.db.transaction(async (tx) => {
    const order = await scopedOrder(request, id, 'orders.manage', tx);
    if (order.status === 'cancelled') return null;
    const refund = await cancelLocked(tx, request, deps, order, reason, staff.staffId);
    return refund;
  });
  if (written) await sendRefund(deps, written);
  else await resendCancelRefund(request, deps, id);
  return readDetail(request, id);
}

async function cancelLocked(
  tx: Transaction,
  request: FastifyRequest,
  deps: RefundDeps,
  order: Order,
  reason: string,
  staffId: string,
): Promise<Written | null> {
  let written: Written | null = null;
  if (order.status === 'pending_payment') {
    await moveOrder(tx, order.id, 'pending_payment', 'cancelled');
  } else if (order.status === 'paid') {
    if (!CANCELLABLE_FULFILMENT.includes(order.fulfilment)) {
      throw new Conflict('The order has left for delivery: it can no longer be cancelled.');
    }
    const [giftCardLine] = await tx
      .select({ code: orderLines.code })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), eq(orderLines.isGiftCard, true)))
      .limit(1);
    if (giftCardLine) {
      throw new Conflict('The order bought gift cards, which were sent: refund its lines instead.');
    }
    const left = await refundableCents(tx, order.id);
    const moved = await moveOrder(tx, order.id, 'paid', 'cancelled', { fulfilment: 'unfulfilled' });
    if (!moved) throw new Conflict('Someone changed the order. Open it again.');
    if (left > 0) {
      written = await writeRefundIn(
        tx,
        deps,
        moved,
        refundCall(order.id, { amountCents: left }, cancelRefundKey(order.id), staffId),
      );
    }
  } else {
    throw new Conflict(`An order that is ${order.status} cannot be cancelled.`);
  }
  const refundCents = written ? written.refund.amountCents : 0;
  await addEvent(
    tx,
    request,
    order.id,
    'cancelled',
    { from: order.status, refundCents },
    reason || null,
  );
  await mailShopper(tx, request, order, 'cancel', (t) => ({
    subject: t('shop.order.cancelMail.subject', { number: String(order.number) }),
    text: t('shop.order.cancelMail.body', {
      number: String(order.number),
      reason: reason ? t('shop.order.cancelMail.reason', { reason }) : '',
      refund:
        refundCents > 0
          ? t('shop.order.cancelMail.refund', { amount: euro(refundCents) })
          : t('shop.order.cancelMail.noRefund'),
    }),
  }));
  await recordAudit(tx, actorOf(request), {
    action: 'order.cancel',
    ...orderSubject(order),
    changes: {
      status: { before: order.status, after: 'cancelled' },
      ...(refundCents > 0 ? { refundCents: { after: refundCents } } : {}),
    },
  });
  return written;
}

/** The cancellation's refund sent again, when the provider never answered it. */
async function resendCancelRefund(request: FastifyRequest, deps: RefundDeps, id: string) {
  const [refund] = await request.server.db
    .select()
    .from(orderRefunds)
    .where(and(eq(orderRefunds.orderId, id), eq(orderRefunds.idempotencyKey, cancelRefundKey(id))));
  if (refund?.status !== 'requested') return;
  await refundOrder(
    deps,
    id,
    { amountCents: refund.amountCents },
    refund.idempotencyKey,
    refund.actor,
  );
}

/**
 * Refunds part or all of an order through its provider. The body's key makes a second press (or
 * a second member of staff with the same dialog) the same refund: only the first writes its
 * event and audit row. A refund the provider took or is working on mails the shopper.
 */
export async function refundByStaff(
  request: FastifyRequest,
  id: string,
  body: RefundBody,
): Promise<OrderDetail> {
  const deps = refundDeps(request);
  const staff = staffOf(request);
  const { key, ...ask } = body;
  const call = refundCall(id, ask, key, staff.staffId);
  const written = await request.server.db.transaction(async (tx) => {
    const order = await scopedOrder(request, id, 'orders.refund', tx);
    const result = await writeRefundIn(tx, deps, order, call);
    if (result.kind === 'send' && result.fresh) {
      await addEvent(tx, request, id, 'refund', {
        refundId: result.refund.id,
        amountCents: result.refund.amountCents,
        lines: result.refund.lines,
      });
      await recordAudit(tx, actorOf(request), {
        action: 'order.refund',
        ...orderSubject(order),
        changes: { refundCents: { after: result.refund.amountCents } },
      });
    }
    return { result, order };
  });
  const refund = await sendRefund(deps, written.result);
  if (written.result.kind === 'send' && written.result.fresh)
    await mailRefund(request, written.order, refund);
  return readDetail(request, id);
}

/** The shopper's refund mail, once the provider took the refund (or is working on it). */
async function mailRefund(request: FastifyRequest, order: Order, refund: RefundRow) {
  if (refund.status !== 'ok' && refund.status !== 'pending') return;
  await request.server.db.transaction((tx) =>
    mailShopper(tx, request, order, 'refund', (t) => ({
      subject: t('shop.order.refundMail.subject', { number: String(order.number) }),
      text: t('shop.order.refundMail.body', {
        number: String(order.number),
        amount: euro(refund.amountCents),
      }),
    })),
  );
}

/** A staff note on the order's timeline. */
export async function addOrderNote(
  request: FastifyRequest,
  id: string,
  text: string,
): Promise<OrderDetail> {
  return request.server.db.transaction(async (tx) => {
    const order = await scopedOrder(request, id, 'orders.manage', tx);
    await addEvent(tx, request, id, 'note', {}, text);
    await recordAudit(tx, actorOf(request), {
      action: 'order.note',
      ...orderSubject(order),
      changes: { note: { after: `${text.length} characters` } },
    });
    return orderDetail(tx, order);
  });
}

async function readDetail(request: FastifyRequest, id: string): Promise<OrderDetail> {
  const order = await scopedOrder(request, id, 'orders.read');
  return orderDetail(request.server.db, order);
}
