import { z } from 'zod';
import { scopeFilterShape } from '../../staff/index.ts';
import {
  FULFILMENT_STATUSES,
  ORDER_EVENT_KINDS,
  ORDER_STATUSES,
  PAYMENT_ATTEMPT_STATUSES,
  REFUND_STATUSES,
} from '../statuses.ts';

/**
 * The shop's orders in the back office (decision 141): the list, one order with its timeline,
 * fulfilment by delivery slot (the pick list), cancellation, refunds and notes. Shared by the
 * routes and the /admin app; error messages are keys of the admin catalogue.
 */
export const ORDERS_API = '/api/admin/orders';
export const PICK_LIST_API = '/api/admin/pick-list';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, INVALID);
const clock = z.string().regex(/^[0-2]\d:[0-5]\d$/, INVALID);

export const ordersQuerySchema = z
  .object({
    /** An order number, or part of an e-mail address or a name. */
    q: z.string().trim().max(200, TOO_LONG).optional(),
    ...scopeFilterShape,
    status: z.enum(ORDER_STATUSES, { error: INVALID }).optional(),
    fulfilment: z.enum(FULFILMENT_STATUSES, { error: INVALID }).optional(),
    /** The status of the order's latest payment attempt; `none` without one. */
    payment: z.enum(['none', ...PAYMENT_ATTEMPT_STATUSES], { error: INVALID }).optional(),
    /** The day the order was placed, in Helsinki. */
    orderedOn: isoDate.optional(),
    deliveryDate: isoDate.optional(),
    /** A slot's start time on the delivery date. */
    slot: clock.optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();
export type OrdersQuery = z.infer<typeof ordersQuerySchema>;

export const orderIdParamsSchema = z.object({ id: z.uuid({ error: INVALID }) });

export const orderRowSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  siteId: z.string(),
  lang: z.string(),
  createdAt: z.string(),
  status: z.enum(ORDER_STATUSES),
  fulfilment: z.enum(FULFILMENT_STATUSES),
  /** The latest payment attempt's status, or null without one. */
  payment: z.enum(PAYMENT_ATTEMPT_STATUSES).nullable(),
  name: z.string(),
  email: z.string(),
  deliveryDate: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** What the shopper paid or pays: the total after gift cards. */
  totalCents: z.number().int(),
  usedGiftCardCents: z.number().int(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

export const ordersListSchema = z.object({
  orders: z.array(orderRowSchema),
  total: z.number().int(),
});
export type OrdersList = z.infer<typeof ordersListSchema>;

const addressSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  streetAddress: z.string(),
  postalCode: z.string(),
  city: z.string(),
});

export const orderLineSchema = z.object({
  code: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPriceCents: z.number().int(),
  /** Before its share of the order-wide coupons. */
  linePriceCents: z.number().int(),
  /** What the line charged after the coupons. */
  chargedCents: z.number().int(),
  vatBasisPoints: z.number().int(),
  isGiftCard: z.boolean(),
  /** Units refunded by refunds asked by lines (not failed). */
  refundedQuantity: z.number().int(),
});

export const orderTimelineEntrySchema = z.object({
  at: z.string(),
  kind: z.enum(['placed', 'paid', 'payment', 'refund', ...ORDER_EVENT_KINDS]),
  /** Who did it, when a member of staff did. */
  staff: z.string().nullable(),
  text: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type OrderTimelineEntry = z.infer<typeof orderTimelineEntrySchema>;

export const orderDetailSchema = orderRowSchema.extend({
  phoneNumber: z.string(),
  deliveryAddress: addressSchema,
  billingAddress: addressSchema,
  additionalInformation: z.string(),
  lines: z.array(orderLineSchema),
  subTotalCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  vatCents: z.number().int(),
  /** Per VAT rate, highest first: what the lines charged at that rate and the VAT in it. */
  vat: z.array(
    z.object({
      basisPoints: z.number().int(),
      grossCents: z.number().int(),
      vatCents: z.number().int(),
    }),
  ),
  couponCodes: z.array(z.string()),
  giftCards: z.array(z.object({ id: z.number().int(), amountCents: z.number().int() })),
  payments: z.array(
    z.object({
      stamp: z.string(),
      provider: z.string(),
      status: z.enum(PAYMENT_ATTEMPT_STATUSES),
      amountCents: z.number().int(),
      method: z.string().nullable(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  refunds: z.array(
    z.object({
      id: z.string(),
      amountCents: z.number().int(),
      status: z.enum(REFUND_STATUSES),
      lines: z.array(z.object({ code: z.string(), quantity: z.number().int() })).nullable(),
      createdAt: z.string(),
    }),
  ),
  /** What may still be refunded of the paid payment. */
  refundableCents: z.number().int(),
  /** Whether staff may cancel it now (unpaid, or paid and not yet out for delivery). */
  cancellable: z.boolean(),
  /** The fulfilment steps it may take now. */
  nextFulfilment: z.array(z.enum(FULFILMENT_STATUSES)),
  timeline: z.array(orderTimelineEntrySchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** Fulfilment for one or many orders: each from the step the staff member saw, to `to`. */
export const fulfilBodySchema = z
  .object({
    orders: z
      .array(
        z
          .object({
            id: z.uuid({ error: INVALID }),
            from: z.enum(FULFILMENT_STATUSES, { error: INVALID }),
          })
          .strict(),
      )
      .min(1, REQUIRED)
      .max(500, INVALID),
    to: z.enum(FULFILMENT_STATUSES, { error: INVALID }),
  })
  .strict();
export type FulfilBody = z.infer<typeof fulfilBodySchema>;

export const fulfilAnswerSchema = z.object({
  /** The orders moved now or already at `to`. */
  moved: z.array(z.string()),
  /** The orders that were elsewhere than `from` (someone else moved them) or not paid. */
  stale: z.array(z.string()),
});
export type FulfilAnswer = z.infer<typeof fulfilAnswerSchema>;

export const cancelBodySchema = z
  .object({
    /** Said to the shopper in the cancellation mail; kept on the timeline. */
    reason: z.string().trim().max(1000, TOO_LONG).default(''),
  })
  .strict();

/** A refund: an amount in cents or lines, with a key that makes a repeat the same refund. */
export const refundBodySchema = z.union([
  z
    .object({
      key: z.uuid({ error: INVALID }),
      amountCents: z.number({ error: INVALID }).int(INVALID).min(1, INVALID),
    })
    .strict(),
  z
    .object({
      key: z.uuid({ error: INVALID }),
      lines: z
        .array(
          z
            .object({
              code: z.string().min(1, INVALID).max(100, INVALID),
              quantity: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(99, INVALID),
            })
            .strict(),
        )
        .min(1, REQUIRED)
        .max(500, INVALID),
    })
    .strict(),
]);
export type RefundBody = z.infer<typeof refundBodySchema>;

export const orderNoteSchema = z
  .object({
    text: z.string().trim().min(1, REQUIRED).max(4000, TOO_LONG),
  })
  .strict();

export const pickListQuerySchema = z
  .object({
    /** The delivery date; today in Helsinki without it. */
    date: isoDate.optional(),
    /** One slot's start time; without it, the whole day. */
    slot: clock.optional(),
    ...scopeFilterShape,
  })
  .strict();
export type PickListQuery = z.infer<typeof pickListQuerySchema>;

export const pickListSchema = z.object({
  date: z.string(),
  slot: z.string().nullable(),
  /** The day's slots with paid orders, for choosing one. */
  slots: z.array(
    z.object({ startTime: z.string(), endTime: z.string(), orders: z.number().int() }),
  ),
  /** Every product of the chosen orders, summed, by name. */
  products: z.array(z.object({ code: z.string(), name: z.string(), quantity: z.number().int() })),
  orders: z.array(
    z.object({
      id: z.string(),
      number: z.number().int(),
      siteId: z.string(),
      lang: z.string(),
      fulfilment: z.enum(FULFILMENT_STATUSES),
      startTime: z.string().nullable(),
      endTime: z.string().nullable(),
      name: z.string(),
      phoneNumber: z.string(),
      address: addressSchema,
      additionalInformation: z.string(),
      lines: z.array(z.object({ code: z.string(), name: z.string(), quantity: z.number().int() })),
    }),
  ),
});
export type PickList = z.infer<typeof pickListSchema>;

export const REPORT_API = '/api/admin/reports/daily';

export const dailyReportQuerySchema = z
  .object({
    /** The day in Helsinki; today without it. */
    date: isoDate.optional(),
    ...scopeFilterShape,
  })
  .strict();
export type DailyReportQuery = z.infer<typeof dailyReportQuerySchema>;

const vatShareSchema = z.object({
  basisPoints: z.number().int(),
  grossCents: z.number().int(),
  vatCents: z.number().int(),
  netCents: z.number().int(),
});

export const dailyReportSchema = z.object({
  date: z.string(),
  /** The sites the report covers (the staff member's, or the one asked for). */
  sites: z.array(z.string()),
  /** Orders paid that day (Helsinki). */
  orders: z.number().int(),
  /** What the orders charged: goods after coupons, gift cards sold, and delivery. */
  grossCents: z.number().int(),
  discountCents: z.number().int(),
  shippingCents: z.number().int(),
  /** The goods per VAT rate, each order's VAT summed (as its receipt says). */
  vat: z.array(vatShareSchema),
  vatCents: z.number().int(),
  /** Gift cards sold (no VAT: a multi-purpose voucher is taxed when used). */
  giftCardSalesCents: z.number().int(),
  /** Paid with gift cards. */
  giftCardUseCents: z.number().int(),
  /** Paid through the payment provider. */
  paidCents: z.number().int(),
  /** Refunds the provider confirmed that day. */
  refunds: z.object({ count: z.number().int(), cents: z.number().int() }),
  /** Paid through the provider less refunds. */
  netCents: z.number().int(),
  rows: z.array(
    z.object({
      kind: z.enum(['order', 'refund']),
      number: z.number().int(),
      siteId: z.string(),
      at: z.string(),
      grossCents: z.number().int(),
      vatCents: z.number().int(),
      giftCardUseCents: z.number().int(),
      /** Paid (an order) or given back (a refund, negative). */
      paidCents: z.number().int(),
    }),
  ),
});
export type DailyReport = z.infer<typeof dailyReportSchema>;
