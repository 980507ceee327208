import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
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
import { API_LIMIT, WRITE_LIMIT } from './rate-limits.ts';
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

const BODY_LIMIT = 64 * 1024;
const READ = { permission: 'orders.read' } as const;
const MANAGE = { permission: 'orders.manage' } as const;
const SHOP_MANAGE = { permission: 'shop.manage' } as const;
const okAnswer = z.object({ ok: z.literal(true) });
const csvAnswer = { description: 'The CSV', content: { 'text/csv': { schema: z.string() } } };

/** A read of the lists and reports, limited by the grants. */
const reads = { staff: READ, rateLimit: API_LIMIT };
/** A write that needs `shop.manage` for the shop's site. */
const shopWrite = {
  staff: SHOP_MANAGE,
  rateLimit: WRITE_LIMIT,
  bodyLimit: BODY_LIMIT,
  preValidation: async (request: FastifyRequest) => assertShopAccess(request, 'shop.manage'),
};
/** A read that needs `shop.manage` for the shop's site. */
const shopRead = { ...shopWrite, rateLimit: API_LIMIT, bodyLimit: undefined };

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
  registerCoupons(app);
  registerGiftCards(app);
  registerCustomers(app);
  // Delivery areas, slots and closed days (decision 142), with `shop.manage`.
  registerDelivery(app);
  // Review moderation (decision 148), with `reviews.moderate`.
  registerReviews(app);
}

/** The shop's customers: `customers.read` to find and open, `customers.manage` to lock or mail. */
function registerCustomers(app: ZodApp) {
  const reader = {
    staff: { permission: 'customers.read' },
    rateLimit: API_LIMIT,
    preValidation: async (request: FastifyRequest) => assertShopAccess(request, 'customers.read'),
  } as const;
  const manager = {
    staff: { permission: 'customers.manage' },
    preValidation: async (request: FastifyRequest) => assertShopAccess(request, 'customers.manage'),
  } as const;
  const customer = jsonAnswer(customerDetailSchema, 'The customer');
  adminRoute(app, 'GET', CUSTOMERS_API, {
    ...reader,
    summary: 'The shop’s customers, newest first, found by e-mail address or name',
    description: '50 at a time from `offset`. Written to the audit log.',
    querystring: customersQuerySchema,
    answer: jsonAnswer(customersListSchema, 'Customers'),
    problems: [400, 401, 403, 429],
    handler: (request) => listCustomers(request, request.query),
  });
  adminRoute(app, 'GET', `${CUSTOMERS_API}/:id`, {
    ...reader,
    summary: 'Opens a customer: addresses, orders and reviews (written to the audit log)',
    params: customerIdParamsSchema,
    answer: customer,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openCustomer(request, request.params.id),
  });
  adminRoute(app, 'POST', `${CUSTOMERS_API}/:id/lock`, {
    ...manager,
    bodyLimit: BODY_LIMIT,
    rateLimit: WRITE_LIMIT,
    summary: 'Locks a customer’s account with a reason, or opens it again',
    description:
      'A locked account’s sessions end and it cannot log in (it is answered as a wrong password) until opened.',
    params: customerIdParamsSchema,
    body: customerLockSchema,
    answer: customer,
    problems: [400, 401, 403, 404, 429],
    handler: (request) => lockCustomer(request, request.params.id, request.body),
  });
  adminRoute(app, 'POST', `${CUSTOMERS_API}/:id/password-reset`, {
    ...manager,
    rateLimit: perMinute(10),
    summary: 'Mails the customer a password-reset link at their own address',
    params: customerIdParamsSchema,
    answer: jsonAnswer(okAnswer, 'Sent to the outbox'),
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => {
      await sendPasswordReset(request, request.params.id);
      return { ok: true as const };
    },
  });
}

/** Coupons (`shop.manage`): listed with their use counts, created and edited. */
function registerCoupons(app: ZodApp) {
  const coupon = jsonAnswer(couponRowSchema, 'The coupon');
  adminRoute(app, 'GET', COUPONS_API, {
    ...shopRead,
    summary: 'The shop’s coupons with their use counts',
    querystring: couponsQuerySchema,
    answer: jsonAnswer(couponsListSchema, 'Coupons'),
    problems: [400, 401, 403, 429],
    handler: (request) => listCoupons(request, request.query),
  });
  adminRoute(app, 'POST', COUPONS_API, {
    ...shopWrite,
    summary: 'Creates a coupon',
    description: 'A percentage or an amount off, never both; a code in use is 409.',
    body: couponFieldsSchema,
    answer: coupon,
    problems: [400, 401, 403, 409, 429],
    handler: (request) => createCoupon(request, request.body),
  });
  adminRoute(app, 'PUT', `${COUPONS_API}/:id`, {
    ...shopWrite,
    summary: 'Edits a coupon on the version the staff member saw',
    description:
      'A changed version is 409; a total limit below the uses made is 409 with the count.',
    params: couponIdParamsSchema,
    body: couponEditSchema,
    answer: coupon,
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) =>
      editCoupon(request, request.params.id, request.body.coupon, request.body.version),
  });
}

