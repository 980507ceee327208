import { z } from 'zod';
import { AppError, fieldErrorsOf, Invalid } from '../../../server/errors.ts';
import { languages } from '../../../sites/types.ts';
import { isSignatureAlgorithm, signatureMatches } from './signing.ts';

/**
 * The payment layer's surface (decision 024). The order code asks a provider to open a payment for
 * an order, sends the shopper to `href`, and later hands every redirect and callback it receives to
 * `verifyReturn`, whichever provider is configured: the built-in test bank or Paytrail. Money is
 * integer cents (decision 019); prices include VAT.
 */

const INVALID = 'validation.invalid';

/** Paytrail's limits (Payment API, "Create payment"): an amount is 1–99 999 998 cents. */
export const MAX_AMOUNT_CENTS = 99_999_998;

const urlSchema = (max: number) =>
  z.url({ protocol: /^https?$/, error: INVALID }).max(max, INVALID);

const urlPairSchema = (max: number) =>
  z.object({ success: urlSchema(max), cancel: urlSchema(max) });

export const paymentItemSchema = z.object({
  /** Price of one unit with VAT, in cents; negative for a discount line. */
  unitPriceCents: z.number({ error: INVALID }).int(INVALID).min(-2_147_483_648).max(2_147_483_647),
  units: z.number({ error: INVALID }).int(INVALID).min(1, INVALID).max(MAX_AMOUNT_CENTS, INVALID),
  /** VAT percentage with at most one decimal: 13.5, 25.5, 0 for gift cards (decision 019). */
  vatPercentage: z
    .number({ error: INVALID })
    .min(0, INVALID)
    .max(100, INVALID)
    .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, INVALID),
  productCode: z.string({ error: INVALID }).min(1, INVALID).max(100, INVALID),
  description: z.string({ error: INVALID }).max(1000, INVALID).optional(),
  category: z.string({ error: INVALID }).max(100, INVALID).optional(),
});

export const paymentRequestSchema = z
  .object({
    /** Unique per payment attempt; the idempotency key the order keeps with the payment. */
    stamp: z.string({ error: INVALID }).min(1, INVALID).max(200, INVALID),
    /** The order's reference (shown to the shopper and in the settlement). */
    reference: z.string({ error: INVALID }).min(1, INVALID).max(200, INVALID),
    amountCents: z
      .number({ error: INVALID })
      .int(INVALID)
      .min(1, INVALID)
      .max(MAX_AMOUNT_CENTS, INVALID),
    currency: z.literal('EUR', { error: INVALID }),
    language: z.enum(languages, { error: INVALID }),
    items: z.array(paymentItemSchema).min(1, INVALID).max(500, INVALID),
    customer: z.object({ email: z.email({ error: INVALID }).max(200, INVALID) }),
    /** Where the shopper's browser comes back (at most 300 characters each). */
    redirectUrls: urlPairSchema(300),
    /** Where the provider calls the server itself, if it does (at most 3000 characters each). */
    callbackUrls: urlPairSchema(3000).optional(),
  })
  .superRefine((request, ctx) => {
    const sum = request.items.reduce((total, item) => total + item.unitPriceCents * item.units, 0);
    if (sum !== request.amountCents) {
      ctx.addIssue({
        code: 'custom',
        path: ['amountCents'],
        message: 'payment.amountMismatch',
      });
    }
  });

export type PaymentItem = z.infer<typeof paymentItemSchema>;
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/**
 * The request, checked before any provider is called: every field within Paytrail's limits and
 * the amount equal to the sum of the items' unit prices times units (an `Invalid` otherwise).
 */
export function checkPaymentRequest(request: PaymentRequest): PaymentRequest {
  const parsed = paymentRequestSchema.safeParse(request);
  if (!parsed.success) {
    throw new Invalid(fieldErrorsOf(parsed.error), 'The payment request is invalid.');
  }
  return parsed.data;
}

