import { type SQLWrapper, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';
import { sessions } from '../../server/tables.ts';
import {
  FULFILMENT_STATUSES,
  ORDER_EVENT_KINDS,
  ORDER_STATUSES,
  PAYMENT_ATTEMPT_STATUSES,
  REFUND_STATUSES,
  REVIEW_STATES,
} from './statuses.ts';

export {
  FULFILMENT_STATUSES,
  type FulfilmentStatus,
  ORDER_EVENT_KINDS,
  ORDER_STATUSES,
  type OrderEventKind,
  type OrderStatus,
  PAYMENT_ATTEMPT_STATUSES,
  type PaymentAttemptStatus,
  REFUND_STATUSES,
  REVIEW_STATES,
  type RefundStatus,
  type ReviewState,
} from './statuses.ts';

/**
 * The shop's tables (decision 126): customers, carts, coupons, VAT, delivery and stock, checkout
 * holds, orders and their payments, refunds, gift cards and reviews.
 */

// ---------------------------------------------------------------------------------------------
// Shop customers: accounts with an argon2id password hash and their addresses. See decision 025.
// ---------------------------------------------------------------------------------------------

/** A name and postal address as the address form asks it (shop spec §3). */
export interface CustomerAddress {
  firstName: string;
  lastName: string;
  streetAddress: string;
  postalCode: string;
  city: string;
}

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As typed (trimmed); unique case-insensitively through the index on lower(email). */
    email: text('email').notNull(),
    /** argon2id, in the PHC string format (its parameters and salt inside). */
    passwordHash: text('password_hash').notNull(),
    deliveryAddress: jsonb('delivery_address').$type<CustomerAddress>(),
    billingAddress: jsonb('billing_address').$type<CustomerAddress>(),
    phoneCountryCode: text('phone_country_code').notNull().default('+358'),
    phoneNumber: text('phone_number').notNull().default(''),
    isPrivateCustomer: boolean('is_private_customer').notNull().default(false),
    additionalInformation: text('additional_information').notNull().default(''),
    /**
     * When the customer proved the address is theirs: the registration's link (set as the account
     * is made, decision 083), a verification link or a password reset; null until then for
     * accounts made before that. Per-customer coupons and reviews need it (decision 082).
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Set by staff (decision 146): the account cannot log in until they clear it. */
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    lockedReason: text('locked_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customers_email_uq').on(sql`lower(${t.email})`)],
);

/**
 * E-mail verification links (decision 082): only the token's SHA-256 is kept, with the address
 * it was sent to; a token is used by deleting its row, so it works once, and not after
 * `expiresAt`.
 */
export const emailVerificationTokens = pgTable(
  'email_verification_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: belongsTo(uuid('customer_id'), () => customers.id),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_verification_tokens_customer_idx').on(t.customerId, t.createdAt)],
);

/**
 * Password reset links: only the token's SHA-256 is kept; a token is used by deleting its row in
 * the transaction that sets the new password, so it works once, and not after `expiresAt`.
 */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    customerId: belongsTo(uuid('customer_id'), () => customers.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_customer_idx').on(t.customerId)],
);

/**
 * Registrations waiting for the address's owner to confirm them from the mailed link (decision
 * 075): no account exists until then. Only the token's SHA-256 is kept; confirming deletes the
 * row and creates the account in one transaction, so a link works once, and not after
 * `expiresAt`. An address may have several waiting (each attempt mails its own link); the first
 * confirmed wins and the others go with it.
 */
