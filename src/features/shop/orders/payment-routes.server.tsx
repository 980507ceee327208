import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { serverT } from '../../../i18n/catalogues.ts';
import { Island } from '../../../render/island.server.tsx';
import type { PageLayout } from '../../../render/render-page.tsx';
import { renderPage } from '../../../render/render-page.tsx';
import { NotFound } from '../../../server/errors.ts';
import { startJob } from '../../../server/jobs.ts';
import { jsonAnswer, problemAnswer, problemSchema } from '../../../server/openapi.ts';
import type { Lang } from '../../../sites/types.ts';
import { ga4Item } from '../analytics.ts';
import { sessionCustomerId } from '../customer/accounts.server.ts';
import { onShop } from '../customer/routes.server.ts';
import { paymentTypeLabel } from '../payment/payment-type.ts';
import { PaymentReturnRefused } from '../payment/provider.ts';
import { moneyString } from '../schemas.ts';
import { orderLines, orders } from '../tables.ts';
import styles from './orders.module.css';
import { deliveryLabel, STATUS_TEXT } from './paid.server.ts';
import {
  afterReturnPath,
  expireUnpaidOrders,
  handlePaymentReturn,
} from './payment-returns.server.ts';
import {
  CONFIRMATION_PATH,
  jobPaymentDeps,
  type OrderRow,
  PAYMENT_CALLBACK_PATH,
  PAYMENT_RETURN_PATH,
  paymentDeps,
} from './payments.server.ts';
import type { PurchaseData } from './purchase-event.tsx';
import { applyRefundCallback, REFUND_CALLBACK_PATH } from './refunds.server.ts';

/**
 * The payment's routes (decision 028): the provider's callback (API), the shopper's return page,
 * the order confirmation page, and the job that lets unpaid orders expire.
 */

const EXPIRY_INTERVAL_MS = 60_000;

/** Paytrail's callback query: its `checkout-` parameters and the signature, all checked later. */
const returnValue = z.union([z.string(), z.array(z.string())]).optional();
export const paymentReturnQuerySchema = z.looseObject({
  'checkout-account': returnValue,
  'checkout-algorithm': returnValue,
  'checkout-amount': returnValue,
  'checkout-stamp': returnValue,
  'checkout-reference': returnValue,
  'checkout-transaction-id': returnValue,
  'checkout-status': returnValue,
  'checkout-provider': returnValue,
  signature: returnValue,
});

const callbackAnswerSchema = z.object({ received: z.literal(true) });

/**
 * The callback route and the expiry job. The callback answers 200 once the return is applied
 * (or was already), 403 problem+json when the provider's signature or the attempt refuses it.
 */
export const orderPaymentsPlugin = fp(
  async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    app.get(
      PAYMENT_CALLBACK_PATH,
      {
        config: { session: false },
        schema: {
          tags: ['shop'],
          summary: "The payment provider's callback of a payment attempt",
          description:
            'Paytrail calls this with the `checkout-` parameters of a payment and their signature (decision 024). A verified `ok` with the attempt amount marks the order paid once and sends the confirmation mails; `fail` cancels an unpaid order once and gives back what it took. Any number of calls, in any order, have the effect of one.',
          querystring: paymentReturnQuerySchema,
          response: {
            200: jsonAnswer(callbackAnswerSchema, 'The return was applied (or had been).'),
            403: problemAnswer(
              problemSchema,
              'The signature, account, stamp, transaction or amount is not right: nothing changed.',
            ),
            404: problemAnswer(problemSchema, 'Not the shop.'),
            500: problemAnswer(problemSchema, 'The server could not apply the return.'),
          },
        },
      },
      async (request, reply) => {
        onShop(request);
        await handlePaymentReturn(paymentDeps(request), request.query);
        reply.header('cache-control', 'no-store');
        return { received: true as const };
      },
    );

    app.get(
      REFUND_CALLBACK_PATH,
      {
        config: { session: false },
        schema: {
          tags: ['shop'],
          summary: "The payment provider's callback of a refund",
          description:
            "Paytrail calls this with the `checkout-` parameters of a refund it answered `pending` and their signature (decision 141): `checkout-stamp` is the refund's id. A verified `ok` or `fail` with the refund's amount records its outcome once. Any number of calls have the effect of one.",
          querystring: paymentReturnQuerySchema,
          response: {
            200: jsonAnswer(callbackAnswerSchema, 'The outcome was recorded (or had been).'),
            403: problemAnswer(
              problemSchema,
              'The signature, account, stamp or amount is not right: nothing changed.',
            ),
            404: problemAnswer(problemSchema, 'Not the shop.'),
            500: problemAnswer(problemSchema, 'The server could not record the outcome.'),
          },
        },
      },
      async (request, reply) => {
        onShop(request);
        const deps = paymentDeps(request);
        await applyRefundCallback(deps, request.query);
        reply.header('cache-control', 'no-store');
        return { received: true as const };
      },
    );

    fastify.addHook('onReady', async () => {
      startJob(fastify, {
        name: 'order-expiry',
        everyMs: EXPIRY_INTERVAL_MS,
        run: (db) => expireUnpaidOrders(jobPaymentDeps(fastify, db)),
        doneMessage: 'orders: unpaid orders expired',
      });
    });
  },
  { name: 'order-payments', dependencies: ['sessions'] },
);