/** Gift cards (`shop.manage`): found by code; money made or changed needs re-authentication. */
function registerGiftCards(app: ZodApp) {
  const money = { ...shopWrite, staff: { ...SHOP_MANAGE, reauth: true } };
  adminRoute(app, 'POST', `${GIFT_CARDS_API}/find`, {
    ...shopWrite,
    rateLimit: perMinute(60),
    summary: 'Finds a gift card by its code, with its balance history',
    description:
      'The code goes in the body, never in an address. Written to the audit log; 404 when no card has it.',
    body: giftCardLookupSchema,
    answer: jsonAnswer(giftCardSchema, 'The gift card'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => findGiftCard(request, request.body.code),
  });
  adminRoute(app, 'POST', GIFT_CARDS_API, {
    ...money,
    summary: 'Issues a gift card by hand, with a reason; its code is answered once',
    description: 'Needs re-authentication.',
    body: giftCardIssueSchema,
    answer: jsonAnswer(giftCardIssuedSchema, 'The new card and its code'),
    problems: [400, 401, 403, 429],
    handler: (request) => issueGiftCard(request, request.body),
  });
  adminRoute(app, 'POST', `${GIFT_CARDS_API}/:id/adjust`, {
    ...money,
    summary: 'Raises or lowers a gift card’s balance, with a reason',
    description:
      'From the balance the staff member saw (409 if it changed); never below zero. Needs re-authentication.',
    params: giftCardIdParamsSchema,
    body: giftCardAdjustSchema,
    answer: jsonAnswer(giftCardSchema, 'The gift card'),
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) => adjustGiftCard(request, request.params.id, request.body),
  });
}

/** Stock, per-date stock, weekly quantities and prices (`shop.manage`). */
function registerCatalogue(app: ZodApp) {
  adminRoute(app, 'GET', `${CATALOGUE_API}/products`, {
    ...shopRead,
    summary: 'The shop’s products with price, VAT, stock, weekly and per-date stock',
    description: '50 at a time by code from `offset`; `q` finds part of a name or code.',
    querystring: catalogueQuerySchema,
    answer: jsonAnswer(catalogueListSchema, 'Products'),
    problems: [400, 401, 403, 429],
    handler: (request) => listCatalogue(request, request.query),
  });

  /** A change to one product: its body, and the use case that makes it. */
  const write = <B extends z.ZodType>(
    path: string,
    text: { summary: string; description: string },
    body: B,
    run: (request: FastifyRequest, code: string, body: z.output<B>) => Promise<void>,
  ) =>
    adminRoute(app, 'POST', `${CATALOGUE_API}/products/:code/${path}`, {
      ...shopWrite,
      ...text,
      params: codeParamsSchema,
      body,
      answer: jsonAnswer(okAnswer, 'Changed'),
      problems: [400, 401, 403, 404, 409, 429],
      handler: async (request) => {
        await run(request, request.params.code, request.body as z.output<B>);
        return { ok: true as const };
      },
    });

  write(
    'stock',
    {
      summary: 'Sets a product’s stock (null: unlimited)',
      description:
        '`expected` is the stock the staff member saw; if an order or someone else changed it since, 409 says what it is now and nothing changes.',
    },
    stockBodySchema,
    setStock,
  );
  write(
    'date-stock',
    {
      summary: 'Sets a product’s stock on one delivery date',
      description: 'Below what is already sold on the date is 409 with that count.',
    },
    dateStockBodySchema,
    setDateStock,
  );
  write(
    'weekly',
    {
      summary: 'Sets a product’s quantities per delivery weekday (Monday first; null for none)',
      description: 'Dates already under way keep their own stock.',
    },
    weeklyBodySchema,
    (request, code, body) => setWeekly(request, code, body.quantities),
  );
  write(
    'price',
    {
      summary: 'Sets a product’s price and VAT class',
      description:
        '`expected` is what the staff member saw; a change since is 409. Orders keep their prices.',
    },
    priceBodySchema,
    setPrice,
  );
}

/** The daily sales report, as a screen's data and as CSV for accounting. */
function registerReport(app: ZodApp) {
  adminRoute(app, 'GET', REPORT_API, {
    ...reads,
    summary: 'A day’s sales: orders paid, VAT per rate, gift cards, refunds',
    description:
      'Orders paid and refunds confirmed on the day in Helsinki (today without `date`), in the sites the grants reach. Each order’s VAT per rate as its receipt shows it, summed.',
    querystring: dailyReportQuerySchema,
    answer: jsonAnswer(dailyReportSchema, 'The report'),
    problems: [400, 401, 403, 429],
    handler: (request) => dailyReport(request, request.query),
  });
  adminRoute(app, 'GET', `${REPORT_API}.csv`, {
    ...reads,
    summary: 'The day’s sales as CSV for accounting',
    description:
      'UTF-8 with a byte-order mark, `;` between cells, decimal commas: a row per order and refund, then the totals and each VAT rate.',
    querystring: dailyReportQuerySchema,
    answer: csvAnswer,
    problems: [400, 401, 403, 429],
    handler: async (request, reply) => {
      const report = await dailyReport(request, request.query);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-disposition', `attachment; filename="myynti-${report.date}.csv"`);
      return reply
        .type('text/csv; charset=utf-8')
        .send(dailyReportCsv(report, request.staff?.lang ?? 'fi'));
    },
  });
}