export const customerRegistrations = pgTable(
  'customer_registrations',
  {
    tokenHash: text('token_hash').primaryKey(),
    /** As typed (trimmed). */
    email: text('email').notNull(),
    /** argon2id of the chosen password, as in `customers`. */
    passwordHash: text('password_hash').notNull(),
    /** A local path to go to once confirmed (`paluu`), already checked. */
    returnPath: text('return_path'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_registrations_email_idx').on(sql`lower(${t.email})`),
    index('customer_registrations_expires_idx').on(t.expiresAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Shop cart: one cart per session and site, gone with the session. See decision 014.
// ---------------------------------------------------------------------------------------------

export const carts = pgTable(
  'carts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * The session holding the cart. A guest cart dies with its session; a customer's cart (see
     * `customerId`) is let go by its session instead (a trigger of migration 0010 empties this
     * column before the session row goes), so it waits for the customer's next login.
     */
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    /** The customer whose saved cart this is (one per customer and site); null for a guest. */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    siteId: text('site_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('carts_session_site_uq').on(t.sessionId, t.siteId),
    uniqueIndex('carts_customer_site_uq').on(t.customerId, t.siteId),
    check('carts_owner_ck', sql`${t.sessionId} is not null or ${t.customerId} is not null`),
  ],
);

/** One row per product code in a cart; adding a code again raises its quantity. */
export const cartLineItems = pgTable(
  'cart_line_items',
  {
    cartId: belongsTo(uuid('cart_id'), () => carts.id),
    /** The product's `code` on the cart's site (shared by its language versions). */
    code: text('code').notNull(),
    quantity: integer('quantity').notNull(),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.cartId, t.code] }),
    check('cart_line_items_quantity_ck', sql`${t.quantity} between 1 and 99`),
  ],
);

/**
 * One-time tokens that hand a cart over to another session (decision 021): the shop's frame on a
 * brand site asks for one, the shop's top-level page moves the cart's lines with it. Only the
 * token's SHA-256 is kept; a token is used by deleting its row, so it works once.
 */
export const cartHandovers = pgTable(
  'cart_handovers',
  {
    tokenHash: text('token_hash').primaryKey(),
    cartId: belongsTo(uuid('cart_id'), () => carts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('cart_handovers_cart_idx').on(t.cartId)],
);

/**
 * VAT rates as dated data per tax class (decision 019): a rate applies from `valid_from` until the
 * next row of its class. Rates are basis points: 1350 is 13,5 %.
 */
export const vatRates = pgTable(
  'vat_rates',
  {
    taxClass: text('tax_class').notNull(),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    rateBasisPoints: integer('rate_basis_points').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.taxClass, t.validFrom] }),
    check('vat_rates_rate_ck', sql`${t.rateBasisPoints} between 0 and 10000`),
  ],
);

/**
 * Coupons (decision 019): a percentage (`percent_off`, whole percent) or a fixed amount
 * (`amount_off_cents`) off the whole order or one product group, from a minimum order, valid in a
 * time window, with total and per-customer usage limits. `used_count` is raised when an order is
 * placed, by a conditional update (`used_count < max_uses`) that the check backs up.
 */
export const coupons = pgTable(
  'coupons',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    /** Upper case; codes are compared without case. */
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    percentOff: integer('percent_off'),
    amountOffCents: integer('amount_off_cents'),
    /** null: the whole order; otherwise the lines of this product group (`products.product_group`). */
    productGroup: text('product_group'),
    minOrderCents: integer('min_order_cents').notNull().default(0),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validTo: timestamp('valid_to', { withTimezone: true }),
    maxUses: integer('max_uses'),
    usedCount: integer('used_count').notNull().default(0),
    maxUsesPerCustomer: integer('max_uses_per_customer'),
    /** false: the coupon is used alone, never beside another code. */
    combinable: boolean('combinable').notNull().default(true),
    active: boolean('active').notNull().default(true),
    /** Grows by one with every staff change: an edit made on an older version is refused. */
    version: integer('version').notNull().default(0),
  },
  (t) => [
    uniqueIndex('coupons_site_code_uq').on(t.siteId, t.code),
    check('coupons_kind_ck', sql`(${t.percentOff} is null) <> (${t.amountOffCents} is null)`),
    check('coupons_percent_ck', sql`${t.percentOff} between 1 and 100`),
    check('coupons_amount_ck', sql`${t.amountOffCents} > 0`),
    check('coupons_min_order_ck', sql`${t.minOrderCents} >= 0`),
    check(
      'coupons_used_ck',
      sql`${t.usedCount} >= 0 and (${t.maxUses} is null or ${t.usedCount} <= ${t.maxUses})`,
    ),
  ],
);

