import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { addOrderNote, cancelOrderByStaff, fulfilOrders, refundByStaff } from './actions.server.ts';
import { listCatalogue, setDateStock, setPrice, setStock, setWeekly } from './catalogue.server.ts';
import {
  CATALOGUE_API,
  catalogueListSchema,
  catalogueQuerySchema,
  codeParamsSchema,
  dateStockBodySchema,
  priceBodySchema,
  stockBodySchema,
  weeklyBodySchema,
} from './catalogue-schemas.ts';
import {
  listCustomers,
  lockCustomer,
  openCustomer,
  sendPasswordReset,
} from './customers.server.ts';
import {
  CUSTOMERS_API,
  customerDetailSchema,
  customerIdParamsSchema,
  customerLockSchema,
  customersListSchema,
  customersQuerySchema,
} from './customers-schemas.ts';
import { registerDelivery } from './delivery-routes.server.ts';
import {
  assertOrderAccess,
  assertShopAccess,
  listOrders,
  openOrder,
  pickList,
} from './orders.server.ts';
import {
  adjustGiftCard,
  createCoupon,
  editCoupon,
  findGiftCard,
  issueGiftCard,
  listCoupons,
} from './promotions.server.ts';
import {
  COUPONS_API,
  couponEditSchema,
  couponFieldsSchema,
  couponIdParamsSchema,
  couponRowSchema,
  couponsListSchema,
  couponsQuerySchema,
  GIFT_CARDS_API,
  giftCardAdjustSchema,
  giftCardIdParamsSchema,
  giftCardIssuedSchema,
  giftCardIssueSchema,
  giftCardLookupSchema,
  giftCardSchema,
} from './promotions-schemas.ts';
import { dailyReport, dailyReportCsv } from './report.server.ts';
import { registerReviews } from './reviews-routes.server.ts';
import {
  cancelBodySchema,
  dailyReportQuerySchema,
  dailyReportSchema,
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
  REPORT_API,
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
  registerReport(app);
  registerWrites(app);
  registerCatalogue(app);
  registerPromotions(app);
  registerCustomers(app);
  // Delivery areas, slots and closed days (decision 142), with `shop.manage`.
  registerDelivery(app);
  // Review moderation (decision 148), with `reviews.moderate`.
  registerReviews(app);
}