// --- pages ---------------------------------------------------------------------------------

const euro = (cents: number) => `${moneyString(cents)} €`;
const euros = (cents: number) => Math.round(cents) / 100;

/** The `purchase` event's data of a paid order. */
export function purchaseData(
  order: OrderRow,
  lines: (typeof orderLines.$inferSelect)[],
): PurchaseData {
  const coupons = order.couponCodes;
  return {
    transaction_id: String(order.number),
    currency: 'EUR',
    value: euros(order.totalCents + order.usedGiftCardCents),
    tax: euros(order.vatCents),
    shipping: euros(order.shippingCents),
    ...(coupons.length > 0 ? { coupon: coupons.join(',') } : {}),
    payment_type: paymentTypeLabel(order.paymentMethodCode),
    items: lines.map((line) =>
      ga4Item({
        code: line.code,
        name: line.name,
        category: line.category,
        unitCents: line.unitPriceCents,
        quantity: line.quantity,
        discountCents:
          (line.linePriceWithoutDiscountsCents - line.linePriceCents) / Math.max(1, line.quantity),
        coupons,
      }),
    ),
  };
}

const statusMessage = {
  paid: 'shop.order.confirmation.paid',
  pending_payment: 'shop.order.confirmation.waiting',
  cancelled: 'shop.order.confirmation.cancelled',
  expired: 'shop.order.confirmation.expired',
} as const;

function Confirmation({
  order,
  lines,
  lang,
}: {
  order: OrderRow;
  lines: (typeof orderLines.$inferSelect)[];
  lang: Lang;
}) {
  const t = serverT(lang);
  const a = order.deliveryAddress;
  const orderDiscount =
    order.subTotalCents + order.shippingCents - order.usedGiftCardCents - order.totalCents;
  return (
    <>
      <p role="status" className={styles.notice}>
        {t(statusMessage[order.status])}
      </p>
      {lines.some((line) => line.isGiftCard) &&
      (order.status === 'paid' || order.status === 'pending_payment') ? (
        <p data-gift-cards>
          {order.status === 'paid'
            ? t('shop.order.giftCardsMailed', { email: order.email })
            : t('shop.order.giftCardsSent')}
        </p>
      ) : null}
      <dl className={styles.facts}>
        <dt>{t('shop.order.number')}</dt>
        <dd>{order.number}</dd>
        <dt>{t('shop.order.status')}</dt>
        <dd>{t(STATUS_TEXT[order.status])}</dd>
        <dt>{t('shop.order.deliveryTime')}</dt>
        <dd>{deliveryLabel(order, lang)}</dd>
        <dt>{t('shop.order.deliveryAddress')}</dt>
        <dd>
          {`${a.firstName} ${a.lastName}`}
          <br />
          {a.streetAddress}
          <br />
          {`${a.postalCode} ${a.city}`}
        </dd>
      </dl>
      <table className={styles.lines}>
        <thead>
          <tr>
            <th scope="col">{t('shop.order.product')}</th>
            <th scope="col" className={styles.number}>
              {t('shop.order.quantity')}
            </th>
            <th scope="col" className={styles.number}>
              {t('shop.order.price')}
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.code}>
              <td>{line.name}</td>
              <td className={styles.number}>{line.quantity}</td>
              <td className={styles.number}>{euro(line.linePriceCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className={styles.totals}>
        <dt>{t('shop.cart.subTotal')}</dt>
        <dd>{euro(order.subTotalCents)}</dd>
        {orderDiscount > 0 ? (
          <>
            <dt>{t('shop.cart.orderDiscount')}</dt>
            <dd>{`-${euro(orderDiscount)}`}</dd>
          </>
        ) : null}
        {order.shippingCents > 0 ? (
          <>
            <dt>{t('shop.cart.shipping')}</dt>
            <dd>{euro(order.shippingCents)}</dd>
          </>
        ) : null}
        {order.usedGiftCardCents > 0 ? (
          <>
            <dt>{t('shop.order.giftCard')}</dt>
            <dd>{`-${euro(order.usedGiftCardCents)}`}</dd>
          </>
        ) : null}
        <dt>{t('shop.cart.total')}</dt>
        <dd>{euro(order.totalCents)}</dd>
        <dt>{t('shop.order.vatIncluded')}</dt>
        <dd>{euro(order.vatCents)}</dd>
      </dl>
      {order.status === 'cancelled' || order.status === 'expired' ? (
        <p>
          <a href="/ostoskori#tuotteet">{t('shop.order.confirmation.toCart')}</a>
        </p>
      ) : null}
      {order.status === 'paid' ? (
        <Island name="shop-purchase" lang={lang} props={{ purchase: purchaseData(order, lines) }} />
      ) : null}
    </>
  );
}

/** The order, when the request's customer placed it or its session did; otherwise undefined. */
export async function orderOfVisitor(
  request: FastifyRequest,
  orderId: string,
): Promise<OrderRow | undefined> {
  const [order] = await request.server.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) return undefined;
  const customerId = await sessionCustomerId(request.session);
  if (customerId && order.customerId === customerId) return order;
  const session = request.session;
  if (session && !session.isNew && order.sessionId === session.id) return order;
  return undefined;
}