/** How often a customer has used a coupon; raised with `uses < max_uses_per_customer`. */
export const couponCustomerUses = pgTable(
  'coupon_customer_uses',
  {
    couponId: belongsTo(integer('coupon_id'), () => coupons.id),
    /** The customer's id, or the order's normalised e-mail address for a guest. */
    customerKey: text('customer_key').notNull(),
    uses: integer('uses').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.customerKey] }),
    check('coupon_customer_uses_ck', sql`${t.uses} >= 0`),
  ],
);

/** The coupon codes entered into a cart. */
export const cartCoupons = pgTable(
  'cart_coupons',
  {
    cartId: belongsTo(uuid('cart_id'), () => carts.id),
    couponId: belongsTo(integer('coupon_id'), () => coupons.id),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.cartId, t.couponId] })],
);

/** A delivery area: the postal codes one calendar serves. */
export const deliveryAreas = pgTable('delivery_areas', {
  id: serial('id').primaryKey(),
  siteId: text('site_id').notNull(),
  name: text('name').notNull(),
  active: boolean('active').notNull().default(true),
});

/** Postal codes of the areas, normalised (no spaces, upper case); a code is in one area. */
export const deliveryAreaPostalCodes = pgTable(
  'delivery_area_postal_codes',
  {
    siteId: text('site_id').notNull(),
    postalCode: text('postal_code').notNull(),
    areaId: belongsTo(integer('area_id'), () => deliveryAreas.id),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.postalCode] }),
    index('delivery_area_postal_codes_area_idx').on(t.areaId),
  ],
);

/**
 * An area's weekly delivery calendar: on `weekday` (1 Monday … 7 Sunday) a slot from `start_time`
 * to `end_time` (Helsinki time) taking `capacity` orders; orders close `cutoff_days_before` days
 * earlier at `cutoff_time` (Helsinki time).
 */
export const deliveryCalendarSlots = pgTable(
  'delivery_calendar_slots',
  {
    id: serial('id').primaryKey(),
    areaId: belongsTo(integer('area_id'), () => deliveryAreas.id),
    weekday: integer('weekday').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
    capacity: integer('capacity').notNull(),
    cutoffDaysBefore: integer('cutoff_days_before').notNull().default(1),
    cutoffTime: text('cutoff_time').notNull().default('12:00'),
  },
  (t) => [
    uniqueIndex('delivery_calendar_slots_uq').on(t.areaId, t.weekday, t.startTime),
    check('delivery_calendar_slots_weekday_ck', sql`${t.weekday} between 1 and 7`),
    check('delivery_calendar_slots_capacity_ck', sql`${t.capacity} >= 0`),
    check('delivery_calendar_slots_cutoff_ck', sql`${t.cutoffDaysBefore} >= 0`),
    check(
      'delivery_calendar_slots_times_ck',
      sql`${t.startTime} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.endTime} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.cutoffTime} ~ '^[0-2][0-9]:[0-5][0-9]$' and ${t.startTime} < ${t.endTime}`,
    ),
  ],
);

/** Dates an area does not deliver on (public holidays), whatever its calendar says. */
export const deliveryClosedDates = pgTable(
  'delivery_closed_dates',
  {
    areaId: belongsTo(integer('area_id'), () => deliveryAreas.id),
    date: date('date', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.areaId, t.date] })],
);

/**
 * What is sold of one dated slot. The checkout writes a row on the first hold (capacity copied from
 * the calendar); the row is the lock that serialises holds and sales of the slot. Holds are rows of
 * `checkout_holds` that stop counting when they expire; `sold` is raised when an order is placed
 * and lowered when an unpaid order expires or is cancelled (decision 027).
 */
