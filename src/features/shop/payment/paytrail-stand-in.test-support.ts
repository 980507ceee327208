import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Paytrail's Payment API in tests: a real HTTP server on 127.0.0.1 that checks
 * requests as Paytrail documents (every `checkout-` header and the body signed with the merchant
 * secret; account, algorithm, method, a fresh nonce and a timestamp present; 401 otherwise),
 * answers `POST /payments`, `GET /payments/{id}` and `POST /payments/{id}/refund` with signed
 * answers, and sends signed redirects and callbacks: the same one as often as a test likes, in
 * any order. `down` makes it answer 503 to everything, as a provider that is away.
 *
 * Its HMAC code is written here again from Paytrail's documentation rather than imported from
 * signing.ts, so the two check each other.
 */

export interface StandInPayment {
  transactionId: string;
  /** The body as received. */
  request: {
    stamp: string;
    reference: string;
    amount: number;
    currency: string;
    language: string;
    items: { unitPrice: number; units: number; vatPercentage: number; productCode: string }[];
    customer: { email: string };
    redirectUrls: { success: string; cancel: string };
    callbackUrls?: { success: string; cancel: string };
  };
  status: 'new' | 'ok' | 'fail' | 'pending' | 'delayed';
  provider?: string;
}

export interface StandInRefund {
  refundStamp: string;
  refundReference: string;
  amount: number;
  transactionId: string;
  status: 'ok' | 'pending' | 'fail';
  callbackUrls: { success: string; cancel: string };
}

export interface StandInCall {
  method: string;
  path: string;
  status: number;
}

type ReturnStatus = 'ok' | 'fail' | 'pending' | 'delayed';