/** The shop's customers: `customers.read` to find and open, `customers.manage` to lock or mail. */
function registerCustomers(app: ZodApp) {
  const read = { permission: 'customers.read' } as const;
  const manage = { permission: 'customers.manage' } as const;
  const reader = async (request: FastifyRequest) => assertShopAccess(request, 'customers.read');
  const manager = async (request: FastifyRequest) => assertShopAccess(request, 'customers.manage');
  app.get(
    CUSTOMERS_API,
    {
      config: { staff: read, rateLimit: API_LIMIT },
      preValidation: reader,
      schema: {
        tags: [TAG],
        summary: 'The shop’s customers, newest first, found by e-mail address or name',
        description: '50 at a time from `offset`. Written to the audit log.',
        querystring: customersQuerySchema,
        response: {
          200: jsonAnswer(customersListSchema, 'Customers'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return listCustomers(request, request.query);
    },
  );
  app.get(
    `${CUSTOMERS_API}/:id`,
    {
      config: { staff: read, rateLimit: API_LIMIT },
      preValidation: reader,
      schema: {
        tags: [TAG],
        summary: 'Opens a customer: addresses, orders and reviews (written to the audit log)',
        params: customerIdParamsSchema,
        response: {
          200: jsonAnswer(customerDetailSchema, 'The customer'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return openCustomer(request, request.params.id);
    },
  );
  app.post(
    `${CUSTOMERS_API}/:id/lock`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: manage, rateLimit: WRITE_LIMIT },
      preValidation: manager,
      schema: {
        tags: [TAG],
        summary: 'Locks a customer’s account with a reason, or opens it again',
        description:
          'A locked account’s sessions end and it cannot log in (it is answered as a wrong password) until opened.',
        security: XSRF_SECURITY,
        params: customerIdParamsSchema,
        body: customerLockSchema,
        response: {
          200: jsonAnswer(customerDetailSchema, 'The customer'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return lockCustomer(request, request.params.id, request.body);
    },
  );
  app.post(
    `${CUSTOMERS_API}/:id/password-reset`,
    {
      config: { staff: manage, rateLimit: { max: 10, timeWindow: 60_000 } },
      preValidation: manager,
      schema: {
        tags: [TAG],
        summary: 'Mails the customer a password-reset link at their own address',
        security: XSRF_SECURITY,
        params: customerIdParamsSchema,
        response: {
          200: jsonAnswer(okAnswer, 'Sent to the outbox'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      await sendPasswordReset(request, request.params.id);
      return { ok: true as const };
    },
  );
}

/** Coupons and gift cards (`shop.manage`); money made or changed needs re-authentication. */
function registerPromotions(app: ZodApp) {
  const config = { staff: SHOP_MANAGE, rateLimit: API_LIMIT };
  const money = { staff: { ...SHOP_MANAGE, reauth: true }, rateLimit: WRITE_LIMIT };
  app.get(
    COUPONS_API,
    {
      config,
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'The shop’s coupons with their use counts',
        querystring: couponsQuerySchema,
        response: {
          200: jsonAnswer(couponsListSchema, 'Coupons'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return listCoupons(request, request.query);
    },
  );
  app.post(
    COUPONS_API,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: SHOP_MANAGE, rateLimit: WRITE_LIMIT },
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'Creates a coupon',
        description: 'A percentage or an amount off, never both; a code in use is 409.',
        security: XSRF_SECURITY,
        body: couponFieldsSchema,
        response: {
          200: jsonAnswer(couponRowSchema, 'The coupon'),
          ...problemAnswers(400, 401, 403, 409, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return createCoupon(request, request.body);
    },
  );
  app.put(
    `${COUPONS_API}/:id`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: SHOP_MANAGE, rateLimit: WRITE_LIMIT },
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'Edits a coupon on the version the staff member saw',
        description:
          'A changed version is 409; a total limit below the uses made is 409 with the count.',
        security: XSRF_SECURITY,
        params: couponIdParamsSchema,
        body: couponEditSchema,
        response: {
          200: jsonAnswer(couponRowSchema, 'The coupon'),
          ...problemAnswers(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return editCoupon(request, request.params.id, request.body.coupon, request.body.version);
    },
  );
  app.post(
    `${GIFT_CARDS_API}/find`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: SHOP_MANAGE, rateLimit: { max: 60, timeWindow: 60_000 } },
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'Finds a gift card by its code, with its balance history',
        description:
          'The code goes in the body, never in an address. Written to the audit log; 404 when no card has it.',
        security: XSRF_SECURITY,
        body: giftCardLookupSchema,
        response: {
          200: jsonAnswer(giftCardSchema, 'The gift card'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return findGiftCard(request, request.body.code);
    },
  );
  app.post(
    GIFT_CARDS_API,
    {
      bodyLimit: BODY_LIMIT,
      config: money,
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'Issues a gift card by hand, with a reason; its code is answered once',
        description: 'Needs re-authentication.',
        security: XSRF_SECURITY,
        body: giftCardIssueSchema,
        response: {
          200: jsonAnswer(giftCardIssuedSchema, 'The new card and its code'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return issueGiftCard(request, request.body);
    },
  );
  app.post(
    `${GIFT_CARDS_API}/:id/adjust`,
    {
      bodyLimit: BODY_LIMIT,
      config: money,
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'Raises or lowers a gift card’s balance, with a reason',
        description:
          'From the balance the staff member saw (409 if it changed); never below zero. Needs re-authentication.',
        security: XSRF_SECURITY,
        params: giftCardIdParamsSchema,
        body: giftCardAdjustSchema,
        response: {
          200: jsonAnswer(giftCardSchema, 'The gift card'),
          ...problemAnswers(400, 401, 403, 404, 409, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return adjustGiftCard(request, request.params.id, request.body);
    },
  );
}

const SHOP_MANAGE = { permission: 'shop.manage' } as const;
const shopManager = async (request: FastifyRequest) => assertShopAccess(request, 'shop.manage');
const okAnswer = z.object({ ok: z.literal(true) });

/** Stock, per-date stock, weekly quantities and prices (`shop.manage`). */
function registerCatalogue(app: ZodApp) {
  app.get(
    `${CATALOGUE_API}/products`,
    {
      config: { staff: SHOP_MANAGE, rateLimit: API_LIMIT },
      preValidation: shopManager,
      schema: {
        tags: [TAG],
        summary: 'The shop’s products with price, VAT, stock, weekly and per-date stock',
        description: '50 at a time by code from `offset`; `q` finds part of a name or code.',
        querystring: catalogueQuerySchema,
        response: {
          200: jsonAnswer(catalogueListSchema, 'Products'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return listCatalogue(request, request.query);
    },
  );

  const write = (
    path: string,
    summary: string,
    description: string,
    body: z.ZodType,
    run: (request: FastifyRequest, code: string) => Promise<void>,
  ) =>
    app.post(
      `${CATALOGUE_API}/products/:code/${path}`,
      {
        bodyLimit: BODY_LIMIT,
        config: { staff: SHOP_MANAGE, rateLimit: WRITE_LIMIT },
        preValidation: shopManager,
        schema: {
          tags: [TAG],
          summary,
          description,
          security: XSRF_SECURITY,
          params: codeParamsSchema,
          body,
          response: {
            200: jsonAnswer(okAnswer, 'Changed'),
            ...problemAnswers(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request, reply) => {
        noStore(reply);
        await run(request, (request.params as { code: string }).code);
        return { ok: true as const };
      },
    );

  write(
    'stock',
    'Sets a product’s stock (null: unlimited)',
    '`expected` is the stock the staff member saw; if an order or someone else changed it since, 409 says what it is now and nothing changes.',
    stockBodySchema,
    (request, code) => setStock(request, code, stockBodySchema.parse(request.body)),
  );
  write(
    'date-stock',
    'Sets a product’s stock on one delivery date',
    'Below what is already sold on the date is 409 with that count.',
    dateStockBodySchema,
    (request, code) => setDateStock(request, code, dateStockBodySchema.parse(request.body)),
  );
  write(
    'weekly',
    'Sets a product’s quantities per delivery weekday (Monday first; null for none)',
    'Dates already under way keep their own stock.',
    weeklyBodySchema,
    (request, code) => setWeekly(request, code, weeklyBodySchema.parse(request.body).quantities),
  );
  write(
    'price',
    'Sets a product’s price and VAT class',
    '`expected` is what the staff member saw; a change since is 409. Orders keep their prices.',
    priceBodySchema,
    (request, code) => setPrice(request, code, priceBodySchema.parse(request.body)),
  );
}

/** The daily sales report, as a screen's data and as CSV for accounting. */
function registerReport(app: ZodApp) {
  app.get(
    REPORT_API,
    {
      config: { staff: READ, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'A day’s sales: orders paid, VAT per rate, gift cards, refunds',
        description:
          'Orders paid and refunds confirmed on the day in Helsinki (today without `date`), in the sites the grants reach. Each order’s VAT per rate as its receipt shows it, summed.',
        querystring: dailyReportQuerySchema,
        response: {
          200: jsonAnswer(dailyReportSchema, 'The report'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return dailyReport(request, request.query);
    },
  );

  app.get(
    `${REPORT_API}.csv`,
    {
      config: { staff: READ, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The day’s sales as CSV for accounting',
        description:
          'UTF-8 with a byte-order mark, `;` between cells, decimal commas: a row per order and refund, then the totals and each VAT rate.',
        querystring: dailyReportQuerySchema,
        response: {
          200: { description: 'The CSV', content: { 'text/csv': { schema: z.string() } } },
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const report = await dailyReport(request, request.query);
      noStore(reply);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-disposition', `attachment; filename="myynti-${report.date}.csv"`);
      return reply
        .type('text/csv; charset=utf-8')
        .send(dailyReportCsv(report, request.staff?.lang ?? 'fi'));
    },
  );
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