export const deliverySlotBookings = pgTable(
  'delivery_slot_bookings',
  {
    areaId: belongsTo(integer('area_id'), () => deliveryAreas.id),
    date: date('date', { mode: 'string' }).notNull(),
    startTime: text('start_time').notNull(),
    capacity: integer('capacity').notNull(),
    sold: integer('sold').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.areaId, t.date, t.startTime] }),
    check('delivery_slot_bookings_ck', sql`${t.sold} >= 0 and ${t.sold} <= ${t.capacity}`),
  ],
);

/**
 * A product's usual stock per delivery weekday (1 Monday … 7 Sunday). A product with rows here or
 * in `product_date_stock` is sold per date; one with none is limited only by `products.stock`.
 */
export const productWeeklyStock = pgTable(
  'product_weekly_stock',
  {
    siteId: text('site_id').notNull(),
    code: text('code').notNull(),
    weekday: integer('weekday').notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.code, t.weekday] }),
    check('product_weekly_stock_weekday_ck', sql`${t.weekday} between 1 and 7`),
    check('product_weekly_stock_quantity_ck', sql`${t.quantity} >= 0`),
  ],
);

/**
 * A product's stock on one delivery date: `capacity` overrides the weekday's. The row is written on
 * the first hold and is the lock for that product and date; `sold` is raised by an order and the
 * check keeps it within capacity. Holds count through `checkout_hold_lines` until they expire.
 */
export const productDateStock = pgTable(
  'product_date_stock',
  {
    siteId: text('site_id').notNull(),
    code: text('code').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    capacity: integer('capacity').notNull(),
    sold: integer('sold').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.code, t.date] }),
    check(
      'product_date_stock_ck',
      sql`${t.capacity} >= 0 and ${t.sold} >= 0 and ${t.sold} <= ${t.capacity}`,
    ),
  ],
);

// ---------------------------------------------------------------------------------------------
// Checkout holds, orders, payments, gift cards and reviews (decisions 027, 028).
// ---------------------------------------------------------------------------------------------

/**
 * A cart's chosen delivery time, held until `expires_at`: the slot's capacity and, through its
 * lines, the per-date stock of the cart's products. One hold per cart; choosing another time or
 * changing the cart replaces or deletes it. An expired hold stops counting in the availability
 * queries themselves (`expires_at > now()`); deleting expired rows only tidies. `id` is new for each
 * hold and is the checkout's idempotency key: the order placed from a hold carries it.
 */
export const checkoutHolds = pgTable(
  'checkout_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    cartId: belongsTo(uuid('cart_id'), () => carts.id),
    siteId: text('site_id').notNull(),
    /**
     * The held delivery time. All null for a cart of gift cards only: there is nothing to deliver
     * (the codes are mailed), and the hold then keeps only the checkout's idempotency key.
     */
    areaId: integer('area_id').references(() => deliveryAreas.id, { onDelete: 'cascade' }),
    postalCode: text('postal_code'),
    date: date('date', { mode: 'string' }),
    startTime: text('start_time'),
    endTime: text('end_time'),
    /** The delivery address is also the billing address. */
    useDeliveryAddressForBilling: boolean('use_delivery_address_for_billing')
      .notNull()
      .default(true),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('checkout_holds_cart_uq').on(t.cartId),
    index('checkout_holds_slot_idx').on(t.areaId, t.date, t.startTime),
    index('checkout_holds_expires_idx').on(t.expiresAt),
    check(
      'checkout_holds_delivery_ck',
      sql`num_nulls(${t.areaId}, ${t.postalCode}, ${t.date}, ${t.startTime}, ${t.endTime}) in (0, 5)`,
    ),
  ],
);