function hmac(
  secret: string,
  algorithm: string,
  params: Record<string, string | undefined>,
  body: string,
) {
  const lines = Object.keys(params)
    .filter((key) => key.startsWith('checkout-'))
    .sort()
    .map((key) => `${key}:${params[key]}`);
  lines.push(body);
  return createHmac(algorithm, secret).update(lines.join('\n')).digest('hex');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startPaytrailStandIn(options: { account?: string; secret?: string } = {}) {
  const account = options.account ?? '375917';
  const secret = options.secret ?? 'SAIPPUAKAUPPIAS';
  const payments = new Map<string, StandInPayment>();
  const stamps = new Set<string>();
  const nonces = new Set<string>();
  const calls: StandInCall[] = [];
  /** Refunds by payment; a refund stamp seen again answers its first refund. */
  const refunds = new Map<string, StandInRefund[]>();
  /** What the next refunds answer (`ok` by default; some methods answer `pending`). */
  const refundAnswer: { status: 'ok' | 'pending' } = { status: 'ok' };
  /** While true every request is answered 503 (the provider is away). */
  const outage = { down: false };
  /** The next answer's signature or body is changed after signing (a man in the middle). */
  const tamper: { next: 'signature' | 'body' | undefined } = { next: undefined };

  function send(response: ServerResponse, status: number, body: unknown, transactionId?: string) {
    let text = JSON.stringify(body);
    const headers: Record<string, string> = {
      'checkout-account': account,
      'checkout-algorithm': 'sha256',
      'checkout-nonce': randomUUID(),
      'checkout-timestamp': new Date().toISOString(),
      ...(transactionId ? { 'checkout-transaction-id': transactionId } : {}),
    };
    let signature = hmac(secret, 'sha256', headers, text);
    // Another last digit: always a different signature (a fixed '0' is no change one time in 16).
    if (tamper.next === 'signature') {
      signature = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    }
    if (tamper.next === 'body') text = text.replace(/"transactionId":"/, '"transactionId":"x');
    tamper.next = undefined;
    response.writeHead(status, {
      ...headers,
      signature,
      'request-id': randomUUID(),
      'content-type': 'application/json; charset=utf-8',
    });
    response.end(text);
  }

  function refuse(response: ServerResponse, status: number, message: string) {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ status: 'error', message }));
  }

  /** Paytrail's checks of a request's authentication; the reason it is refused, if it is. */
  function authError(request: IncomingMessage, body: string): string | undefined {
    const h = request.headers as Record<string, string | undefined>;
    if (h['checkout-account'] !== account) return 'Merchant account is invalid';
    const algorithm = h['checkout-algorithm'];
    if (algorithm !== 'sha256' && algorithm !== 'sha512') return 'Invalid algorithm';
    if (h['checkout-method'] !== request.method) return 'Method does not match';
    const nonce = h['checkout-nonce'];
    if (!nonce || nonces.has(nonce)) return 'Nonce missing or already used';
    const timestamp = h['checkout-timestamp'] ?? '';
    if (!/^\d{4}-\d\d-\d\dT/.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
      return 'Invalid timestamp';
    }
    const signature = h.signature;
    if (!signature || !same(signature, hmac(secret, algorithm, h, body))) {
      return 'HMAC signature mismatch';
    }
    nonces.add(nonce);
    return undefined;
  }

  function badPayment(body: unknown): string | undefined {
    const p = body as Partial<StandInPayment['request']> | null;
    if (typeof p !== 'object' || p === null) return 'Body is not an object';
    for (const field of ['stamp', 'reference', 'currency', 'language'] as const) {
      if (typeof p[field] !== 'string' || p[field] === '') return `${field} is required`;
    }
    if (!Number.isInteger(p.amount) || (p.amount ?? 0) <= 0) return 'amount must be positive';
    if (p.currency !== 'EUR') return 'currency must be EUR';
    if (!['FI', 'SV', 'EN'].includes(p.language ?? '')) return 'language is not supported';
    if (!p.customer || typeof p.customer.email !== 'string') return 'customer.email is required';
    if (!p.redirectUrls?.success || !p.redirectUrls.cancel) return 'redirectUrls are required';
    if (p.items) {
      let sum = 0;
      for (const item of p.items) {
        if (!Number.isInteger(item.unitPrice) || !Number.isInteger(item.units) || item.units < 0) {
          return 'item unitPrice and units must be integers';
        }
        if (typeof item.vatPercentage !== 'number' || !item.productCode) {
          return 'item vatPercentage and productCode are required';
        }
        sum += item.unitPrice * item.units;
      }
      if (sum !== p.amount) return 'Amount does not match the sum of the items';
    }
    if (stamps.has(p.stamp ?? '')) return 'Duplicate stamp';
    return undefined;
  }

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    const status = await handle(request, response, path).catch(() => {
      refuse(response, 500, 'Internal error');
      return 500;
    });
    calls.push({ method: request.method ?? '', path, status });
  });

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
  ): Promise<number> {
    const body = await readBody(request);
    if (outage.down) {
      refuse(response, 503, 'Service unavailable');
      return 503;
    }
    const refused = authError(request, body);
    if (refused) {
      refuse(response, 401, refused);
      return 401;
    }
    if (request.method === 'POST' && path === '/payments') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        refuse(response, 400, 'Body is not JSON');
        return 400;
      }
      const bad = badPayment(parsed);
      if (bad) {
        refuse(response, 400, bad);
        return 400;
      }
      const payment: StandInPayment = {
        transactionId: randomUUID(),
        request: parsed as StandInPayment['request'],
        status: 'new',
      };
      payments.set(payment.transactionId, payment);
      stamps.add(payment.request.stamp);
      send(response, 201, {
        transactionId: payment.transactionId,
        href: `${url}/pay/${payment.transactionId}`,
        reference: payment.request.reference,
        terms: 'By continuing with your payment, you agree to our payment terms & conditions',
        groups: [{ id: 'bank', name: 'Pankkimaksutavat' }],
        providers: [
          {
            url: `${url}/providers/nordea`,
            svg: `${url}/static/nordea.svg`,
            icon: `${url}/static/nordea.png`,
            name: 'Nordea',
            group: 'bank',
            id: 'nordea',
            parameters: [{ name: 'transaction', value: payment.transactionId }],
          },
        ],
      });
      return 201;
    }
    const match = /^\/payments\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && match) {
      const id = decodeURIComponent(match[1] ?? '');
      const payment = payments.get(id);
      if (!payment || request.headers['checkout-transaction-id'] !== id) {
        refuse(response, 404, 'Payment not found');
        return 404;
      }
      send(
        response,
        200,
        {
          transactionId: id,
          status: payment.status,
          amount: payment.request.amount,
          currency: payment.request.currency,
          reference: payment.request.reference,
          stamp: payment.request.stamp,
          createdAt: new Date().toISOString(),
          ...(payment.status === 'new' ? { href: `${url}/pay/${id}` } : {}),
          ...(payment.provider ? { provider: payment.provider } : {}),
        },
        id,
      );
      return 200;
    }
    const refundMatch = /^\/payments\/([^/]+)\/refund$/.exec(path);
    if (request.method === 'POST' && refundMatch) {
      return refund(request, response, decodeURIComponent(refundMatch[1] ?? ''), body);
    }
    refuse(response, 404, 'Not found');
    return 404;
  }

  /**
   * A refund as Paytrail documents it: amount, refundStamp, refundReference and callbackUrls in
   * the body; 201 with the refund's status and transaction, 400 for a payment not paid, an amount
   * above what is left to refund or a stamp used for another refund.
   */
  function refund(
    request: IncomingMessage,
    response: ServerResponse,
    id: string,
    body: string,
  ): number {
    const payment = payments.get(id);
    if (!payment || request.headers['checkout-transaction-id'] !== id) {
      refuse(response, 404, 'Payment not found');
      return 404;
    }
    let r: Partial<StandInRefund>;
    try {
      r = JSON.parse(body) as Partial<StandInRefund>;
    } catch {
      refuse(response, 400, 'Body is not JSON');
      return 400;
    }
    if (!Number.isInteger(r.amount) || (r.amount ?? 0) <= 0) {
      refuse(response, 400, 'amount must be positive');
      return 400;
    }
    if (!r.refundStamp || !r.refundReference) {
      refuse(response, 400, 'refundStamp and refundReference are required');
      return 400;
    }
    if (!r.callbackUrls?.success || !r.callbackUrls.cancel) {
      refuse(response, 400, 'callbackUrls are required');
      return 400;
    }
    const made = refunds.get(id) ?? [];
    const earlier = [...refunds.values()].flat().find((x) => x.refundStamp === r.refundStamp);
    if (earlier) {
      if (earlier.transactionId === undefined || earlier.amount !== r.amount) {
        refuse(response, 400, 'Duplicate refundStamp');
        return 400;
      }
      send(response, 201, answerOf(earlier), id);
      return 201;
    }
    const refunded = made.filter((x) => x.status !== 'fail').reduce((sum, x) => sum + x.amount, 0);
    if (payment.status !== 'ok' || refunded + (r.amount ?? 0) > payment.request.amount) {
      refuse(response, 400, 'Refund amount exceeds the refundable amount');
      return 400;
    }
    const row: StandInRefund = {
      refundStamp: r.refundStamp,
      refundReference: r.refundReference,
      amount: r.amount ?? 0,
      transactionId: randomUUID(),
      status: refundAnswer.status,
      callbackUrls: r.callbackUrls,
    };
    made.push(row);
    refunds.set(id, made);
    send(response, 201, answerOf(row), id);
    return 201;
  }

  function answerOf(row: StandInRefund) {
    return { provider: 'nordea', status: row.status, transactionId: row.transactionId };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function paymentOf(transactionId: string): StandInPayment {
    const payment = payments.get(transactionId);
    if (!payment) throw new Error(`The stand-in has no payment ${transactionId}`);
    return payment;
  }

  /** The signed query of a redirect or callback for the payment, as Paytrail builds it. */
  function returnParams(
    transactionId: string,
    status: ReturnStatus,
    provider = 'nordea',
  ): Record<string, string> {
    const payment = paymentOf(transactionId);
    const params: Record<string, string> = {
      'checkout-account': account,
      'checkout-algorithm': 'sha256',
      'checkout-amount': String(payment.request.amount),
      'checkout-stamp': payment.request.stamp,
      'checkout-reference': payment.request.reference,
      'checkout-transaction-id': transactionId,
      'checkout-status': status,
      'checkout-provider': provider,
    };
    params.signature = hmac(secret, 'sha256', params, '');
    return params;
  }

  /**
   * The signed query of Paytrail's call to a refund's callback URL with its outcome: the refund's
   * stamp, reference, amount and transaction. The refund takes that status.
   */
  function refundCallbackParams(
    refundStamp: string,
    status: 'ok' | 'fail',
  ): Record<string, string> {
    const refund = [...refunds.values()].flat().find((r) => r.refundStamp === refundStamp);
    if (!refund) throw new Error(`The stand-in has no refund ${refundStamp}`);
    refund.status = status;
    const params: Record<string, string> = {
      'checkout-account': account,
      'checkout-algorithm': 'sha256',
      'checkout-amount': String(refund.amount),
      'checkout-stamp': refund.refundStamp,
      'checkout-reference': refund.refundReference,
      'checkout-transaction-id': refund.transactionId ?? '',
      'checkout-status': status,
      'checkout-provider': 'nordea',
    };
    params.signature = hmac(secret, 'sha256', params, '');
    return params;
  }

  function withParams(target: string, params: Record<string, string>): string {
    const u = new URL(target);
    for (const [name, value] of Object.entries(params)) u.searchParams.set(name, value);
    return u.toString();
  }

  /** `ok`, `pending` and `delayed` go to the success URL, `fail` to the cancel URL. */
  function targetOf(urls: { success: string; cancel: string }, status: ReturnStatus) {
    return status === 'fail' ? urls.cancel : urls.success;
  }

  return {
    url,
    account,
    secret,
    payments,
    refunds,
    refundAnswer,
    outage,
    calls,
    tamper,
    returnParams,
    refundCallbackParams,
    /** Settles the payment (as `GET /payments/{id}` will tell) and gives the browser's redirect. */
    redirectUrl(transactionId: string, status: ReturnStatus, provider = 'nordea'): string {
      const payment = paymentOf(transactionId);
      payment.status = status;
      payment.provider = provider;
      return withParams(
        targetOf(payment.request.redirectUrls, status),
        returnParams(transactionId, status, provider),
      );
    },
    /** Calls the payment's callback URL (a GET, as Paytrail does); answers its status code. */
    async callback(
      transactionId: string,
      status: ReturnStatus,
      provider = 'nordea',
    ): Promise<number> {
      const payment = paymentOf(transactionId);
      if (!payment.request.callbackUrls) throw new Error('The payment has no callback URLs');
      payment.status = status;
      payment.provider = provider;
      const target = withParams(
        targetOf(payment.request.callbackUrls, status),
        returnParams(transactionId, status, provider),
      );
      const answer = await fetch(target, { redirect: 'manual' });
      await answer.arrayBuffer();
      return answer.status;
    },
    close(): Promise<void> {
      return new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

export type PaytrailStandIn = Awaited<ReturnType<typeof startPaytrailStandIn>>;
