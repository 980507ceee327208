import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { addOrderNote, cancelOrderByStaff, fulfilOrders, refundByStaff } from './actions.server.ts';
import { registerDelivery } from './delivery-routes.server.ts';
import {
  assertOrderAccess,
  assertShopAccess,
  listOrders,
  openOrder,
  pickList,
} from './orders.server.ts';
import {
  cancelBodySchema,
  fulfilAnswerSchema,
  fulfilBodySchema,
  ORDERS_API,
  orderDetailSchema,
  orderIdParamsSchema,
  orderNoteSchema,
  ordersListSchema,
  ordersQuerySchema,
  PICK_LIST_API,
  pickListQuerySchema,
  pickListSchema,
  refundBodySchema,
} from './schemas.ts';

const TAG = 'admin';
const API_LIMIT = { max: 600, timeWindow: 60_000 };
const WRITE_LIMIT = { max: 120, timeWindow: 60_000 };
const BODY_LIMIT = 64 * 1024;
const READ = { permission: 'orders.read' } as const;
const MANAGE = { permission: 'orders.manage' } as const;

/** Personal data: never kept by a browser or a proxy. */
function noStore(reply: FastifyReply) {
  reply.header('cache-control', 'no-store');
}

/**
 * The back office's order routes (decision 141): reads need `orders.read`, fulfilment, notes and
 * cancelling `orders.manage`, refunds `orders.refund`, each for the order's own site and
 * language (403 otherwise, checked once the order is found; lists are limited by the grants).
 * Cancelling and refunding move money: both need re-authentication.
 */
export async function shopAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerReads(app);
  registerWrites(app);
  // Delivery areas, slots and closed days (decision 142), with `shop.manage`.
  registerDelivery(app);
}

function registerReads(app: ZodApp) {
  app.get(
    ORDERS_API,
    {
      config: { staff: READ, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The shop’s orders the staff member may read, newest first',
        description:
          'Filtered by status, fulfilment, latest payment status, order date (Helsinki), delivery date and slot; `q` finds an order number or part of an e-mail address or a name. 50 at a time from `offset`. Written to the audit log (names and addresses are personal data).',
        querystring: ordersQuerySchema,
        response: {
          200: jsonAnswer(ordersListSchema, 'Orders'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return listOrders(request, request.query);
    },
  );

  app.get(
    PICK_LIST_API,
    {
      config: { staff: READ, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'A delivery date’s pick list: its slots, the products summed, then each order',
        description:
          'Only paid orders are picked. Without `slot` the whole day. Written to the audit log.',
        querystring: pickListQuerySchema,
        response: {
          200: jsonAnswer(pickListSchema, 'The pick list'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return pickList(request, request.query);
    },
  );

  app.get(
    `${ORDERS_API}/:id`,
    {
      config: { staff: READ, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Opens an order: lines, sums, VAT, payments, refunds and its timeline',
        description: 'Written to the audit log.',
        params: orderIdParamsSchema,
        response: {
          200: jsonAnswer(orderDetailSchema, 'The order'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return openOrder(request, request.params.id);
    },
  );
}

function registerWrites(app: ZodApp) {
  app.post(
    `${ORDERS_API}/fulfilment`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: MANAGE, rateLimit: WRITE_LIMIT },
      preValidation: async (request) => assertShopAccess(request, 'orders.manage'),
      schema: {
        tags: [TAG],
        summary: 'Moves orders one fulfilment step (packed, out for delivery, delivered, or back)',
        description:
          'Each order names the step the staff member saw (`from`); one elsewhere is answered in `stale` and left as it is, one already at `to` counts as moved. Leaving for delivery mails the shopper.',
        security: XSRF_SECURITY,
        body: fulfilBodySchema,
        response: {
          200: jsonAnswer(fulfilAnswerSchema, 'What moved'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return fulfilOrders(request, request.body);
    },
  );

  app.post(
    `${ORDERS_API}/:id/cancel`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { ...MANAGE, reauth: true }, rateLimit: WRITE_LIMIT },
      preValidation: (request) => assertOrderAccess(request, 'orders.manage'),
      schema: {
        tags: [TAG],
        summary: 'Cancels an order; what it took goes back and what was paid is refunded',
        description:
          'An unpaid order, or a paid one not yet out for delivery. The slot, stock, date stock, coupon uses and gift-card balance go back in the same transaction, the payment is refunded through its provider, and the shopper is mailed. A second call changes nothing. Needs re-authentication.',
        security: XSRF_SECURITY,
        params: orderIdParamsSchema,
        body: cancelBodySchema,
        response: {
          200: jsonAnswer(orderDetailSchema, 'The order, cancelled'),
          ...problemAnswers(400, 401, 403, 404, 409, 429, 502),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return cancelOrderByStaff(request, request.params.id, request.body.reason);
    },
  );

  app.post(
    `${ORDERS_API}/:id/refunds`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { permission: 'orders.refund', reauth: true }, rateLimit: WRITE_LIMIT },
      preValidation: (request) => assertOrderAccess(request, 'orders.refund'),
      schema: {
        tags: [TAG],
        summary: 'Refunds an amount or lines of an order through its payment provider',
        description:
          'The same `key` again is the same refund, made once. More than what is left of the payment is 409 and nothing is written; a provider that does not answer is 502 and the refund waits to be sent again with the same key. Needs re-authentication.',
        security: XSRF_SECURITY,
        params: orderIdParamsSchema,
        body: refundBodySchema,
        response: {
          200: jsonAnswer(orderDetailSchema, 'The order with its refund'),
          ...problemAnswers(400, 401, 403, 404, 409, 429, 502),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return refundByStaff(request, request.params.id, request.body);
    },
  );

  app.post(
    `${ORDERS_API}/:id/notes`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: MANAGE, rateLimit: WRITE_LIMIT },
      preValidation: (request) => assertOrderAccess(request, 'orders.manage'),
      schema: {
        tags: [TAG],
        summary: 'Adds a staff note to the order’s timeline',
        security: XSRF_SECURITY,
        params: orderIdParamsSchema,
        body: orderNoteSchema,
        response: {
          200: jsonAnswer(orderDetailSchema, 'The order with the note'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return addOrderNote(request, request.params.id, request.body.text);
    },
  );
}