/** What a hold keeps of the per-date stock: the cart's quantity of each product sold per date. */
export const checkoutHoldLines = pgTable(
  'checkout_hold_lines',
  {
    holdId: belongsTo(uuid('hold_id'), () => checkoutHolds.id),
    siteId: text('site_id').notNull(),
    code: text('code').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    quantity: integer('quantity').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.holdId, t.code] }),
    index('checkout_hold_lines_stock_idx').on(t.siteId, t.code, t.date),
    check('checkout_hold_lines_quantity_ck', sql`${t.quantity} between 1 and 99`),
  ],
);

/** `status in ('a', 'b', …)` for a check constraint, from a list of plain lower-case words. */
function oneOf(column: SQLWrapper, values: readonly string[]) {
  const words = values.map((value) => {
    if (!/^[a-z_]+$/.test(value)) throw new Error(`not a plain status word: ${value}`);
    return `'${value}'`;
  });
  return sql`${column} in (${sql.raw(words.join(', '))})`;
}

/**
 * A placed order: what was bought at which price, for whom and when it is delivered. Placing it
 * takes the stock, the slot, the coupons' uses and the gift cards' balance in one transaction; an
 * unpaid order expires at `expires_at` and gives them back. `checkout_id` (the hold's id) makes
 * placement idempotent: a second submit of the same checkout finds this row. Money is integer
 * cents with VAT (decision 019).
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order number shown to the shopper and the shop. */
    number: integer('number').notNull().generatedAlwaysAsIdentity({ startWith: 100001 }),
    checkoutId: uuid('checkout_id').notNull(),
    siteId: text('site_id').notNull(),
    language: text('language').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    /** The session that placed it (guests see their confirmation through it); null once gone. */
    sessionId: text('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending_payment'),
    fulfilment: text('fulfilment', { enum: FULFILMENT_STATUSES }).notNull().default('unfulfilled'),
    email: text('email').notNull(),
    phoneNumber: text('phone_number').notNull(),
    deliveryAddress: jsonb('delivery_address').$type<CustomerAddress>().notNull(),
    billingAddress: jsonb('billing_address').$type<CustomerAddress>().notNull(),
    additionalInformation: text('additional_information').notNull().default(''),
    areaId: integer('area_id').references(() => deliveryAreas.id, { onDelete: 'set null' }),
    /** The delivery time; all four null for an order of gift cards only (nothing is delivered). */
    postalCode: text('postal_code'),
    deliveryDate: date('delivery_date', { mode: 'string' }),
    startTime: text('start_time'),
    endTime: text('end_time'),
    currency: text('currency').notNull().default('EUR'),
    subTotalCents: integer('sub_total_cents').notNull(),
    discountCents: integer('discount_cents').notNull().default(0),
    shippingCents: integer('shipping_cents').notNull().default(0),
    vatCents: integer('vat_cents').notNull(),
    usedGiftCardCents: integer('used_gift_card_cents').notNull().default(0),
    /** What is left to pay after gift cards; 0 confirms the order without a payment. */
    totalCents: integer('total_cents').notNull(),
    couponCodes: jsonb('coupon_codes').$type<string[]>().notNull().default([]),
    /** The payment method's code when known (FI50 card, FI54 MobilePay, a bank's code…). */
    paymentMethodCode: text('payment_method_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_number_uq').on(t.number),
    uniqueIndex('orders_checkout_uq').on(t.checkoutId),
    index('orders_customer_idx').on(t.customerId, t.createdAt),
    index('orders_pending_expires_idx').on(t.expiresAt).where(sql`${t.status} = 'pending_payment'`),
    check(
      'orders_delivery_ck',
      sql`num_nulls(${t.postalCode}, ${t.deliveryDate}, ${t.startTime}, ${t.endTime}) in (0, 4)`,
    ),
    check(
      'orders_money_ck',
      sql`${t.subTotalCents} >= 0 and ${t.discountCents} >= 0 and ${t.shippingCents} >= 0 and ${t.vatCents} >= 0 and ${t.usedGiftCardCents} >= 0 and ${t.totalCents} >= 0`,
    ),
    check('orders_status_ck', oneOf(t.status, ORDER_STATUSES)),
    check('orders_fulfilment_ck', oneOf(t.fulfilment, FULFILMENT_STATUSES)),
    check(
      'orders_fulfilment_paid_ck',
      sql`${t.fulfilment} = 'unfulfilled' or ${t.status} = 'paid'`,
    ),
    index('orders_delivery_idx').on(t.deliveryDate, t.startTime),
    index('orders_created_idx').on(t.createdAt),
  ],
);

