/**
 * The order's statuses and kinds as plain lists (no database code), so that the back office's
 * browser bundle can name them; `tables.ts` builds its columns and checks from these.
 */

/**
 * The statuses an order can have. Which moves between them are allowed is the order lifecycle's
 * transition table (`features/shop/orders/lifecycle.server.ts`, decision 120); the database
 * refuses any other value (`orders_status_ck`).
 */
export const ORDER_STATUSES = ['pending_payment', 'paid', 'cancelled', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * How far a paid order has come on its way to the shopper (decision 141): packed, out for
 * delivery, delivered. Apart from `status`, which is about payment and lapse, as shops keep an
 * order's payment and fulfilment apart. Moves are the fulfilment table in the order lifecycle;
 * only a paid order leaves `unfulfilled` (`orders_fulfilment_paid_ck`).
 */
export const FULFILMENT_STATUSES = [
  'unfulfilled',
  'packed',
  'out_for_delivery',
  'delivered',
] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/**
 * The statuses of a payment attempt: the provider's words (`new`, `pending`, `delayed`, `ok`,
 * `fail`) and the shop's own `error` for an attempt that never reached a shopper. Moves between
 * them are the attempt lifecycle's table (decision 120); `order_payments_status_ck` refuses others.
 */
export const PAYMENT_ATTEMPT_STATUSES = [
  'new',
  'pending',
  'delayed',
  'ok',
  'fail',
  'error',
] as const;
export type PaymentAttemptStatus = (typeof PAYMENT_ATTEMPT_STATUSES)[number];

/**
 * The statuses of a refund (decision 122): `requested` once written, before the provider has
 * answered; then the provider's word, `pending`, `ok` or `fail`. Only `fail` gives the amount back
 * to what may still be refunded.
 */
export const REFUND_STATUSES = ['requested', 'pending', 'ok', 'fail'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** What an order's timeline records besides its payments and refunds (decision 141). */
export const ORDER_EVENT_KINDS = ['note', 'fulfilment', 'cancelled', 'refund', 'mail'] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];

/**
 * A review's state (decision 148): `pending` until a moderator decides, `published` (listed and
 * counted in the product's rating) or `rejected` with a reason. Only published reviews show or
 * count; `product_reviews_state_ck` refuses other values.
 */
export const REVIEW_STATES = ['pending', 'published', 'rejected'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