/** The order list, a date's pick list, and one order opened. */
function registerReads(app: ZodApp) {
  adminRoute(app, 'GET', ORDERS_API, {
    ...reads,
    summary: 'The shop’s orders the staff member may read, newest first',
    description:
      'Filtered by status, fulfilment, latest payment status, order date (Helsinki), delivery date and slot; `q` finds an order number or part of an e-mail address or a name. 50 at a time from `offset`. Written to the audit log (names and addresses are personal data).',
    querystring: ordersQuerySchema,
    answer: jsonAnswer(ordersListSchema, 'Orders'),
    problems: [400, 401, 403, 429],
    handler: (request) => listOrders(request, request.query),
  });
  adminRoute(app, 'GET', PICK_LIST_API, {
    ...reads,
    summary: 'A delivery date’s pick list: its slots, the products summed, then each order',
    description:
      'Only paid orders are picked. Without `slot` the whole day. Written to the audit log.',
    querystring: pickListQuerySchema,
    answer: jsonAnswer(pickListSchema, 'The pick list'),
    problems: [400, 401, 403, 429],
    handler: (request) => pickList(request, request.query),
  });
  adminRoute(app, 'GET', `${ORDERS_API}/:id`, {
    ...reads,
    summary: 'Opens an order: lines, sums, VAT, payments, refunds and its timeline',
    description: 'Written to the audit log.',
    params: orderIdParamsSchema,
    answer: jsonAnswer(orderDetailSchema, 'The order'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => openOrder(request, request.params.id),
  });
}

/** Fulfilment steps, cancelling, refunds and notes. */
function registerWrites(app: ZodApp) {
  const write = { bodyLimit: BODY_LIMIT, rateLimit: WRITE_LIMIT };
  /** Needs the permission for the order's own site and language. */
  const onOrder = (permission: 'orders.manage' | 'orders.refund') => (request: FastifyRequest) =>
    assertOrderAccess(request, permission);
  adminRoute(app, 'POST', `${ORDERS_API}/fulfilment`, {
    ...write,
    staff: MANAGE,
    preValidation: async (request) => assertShopAccess(request, 'orders.manage'),
    summary: 'Moves orders one fulfilment step (packed, out for delivery, delivered, or back)',
    description:
      'Each order names the step the staff member saw (`from`); one elsewhere is answered in `stale` and left as it is, one already at `to` counts as moved. Leaving for delivery mails the shopper.',
    body: fulfilBodySchema,
    answer: jsonAnswer(fulfilAnswerSchema, 'What moved'),
    problems: [400, 401, 403, 429],
    handler: (request) => fulfilOrders(request, request.body),
  });
  adminRoute(app, 'POST', `${ORDERS_API}/:id/cancel`, {
    ...write,
    staff: { ...MANAGE, reauth: true },
    preValidation: onOrder('orders.manage'),
    summary: 'Cancels an order; what it took goes back and what was paid is refunded',
    description:
      'An unpaid order, or a paid one not yet out for delivery. The slot, stock, date stock, coupon uses and gift-card balance go back in the same transaction, the payment is refunded through its provider, and the shopper is mailed. A second call changes nothing. Needs re-authentication.',
    params: orderIdParamsSchema,
    body: cancelBodySchema,
    answer: jsonAnswer(orderDetailSchema, 'The order, cancelled'),
    problems: [400, 401, 403, 404, 409, 429, 502],
    handler: (request) => cancelOrderByStaff(request, request.params.id, request.body.reason),
  });
  adminRoute(app, 'POST', `${ORDERS_API}/:id/refunds`, {
    ...write,
    staff: { permission: 'orders.refund', reauth: true },
    preValidation: onOrder('orders.refund'),
    summary: 'Refunds an amount or lines of an order through its payment provider',
    description:
      'The same `key` again is the same refund, made once. More than what is left of the payment is 409 and nothing is written; a provider that does not answer is 502 and the refund waits to be sent again with the same key. Needs re-authentication.',
    params: orderIdParamsSchema,
    body: refundBodySchema,
    answer: jsonAnswer(orderDetailSchema, 'The order with its refund'),
    problems: [400, 401, 403, 404, 409, 429, 502],
    handler: (request) => refundByStaff(request, request.params.id, request.body),
  });
  adminRoute(app, 'POST', `${ORDERS_API}/:id/notes`, {
    ...write,
    staff: MANAGE,
    preValidation: onOrder('orders.manage'),
    summary: 'Adds a staff note to the order’s timeline',
    params: orderIdParamsSchema,
    body: orderNoteSchema,
    answer: jsonAnswer(orderDetailSchema, 'The order with the note'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => addOrderNote(request, request.params.id, request.body.text),
  });
}