/** An order's lines as priced when it was placed. */
export const orderLines = pgTable(
  'order_lines',
  {
    orderId: belongsTo(uuid('order_id'), () => orders.id),
    code: text('code').notNull(),
    productId: integer('product_id'),
    name: text('name').notNull(),
    category: text('category').notNull().default(''),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    /** The line's price before and after its share of the coupons. */
    linePriceWithoutDiscountsCents: integer('line_price_without_discounts_cents').notNull(),
    linePriceCents: integer('line_price_cents').notNull(),
    /**
     * What the line charges: `line_price_cents` less its share of the order-wide coupons, written
     * at placement (decision 122). Gift cards redeemed are a means of payment, not a share of a
     * line. Null for orders placed before migration 0025: their shares are derived again.
     */
    chargedCents: integer('charged_cents'),
    vatBasisPoints: integer('vat_basis_points').notNull(),
    isGiftCard: boolean('is_gift_card').notNull().default(false),
    /** The line took per-date stock (`product_date_stock.sold`), given back if the order lapses. */
    tookDateStock: boolean('took_date_stock').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.code] }),
    check('order_lines_quantity_ck', sql`${t.quantity} between 1 and 99`),
    check(
      'order_lines_charged_ck',
      sql`${t.chargedCents} is null or ${t.chargedCents} between 0 and ${t.linePriceCents}`,
    ),
  ],
);

/** The coupons an order used, to give the uses back if it lapses. */
export const orderCoupons = pgTable(
  'order_coupons',
  {
    orderId: belongsTo(uuid('order_id'), () => orders.id),
    couponId: integer('coupon_id')
      .notNull()
      .references(() => coupons.id, { onDelete: 'restrict' }),
    customerKey: text('customer_key').notNull(),
    /**
     * The other keys the customer's uses of a coupon limited per customer were counted under
     * (their mailbox and delivery address, decision 082), given back with `customerKey`.
     */
    limitKeys: text('limit_keys').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.couponId] })],
);

/**
 * One attempt to pay an order at a provider. `stamp` is unique per attempt (Paytrail's idempotency
 * key); redirects and callbacks find the attempt by it, verified by the provider's signature.
 */