const confirmationQuerySchema = z.object({ tilaus: z.uuid() });

/**
 * The shopper's pages of a payment, on the shop only, `noindex` and `no-store`: the return from
 * the provider (applies the verified return like the callback, then sends the shopper on) and the
 * order's confirmation page (404 for anyone but the order's customer or placing session).
 */
export function orderPaymentPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    fastify.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    const page = async (
      request: FastifyRequest,
      reply: FastifyReply,
      options: {
        title: 'shop.order.confirmation.title' | 'shop.order.return.title';
        status: number;
        body: ReactNode;
      },
    ) => {
      const t = serverT(request.locale.lang);
      return renderPage(request, reply, {
        title: t(options.title),
        status: options.status,
        head: <meta name="robots" content="noindex" />,
        body: await layout(
          request,
          <section aria-labelledby="order-title" className={styles.page}>
            <h1 id="order-title">{t(options.title)}</h1>
            {options.body}
          </section>,
        ),
      });
    };

    fastify.get(PAYMENT_RETURN_PATH, async (request, reply) => {
      onShop(request);
      const deps = paymentDeps(request);
      try {
        const { order } = await handlePaymentReturn(
          deps,
          (request.query ?? {}) as Record<string, unknown>,
        );
        return reply.redirect(afterReturnPath(order, deps.shopUrl), 303);
      } catch (error) {
        if (!(error instanceof PaymentReturnRefused)) throw error;
        const t = serverT(request.locale.lang);
        return page(request, reply, {
          title: 'shop.order.return.title',
          status: 403,
          body: (
            <>
              <p role="alert">{t('shop.order.return.refused')}</p>
              <p>
                <a href="/ostoskori#tuotteet">{t('shop.testBank.toCart')}</a>
              </p>
            </>
          ),
        });
      }
    });

    fastify.get(CONFIRMATION_PATH, async (request, reply) => {
      onShop(request);
      const query = confirmationQuerySchema.safeParse(request.query);
      if (!query.success) throw new NotFound();
      const order = await orderOfVisitor(request, query.data.tilaus);
      if (!order) throw new NotFound();
      const lines = await fastify.db
        .select()
        .from(orderLines)
        .where(eq(orderLines.orderId, order.id))
        .orderBy(asc(orderLines.code));
      return page(request, reply, {
        title: 'shop.order.confirmation.title',
        status: 200,
        body: <Confirmation order={order} lines={lines} lang={request.locale.lang} />,
      });
    });
  };
}
