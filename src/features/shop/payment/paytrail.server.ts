import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { verifyCheckoutReturn } from './paytrail-returns.ts';
import {
  type CreatedPayment,
  checkPaymentRequest,
  PAYMENT_STATUSES,
  type PaymentProvider,
  PaymentProviderFailed,
  PaymentProviderRefused,
  type PaymentRef,
  type PaymentRequest,
  type PaymentReturn,
  type RefundAnswer,
  type RefundRequest,
  refundRequestSchema,
} from './provider.ts';
import { calculateSignature, signatureMatches } from './signing.ts';

/**
 * Paytrail's Payment API (decision 024), with Node's fetch and crypto: every request signed with
 * the merchant secret over its `checkout-` headers and body, every answer's signature checked
 * before its body is believed, redirects and callbacks verified by `verifyCheckoutReturn`
 * (`paytrail-returns.ts`); a payment's status from `GET /payments/{id}` and refunds with
 * `POST /payments/{id}/refund` (decision 122).
 */

export const PAYTRAIL_API_URL = 'https://services.paytrail.com';

export interface PaytrailOptions {
  account: string;
  secret: string;
  /** `https://services.paytrail.com`, or a stand-in in tests. */
  apiUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Identifies the integration to Paytrail's customer service. */
  platformName?: string;
}

const formFieldSchema = z.object({ name: z.string(), value: z.string() });

const createdSchema = z.object({
  transactionId: z.string().min(1),
  href: z.url(),
  providers: z
    .array(
      z.object({
        url: z.string(),
        icon: z.string().optional(),
        svg: z.string().optional(),
        name: z.string(),
        group: z.string(),
        id: z.string(),
        parameters: z.array(formFieldSchema).default([]),
      }),
    )
    .default([]),
});

const paymentSchema = z.object({
  transactionId: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.number().int(),
  stamp: z.string(),
  reference: z.string(),
  provider: z.string().optional(),
});

const refundAnswerSchema = z.object({
  status: z.enum(['ok', 'pending', 'fail']),
  transactionId: z.string().min(1).optional(),
  provider: z.string().optional(),
});

/** The body of `POST /payments`, in the field order of Paytrail's documentation. */
export function paytrailPaymentBody(request: PaymentRequest) {
  return {
    stamp: request.stamp,
    reference: request.reference,
    amount: request.amountCents,
    currency: request.currency,
    language: request.language.toUpperCase(),
    items: request.items.map((item) => ({
      unitPrice: item.unitPriceCents,
      units: item.units,
      vatPercentage: item.vatPercentage,
      productCode: item.productCode,
      ...(item.description === undefined ? {} : { description: item.description }),
      ...(item.category === undefined ? {} : { category: item.category }),
    })),
    customer: { email: request.customer.email },
    redirectUrls: request.redirectUrls,
    ...(request.callbackUrls ? { callbackUrls: request.callbackUrls } : {}),
  };
}

export class PaytrailProvider implements PaymentProvider {
  readonly id = 'paytrail' as const;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PaytrailOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async start(request: PaymentRequest): Promise<CreatedPayment> {
    const checked = checkPaymentRequest(request);
    const answer = await this.call(
      'POST',
      '/payments',
      JSON.stringify(paytrailPaymentBody(checked)),
    );
    const created = createdSchema.safeParse(answer);
    if (!created.success) throw new PaymentProviderFailed('Paytrail answered an unknown shape.');
    return created.data;
  }

  /** `GET /payments/{transactionId}`: the payment's status now (for a payment whose return is late). */
  async status({ transactionId }: PaymentRef): Promise<PaymentReturn> {
    const path = `/payments/${encodeURIComponent(transactionId)}`;
    const answer = paymentSchema.safeParse(await this.call('GET', path, '', transactionId));
    if (!answer.success || answer.data.transactionId !== transactionId) {
      throw new PaymentProviderFailed('Paytrail answered an unknown shape.');
    }
    const p = answer.data;
    return {
      status: p.status,
      stamp: p.stamp,
      reference: p.reference,
      transactionId: p.transactionId,
      amountCents: p.amount,
      method: p.provider,
    };
  }

  /**
   * `POST /payments/{transactionId}/refund` with the amount, the refund's stamp and reference
   * and, when given, where to call back with a pending refund's outcome. 201 answers the refund's
   * status; 400 and 422 (a refusal, or a method that cannot refund) throw `PaymentProviderRefused`.
   */
  async refund(request: RefundRequest): Promise<RefundAnswer> {
    const checked = refundRequestSchema.parse(request);
    const path = `/payments/${encodeURIComponent(checked.transactionId)}/refund`;
    const body = JSON.stringify({
      amount: checked.amountCents,
      refundStamp: checked.refundStamp,
      refundReference: checked.refundReference,
      ...(checked.callbackUrls ? { callbackUrls: checked.callbackUrls } : {}),
    });
    const answer = refundAnswerSchema.safeParse(
      await this.call('POST', path, body, checked.transactionId),
    );
    if (!answer.success) throw new PaymentProviderFailed('Paytrail answered an unknown shape.');
    return { status: answer.data.status, refundTransactionId: answer.data.transactionId };
  }

  parseReturn(query: Record<string, unknown>): PaymentReturn {
    return verifyCheckoutReturn(this.options.secret, this.options.account, query);
  }

  /** One signed call; the answer's body is returned only when its signature is Paytrail's. */
  private async call(
    method: 'GET' | 'POST',
    path: string,
    body: string,
    transactionId?: string,
  ): Promise<unknown> {
    const headers: Record<string, string> = {
      'checkout-account': this.options.account,
      'checkout-algorithm': 'sha256',
      'checkout-method': method,
      'checkout-nonce': randomUUID(),
      'checkout-timestamp': new Date().toISOString(),
      ...(transactionId ? { 'checkout-transaction-id': transactionId } : {}),
    };
    headers.signature = calculateSignature(this.options.secret, headers, body);
    if (body !== '') headers['content-type'] = 'application/json; charset=utf-8';
    headers['platform-name'] = this.options.platformName ?? 'kattaus';

    let response: Response;
    let text: string;
    try {
      response = await this.fetch(`${this.options.apiUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers,
        ...(body === '' ? {} : { body }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
        redirect: 'error',
      });
      text = await response.text();
    } catch (error) {
      throw new PaymentProviderFailed(`Paytrail did not answer: ${(error as Error).name}.`);
    }
    if (!response.ok) {
      const detail = `Paytrail answered ${response.status}: ${messageOf(text)}`;
      // A refusal is an answer: nothing was done. A 5xx may hide a request that was carried out.
      if (response.status >= 400 && response.status < 500) throw new PaymentProviderRefused(detail);
      throw new PaymentProviderFailed(detail);
    }
    const answerHeaders = Object.fromEntries(response.headers);
    const algorithm = answerHeaders['checkout-algorithm'] === 'sha512' ? 'sha512' : 'sha256';
    if (
      !signatureMatches(
        this.options.secret,
        answerHeaders,
        text,
        answerHeaders.signature,
        algorithm,
      )
    ) {
      throw new PaymentProviderFailed("The answer's signature is not Paytrail's.");
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new PaymentProviderFailed('Paytrail answered something other than JSON.');
    }
  }
}

/** Paytrail's error body is `{ status: 'error', message }`; only the message is worth logging. */
function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message.slice(0, 200) : 'no message';
  } catch {
    return 'no message';
  }
}
