import { z } from 'zod';
import { REVIEW_STATES } from '../statuses.ts';

/** The shop's customers in the back office (decision 146). */
export const CUSTOMERS_API = '/api/admin/customers';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';

export const customersQuerySchema = z
  .object({
    /** Part of an e-mail address or a name. */
    q: z.string().trim().max(200, TOO_LONG).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const customerIdParamsSchema = z.object({ id: z.uuid({ error: INVALID }) });

const address = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    streetAddress: z.string(),
    postalCode: z.string(),
    city: z.string(),
  })
  .nullable();

export const customerRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  emailVerified: z.boolean(),
  lockedAt: z.string().nullable(),
  orders: z.number().int(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

export const customersListSchema = z.object({
  customers: z.array(customerRowSchema),
  total: z.number().int(),
});

export const customerDetailSchema = customerRowSchema.extend({
  phone: z.string(),
  deliveryAddress: address,
  billingAddress: address,
  lockedReason: z.string().nullable(),
  orderList: z.array(
    z.object({
      id: z.string(),
      number: z.number().int(),
      createdAt: z.string(),
      status: z.string(),
      fulfilment: z.string(),
      totalCents: z.number().int(),
    }),
  ),
  reviews: z.array(
    z.object({
      id: z.number().int(),
      code: z.string(),
      /** The reviewed product's name; null when the product is no longer in the catalogue. */
      productName: z.string().nullable(),
      rating: z.number().int(),
      text: z.string(),
      createdAt: z.string(),
      /** Whether it waits for a moderator, shows, or was rejected (decision 148). */
      state: z.enum(REVIEW_STATES),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** Locks (with a reason) or opens an account. */
export const customerLockSchema = z.union([
  z
    .object({
      locked: z.literal(true),
      reason: z.string().trim().min(1, REQUIRED).max(500, TOO_LONG),
    })
    .strict(),
  z.object({ locked: z.literal(false) }).strict(),
]);
