import { z } from 'zod';
import { AppError, fieldErrorsOf, Invalid } from '../../../server/errors.ts';
import { languages } from '../../../sites/types.ts';

/**
 * The payment layer's surface (decision 024). The order code asks a provider to open a payment for
 * an order, sends the shopper to `href`, and later hands every redirect and callback it receives to
 * `parseReturn`, whichever provider is configured: the built-in test bank or Paytrail. Money is
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

/** What a provider's word on a payment means to the shop. */
export type PaymentOutcome = 'paid' | 'failed' | 'pending';

/** `ok` is paid, `fail` failed; `new`, `pending` and `delayed` may still become either. */
export function outcomeOf(status: PaymentStatus): PaymentOutcome {
  if (status === 'ok') return 'paid';
  if (status === 'fail') return 'failed';
  return 'pending';
}

/** The payment a status query is about: the attempt's stamp and the provider's transaction. */
export interface PaymentRef {
  stamp: string;
  transactionId: string;
}

export const refundRequestSchema = z.object({
  /** The paid payment's transaction at the provider. */
  transactionId: z.string().min(1).max(200),
  amountCents: z.number().int().min(1).max(MAX_AMOUNT_CENTS),
  /** Unique per refund: the same stamp sent again is the same refund, never a second one. */
  refundStamp: z.string().min(1).max(200),
  refundReference: z.string().min(1).max(200),
  /** Where the provider tells a refund's final status when it answered `pending`. */
  callbackUrls: urlPairSchema(3000).optional(),
});
export type RefundRequest = z.infer<typeof refundRequestSchema>;

export interface RefundAnswer {
  /** `ok` refunded, `pending` accepted and still under way, `fail` refused. */
  status: 'ok' | 'pending' | 'fail';
  /** The provider's id of the refund transaction, when it made one. */
  refundTransactionId: string | undefined;
}

/**
 * A payment provider (decisions 024 and 122): opens payments, tells one payment's status, refunds
 * all or part of a paid payment, and parses its signed redirects and callbacks. Order code
 * uses only this surface, so the test bank and Paytrail are interchangeable.
 */
export interface PaymentProvider {
  readonly id: 'testbank' | 'paytrail';
  /** Opens a payment. Checks the request first (`checkPaymentRequest`). */
  start(request: PaymentRequest): Promise<CreatedPayment>;
  /**
   * Asks the provider for the payment's status now (`new` until the shopper acts). Throws
   * `PaymentProviderFailed` when the provider does not answer as documented.
   */
  status(payment: PaymentRef): Promise<PaymentReturn>;
  /**
   * Refunds `amountCents` of a paid payment. The same `refundStamp` twice is one refund. A
   * provider that answered no throws `PaymentProviderRefused` (nothing was refunded); one that did
   * not answer throws `PaymentProviderFailed` (the refund may or may not have been made).
   */
  refund(request: RefundRequest): Promise<RefundAnswer>;
  /**
   * Checks the query of a redirect or callback: its signature over every `checkout-` parameter
   * (constant-time comparison) and the account. Throws `PaymentReturnRefused` otherwise. Pure: the
   * same query always gives the same answer, however many times and in whatever order it comes.
   * `outcomeOf(status)` says what it means.
   */
  parseReturn(query: Record<string, unknown>): PaymentReturn;
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

/** A provider that answered a request with a refusal (a 4xx): nothing was done. */
export class PaymentProviderRefused extends PaymentProviderFailed {}
