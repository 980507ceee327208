import { z } from 'zod';
import { ORDER_STATUSES } from '../tables.ts';

/**
 * Delivery in the back office (decision 142): areas and their postal codes, each area's weekly
 * slots and its closed days. A change never breaks an existing order's slot: it is refused with
 * the booked dates, or (closing a day) confirmed with the list of the orders on it. Shared by the
 * routes and the /admin app; error messages are keys of the admin catalogue.
 */
export const DELIVERY_API = '/api/admin/delivery';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, INVALID)
  .refine((value) => {
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
  }, INVALID);
/** A Helsinki wall-clock time, `08:00`. */
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, INVALID);

/** An area's id in the path (`:id`). */
const rowId = z.coerce
  .number({ error: INVALID })
  .int(INVALID)
  .min(1, INVALID)
  .max(2 ** 31 - 1, INVALID);
export const areaParamsSchema = z.object({ id: rowId });
export const slotParamsSchema = areaParamsSchema.extend({ slotId: rowId });
export const closedDateParamsSchema = areaParamsSchema.extend({ date: isoDate });

const areaName = z.string().trim().min(1, REQUIRED).max(200, TOO_LONG);

/**
 * A change that concerns booked orders goes through only when sent again with `confirm: true`
 * and the ids of the orders the staff member was shown (the 409's `orders`); when they are not
 * the orders concerned now, 409 again.
 */
const confirmOrders = {
  confirm: z.literal(true, { error: INVALID }).optional(),
  orderIds: z
    .array(z.uuid({ error: INVALID }))
    .max(10_000, INVALID)
    .optional(),
};

export const areaCreateSchema = z.object({ name: areaName }).strict();
export type AreaCreate = z.infer<typeof areaCreateSchema>;

/**
 * Renames an area or turns it on or off; an inactive area's postal codes are not delivered to.
 * Turning it off with upcoming orders in it needs them confirmed.
 */
export const areaUpdateSchema = z
  .object({
    name: areaName.optional(),
    active: z.boolean({ error: INVALID }).optional(),
    ...confirmOrders,
  })
  .strict()
  .refine((body) => body.name !== undefined || body.active !== undefined, {
    message: REQUIRED,
    path: ['name'],
  });
export type AreaUpdate = z.infer<typeof areaUpdateSchema>;

/** A postal code as the shop keeps it: no spaces, upper case (`FI-00100` or `00100`). */
export const normalisePostalCode = (code: string) => code.replace(/\s+/g, '').toUpperCase();

export const postalCodesSchema = z
  .object({
    postalCodes: z
      .array(
        z
          .string()
          .max(40, TOO_LONG)
          .transform(normalisePostalCode)
          .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9-]{1,11}$/, INVALID)),
      )
      .max(2000, INVALID),
    /** Removing codes with upcoming orders delivered to them needs those orders confirmed. */
    ...confirmOrders,
  })
  .strict();
export type PostalCodes = z.infer<typeof postalCodesSchema>;

export const slotBodySchema = z
  .object({
    /** 1 Monday … 7 Sunday. */
    weekday: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(7, INVALID),
    startTime: clock,
    endTime: clock,
    capacity: z.number({ error: INVALID }).int(INVALID).min(0, INVALID).max(100_000, INVALID),
    /** Orders close this many days before the delivery date … */
    cutoffDaysBefore: z.number({ error: INVALID }).int(INVALID).min(0, INVALID).max(60, INVALID),
    /** … at this time (Helsinki). */
    cutoffTime: clock,
  })
  .strict()
  .refine((slot) => slot.startTime < slot.endTime, { message: INVALID, path: ['endTime'] });
export type SlotBody = z.infer<typeof slotBodySchema>;

export const closeDateSchema = z
  .object({
    date: isoDate,
    /** Closing a date with orders booked on it needs them confirmed. */
    ...confirmOrders,
  })
  .strict();
export type CloseDate = z.infer<typeof closeDateSchema>;

/** A dated slot of an upcoming day with orders in it. */
export const bookedDateSchema = z.object({
  date: z.string(),
  /** Places sold (orders pending payment or paid). */
  sold: z.number().int(),
});
export type BookedDate = z.infer<typeof bookedDateSchema>;

export const slotRowSchema = z.object({
  id: z.number().int(),
  weekday: z.number().int(),
  startTime: z.string(),
  endTime: z.string(),
  capacity: z.number().int(),
  cutoffDaysBefore: z.number().int(),
  cutoffTime: z.string(),
  /** Upcoming dates of this slot with places sold, earliest first. */
  booked: z.array(bookedDateSchema),
});
export type SlotRow = z.infer<typeof slotRowSchema>;

export const areaRowSchema = z.object({
  id: z.number().int(),
  siteId: z.string(),
  name: z.string(),
  active: z.boolean(),
  postalCodes: z.array(z.string()),
  /** By weekday, then start time. */
  slots: z.array(slotRowSchema),
  /** Closed dates from today on, with how many orders are booked on each. */
  closedDates: z.array(z.object({ date: z.string(), orders: z.number().int() })),
});
export type AreaRow = z.infer<typeof areaRowSchema>;

export const deliveryListSchema = z.object({
  /** Today in Helsinki: upcoming means from this date on. */
  today: z.string(),
  areas: z.array(areaRowSchema),
});
export type DeliveryList = z.infer<typeof deliveryListSchema>;

/** An order booked on a delivery date, as staff contact its shopper. */
export const bookedOrderSchema = z.object({
  id: z.string(),
  number: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  name: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  deliveryDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
});
export type BookedOrder = z.infer<typeof bookedOrderSchema>;

/** A closed date: the area as it is now, and the orders booked on it (to contact; they keep it). */
export const closedAnswerSchema = z.object({
  area: areaRowSchema,
  orders: z.array(bookedOrderSchema),
});
export type ClosedAnswer = z.infer<typeof closedAnswerSchema>;

/**
 * The 409 of a slot change that would break booked orders (`type` `/problems/slot-booked`):
 * `booked` orders in all on the `affected` dates.
 */
export interface SlotBookedProblem {
  type: '/problems/slot-booked';
  detail: string;
  booked: number;
  affected: BookedDate[];
}

/** The 409 of closing a date with orders on it (`type` `/problems/orders-on-date`). */
export interface OrdersOnDateProblem {
  type: '/problems/orders-on-date';
  detail: string;
  orders: BookedOrder[];
}

/**
 * The 409 of turning off an area with upcoming orders (`/problems/orders-in-area`) or of removing
 * postal codes with upcoming orders delivered to them (`/problems/orders-in-postal-codes`).
 */
export interface OrdersInAreaProblem {
  type: '/problems/orders-in-area' | '/problems/orders-in-postal-codes';
  detail: string;
  orders: BookedOrder[];
}

/** The 409 of a postal code that is another area's (`type` `/problems/postal-code-taken`). */
export interface PostalCodeTakenProblem {
  type: '/problems/postal-code-taken';
  detail: string;
  taken: { postalCode: string; areaId: number; areaName: string }[];
}