/** A payment method's form (Paytrail's `providers`): the shop may render these buttons itself. */
export interface PaymentMethodForm {
  id: string;
  name: string;
  group: string;
  /** The form's target; the method is POST. */
  url: string;
  svg?: string;
  icon?: string;
  parameters: { name: string; value: string }[];
}

export interface CreatedPayment {
  /** The provider's id of the payment; keep it with the order. */
  transactionId: string;
  /** Where to send the shopper to pay (a GET). */
  href: string;
  /** The bank buttons, when the provider gives them (the test bank has none). */
  providers: PaymentMethodForm[];
}

export const PAYMENT_STATUSES = ['ok', 'fail', 'pending', 'new', 'delayed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A signed redirect or callback, verified. */
export interface PaymentReturn {
  status: PaymentStatus;
  stamp: string;
  reference: string;
  transactionId: string;
  amountCents: number;
  /** The payment method used (`nordea`, `mobilepay`, `testbank`…), when given. */
  method: string | undefined;
}

export interface PaymentProvider {
  readonly id: 'testbank' | 'paytrail';
  /** Opens a payment. Checks the request first (`checkPaymentRequest`). */
  createPayment(request: PaymentRequest): Promise<CreatedPayment>;
  /**
   * Checks the query of a redirect or callback: its signature over every `checkout-` parameter
   * (constant-time comparison) and the account. Throws `PaymentReturnRefused` otherwise. Pure: the
   * same query always gives the same answer, however many times and in whatever order it comes.
   */
  verifyReturn(query: Record<string, unknown>): PaymentReturn;
}

/** A redirect or callback whose signature, account or fields are wrong. Nothing may change. */
export class PaymentReturnRefused extends AppError {
  constructor(detail: string) {
    super(403, 'payment-return-refused', 'Forbidden', detail);
  }
}

/** A provider that did not answer, or answered something other than its documented answer. */
export class PaymentProviderFailed extends AppError {
  constructor(detail: string) {
    super(502, 'payment-provider', 'Bad gateway', detail);
  }
}

const returnFieldsSchema = z.object({
  'checkout-amount': z
    .string()
    .regex(/^\d{1,8}$/)
    .transform(Number),
  'checkout-stamp': z.string().min(1).max(200),
  'checkout-reference': z.string().min(1).max(200),
  'checkout-transaction-id': z.string().min(1).max(200),
  'checkout-status': z.enum(PAYMENT_STATUSES),
  'checkout-provider': z.string().max(100).optional(),
});

/**
 * Verifies a redirect's or callback's query the way Paytrail documents it: the HMAC over every
 * `checkout-` parameter (whatever their names: new ones may appear) and an empty body, with the
 * algorithm `checkout-algorithm` names, equal to `signature`; then `checkout-account` must be ours.
 * A repeated parameter is refused rather than guessed at.
 */
export function verifyCheckoutReturn(
  secret: string,
  account: string,
  query: Record<string, unknown>,
): PaymentReturn {
  // Only the signed parameters and the signature count; the shop's own (`?tilaus=`) are left out.
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.toLowerCase().startsWith('checkout-') && name !== 'signature') continue;
    if (typeof value !== 'string') {
      throw new PaymentReturnRefused(`Parameter ${name} is not one value.`);
    }
    params[name] = value;
  }
  const algorithm = params['checkout-algorithm'];
  if (!isSignatureAlgorithm(algorithm))
    throw new PaymentReturnRefused('Unknown signature algorithm.');
  if (!signatureMatches(secret, params, '', params.signature, algorithm)) {
    throw new PaymentReturnRefused('The signature does not match.');
  }
  if (params['checkout-account'] !== account) throw new PaymentReturnRefused('Another account.');
  const fields = returnFieldsSchema.safeParse(params);
  if (!fields.success) throw new PaymentReturnRefused('Signed, but the fields are not valid.');
  const f = fields.data;
  return {
    status: f['checkout-status'],
    stamp: f['checkout-stamp'],
    reference: f['checkout-reference'],
    transactionId: f['checkout-transaction-id'],
    amountCents: f['checkout-amount'],
    method: f['checkout-provider'],
  };
}