export const orderPayments = pgTable(
  'order_payments',
  {
    stamp: text('stamp').primaryKey(),
    orderId: belongsTo(uuid('order_id'), () => orders.id),
    provider: text('provider').notNull(),
    transactionId: text('transaction_id'),
    /**
     * The provider's payment page for this attempt, once it answered: a second start of the same
     * order sends the shopper here instead of opening another payment (decision 028).
     */
    href: text('href'),
    amountCents: integer('amount_cents').notNull(),
    /**
     * The last status a verified return gave (new, pending, delayed, ok, fail), or `error` for an
     * attempt the provider refused or never answered.
     */
    status: text('status', { enum: PAYMENT_ATTEMPT_STATUSES }).notNull().default('new'),
    method: text('method'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_payments_order_idx').on(t.orderId),
    check('order_payments_status_ck', oneOf(t.status, PAYMENT_ATTEMPT_STATUSES)),
  ],
);

/**
 * Money given back to the shopper through the provider that took it, one row per refund. The
 * `(order_id, idempotency_key)` pair makes a repeated request (a second press, two staff at once)
 * find the first one's row; the amount is checked against what the paid attempt took less the
 * refunds not failed, under the order's row lock.
 */
export const orderRefunds = pgTable(
  'order_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    /** The paid attempt the refund gives back from. */
    paymentStamp: text('payment_stamp')
      .notNull()
      .references(() => orderPayments.stamp, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    amountCents: integer('amount_cents').notNull(),
    /** The lines refunded, when the refund was asked by lines: code and quantity. */
    lines: jsonb('lines').$type<{ code: string; quantity: number }[]>(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('requested'),
    /** The provider's id of the refund transaction, once it answered. */
    transactionId: text('transaction_id'),
    /** Who asked for it (a staff member's id, or a job's name). */
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('order_refunds_key_uq').on(t.orderId, t.idempotencyKey),
    index('order_refunds_payment_idx').on(t.paymentStamp),
    check('order_refunds_amount_ck', sql`${t.amountCents} > 0`),
    check('order_refunds_status_ck', oneOf(t.status, REFUND_STATUSES)),
  ],
);

/**
 * An order's timeline of what staff did and what the shop sent: notes, fulfilment steps,
 * cancellation, refunds asked and mails queued, each with who and when. Placement, payment
 * attempts and refunds' provider answers come from their own rows.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: serial('id').primaryKey(),
    orderId: belongsTo(uuid('order_id'), () => orders.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind', { enum: ORDER_EVENT_KINDS }).notNull(),
    /** The staff member who did it; null for what the shop did by itself. */
    staffId: uuid('staff_id'),
    /** A note's text. */
    text: text('text'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('order_events_order_idx').on(t.orderId, t.id),
    check('order_events_kind_ck', oneOf(t.kind, ORDER_EVENT_KINDS)),
  ],
);

/**
 * The built-in test bank's own record of its payments (decision 122), as a provider keeps them:
 * what the shopper decided on its page, and how much was refunded, so that it can answer a
 * payment's status and take refunds like Paytrail.
 */
export const testBankPayments = pgTable(
  'test_bank_payments',
  {
    transactionId: text('transaction_id').primaryKey(),
    stamp: text('stamp').notNull(),
    reference: text('reference').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['new', 'ok', 'fail'] })
      .notNull()
      .default('new'),
    refundedCents: integer('refunded_cents').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('test_bank_payments_stamp_uq').on(t.stamp),
    check('test_bank_payments_status_ck', oneOf(t.status, ['new', 'ok', 'fail'])),
    check(
      'test_bank_payments_refunded_ck',
      sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`,
    ),
  ],
);

/** The test bank's refunds, one per refund stamp: a second request with the stamp finds it. */
export const testBankRefunds = pgTable('test_bank_refunds', {
  refundStamp: text('refund_stamp').primaryKey(),
  refundTransactionId: uuid('refund_transaction_id').notNull().defaultRandom(),
  transactionId: belongsTo(text('transaction_id'), () => testBankPayments.transactionId),
  amountCents: integer('amount_cents').notNull(),
  status: text('status', { enum: ['ok', 'fail'] }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Gift cards redeemable as payment. Only the code's SHA-256 is kept; the balance is taken by a
 * conditional update (`balance_cents >= amount`) that the check backs up.
 */
export const giftCards = pgTable(
  'gift_cards',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    codeHash: text('code_hash').notNull(),
    initialCents: integer('initial_cents').notNull(),
    balanceCents: integer('balance_cents').notNull(),
    validTo: timestamp('valid_to', { withTimezone: true }),
    /**
     * The paid order that bought the card, its line's code and which of the line's quantity it is
     * (1…): issuing is idempotent by these three (a second `paid` finds the cards made).
     */
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    orderLineCode: text('order_line_code'),
    orderSeq: integer('order_seq'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('gift_cards_site_code_uq').on(t.siteId, t.codeHash),
    uniqueIndex('gift_cards_order_line_uq').on(t.orderId, t.orderLineCode, t.orderSeq),
    check(
      'gift_cards_balance_ck',
      sql`${t.balanceCents} >= 0 and ${t.balanceCents} <= ${t.initialCents}`,
    ),
  ],
);

/**
 * Staff changes to a gift card's balance (decision 144): issued by hand, topped up or lowered,
 * each with its reason and the balance after, beside the orders' uses (`order_gift_cards`).
 */
export const giftCardAdjustments = pgTable(
  'gift_card_adjustments',
  {
    id: serial('id').primaryKey(),
    giftCardId: belongsTo(integer('gift_card_id'), () => giftCards.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffId: uuid('staff_id'),
    deltaCents: integer('delta_cents').notNull(),
    balanceAfterCents: integer('balance_after_cents').notNull(),
    reason: text('reason').notNull(),
  },
  (t) => [index('gift_card_adjustments_card_idx').on(t.giftCardId, t.id)],
);

/** The gift cards entered into a cart (used as payment when the order is placed). */
export const cartGiftCards = pgTable(
  'cart_gift_cards',
  {
    cartId: belongsTo(uuid('cart_id'), () => carts.id),
    giftCardId: belongsTo(integer('gift_card_id'), () => giftCards.id),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.cartId, t.giftCardId] })],
);

/** What an order took from each gift card, given back if the order lapses. */
export const orderGiftCards = pgTable(
  'order_gift_cards',
  {
    orderId: belongsTo(uuid('order_id'), () => orders.id),
    giftCardId: integer('gift_card_id')
      .notNull()
      .references(() => giftCards.id, { onDelete: 'restrict' }),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.giftCardId] }),
    check('order_gift_cards_amount_ck', sql`${t.amountCents} > 0`),
  ],
);

/**
 * Product reviews: one per customer and product. `is_verified` is set when the reviewer had a paid
 * order with the product at the time of writing. Only `published` reviews are listed and counted
 * in the product's rating (decision 148); a new one is `pending` unless the shop moderates after
 * publishing, so a row written without a state stays hidden.
 */
export const productReviews = pgTable(
  'product_reviews',
  {
    id: serial('id').primaryKey(),
    siteId: text('site_id').notNull(),
    /** `products.id` of the reviewed product (the spec's productId). */
    productId: integer('product_id').notNull(),
    /** The product's code: its language versions share the reviews. */
    code: text('code').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    language: text('language').notNull(),
    userName: text('user_name').notNull(),
    rating: smallint('rating').notNull(),
    text: text('text').notNull(),
    isVerified: boolean('is_verified').notNull().default(false),
    /** The reviewer's mailbox key (decision 082): one review per mailbox and product. */
    reviewerKey: text('reviewer_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    state: text('state', { enum: REVIEW_STATES }).notNull().default('pending'),
    /** Why a moderator rejected it: staff's words, never shown on the shop's pages. */
    rejectionReason: text('rejection_reason'),
    /** When and by whom (`staff_members.id`) it was last approved or rejected. */
    moderatedAt: timestamp('moderated_at', { withTimezone: true }),
    moderatedBy: uuid('moderated_by'),
  },
  (t) => [
    uniqueIndex('product_reviews_customer_uq').on(t.siteId, t.code, t.customerId),
    uniqueIndex('product_reviews_reviewer_uq').on(t.siteId, t.code, t.reviewerKey),
    index('product_reviews_list_idx').on(t.siteId, t.code, t.createdAt),
    index('product_reviews_queue_idx').on(t.siteId, t.state, t.createdAt),
    check('product_reviews_rating_ck', sql`${t.rating} between 1 and 5`),
    check('product_reviews_state_ck', oneOf(t.state, REVIEW_STATES)),
    check(
      'product_reviews_rejection_ck',
      sql`(${t.state} = 'rejected') = (${t.rejectionReason} is not null)`,
    ),
  ],
);
