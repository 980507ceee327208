import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Invalid } from '../../../server/errors.ts';
import { PaytrailProvider } from './paytrail.server.ts';
import { type PaytrailStandIn, startPaytrailStandIn } from './paytrail-stand-in.test-support.ts';
import {
  PaymentProviderFailed,
  type PaymentRequest,
  type PaymentReturn,
  PaymentReturnRefused,
} from './provider.ts';

/**
 * A whole payment through the Paytrail stand-in: the provider signs its calls, the stand-in checks
 * them as Paytrail does and answers signed, then calls the shop's callback URL (a local server
 * here, standing in for the order code's route) with signed parameters.
 */

let standIn: PaytrailStandIn;
let shop: { url: string; received: { query: Record<string, string>; answer: unknown }[] };
let closeShop: () => Promise<void>;
let provider: PaytrailProvider;
let counter = 0;

beforeAll(async () => {
  standIn = await startPaytrailStandIn();
  provider = new PaytrailProvider({
    account: standIn.account,
    secret: standIn.secret,
    apiUrl: standIn.url,
  });
  const received: { query: Record<string, string>; answer: unknown }[] = [];
  const server = createServer((request, response) => {
    const query = Object.fromEntries(new URL(request.url ?? '/', 'http://shop').searchParams);
    try {
      const answer = provider.parseReturn(query);
      received.push({ query, answer });
      response.writeHead(200).end();
    } catch (error) {
      received.push({ query, answer: error });
      response.writeHead(error instanceof PaymentReturnRefused ? 403 : 500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
  closeShop = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
});

afterAll(async () => {
  await standIn.close();
  await closeShop();
});

/** The payment as the order code names it to `status`: its stamp and transaction. */
const refOf = (transactionId: string) => ({
  stamp: standIn.payments.get(transactionId)?.request.stamp ?? '',
  transactionId,
});

afterEach(() => {
  shop.received.length = 0;
});

function request(overrides: Partial<PaymentRequest> = {}): PaymentRequest {
  counter += 1;
  return {
    stamp: `order-1001-attempt-${counter}`,
    reference: '10016',
    amountCents: 2 * 1290 + 2500,
    currency: 'EUR',
    language: 'fi',
    items: [
      {
        unitPriceCents: 1290,
        units: 2,
        vatPercentage: 13.5,
        productCode: '100234',
        description: 'Naudan jauheliha 400 g',
      },
      { unitPriceCents: 2500, units: 1, vatPercentage: 0, productCode: 'LAHJAKORTTI25' },
    ],
    customer: { email: 'asiakas@example.fi' },
    redirectUrls: {
      success: 'https://lihakauppa.example/kassa/maksettu?tilaus=1001',
      cancel: 'https://lihakauppa.example/kassa/peruttu?tilaus=1001',
    },
    callbackUrls: {
      success: `${shop.url}/api/payment/callback/success`,
      cancel: `${shop.url}/api/payment/callback/cancel`,
    },
    ...overrides,
  };
}

describe('Paytrail through the stand-in', () => {
  it('create → signed callback → verifyReturn ok; the redirect reads the same', async () => {
    const created = await provider.start(request());
    expect(created.href).toBe(`${standIn.url}/pay/${created.transactionId}`);
    expect(created.providers.map((p) => p.id)).toEqual(['nordea']);

    const sent = standIn.payments.get(created.transactionId)?.request;
    expect(sent).toMatchObject({
      amount: 5080,
      currency: 'EUR',
      language: 'FI',
      items: [
        { unitPrice: 1290, units: 2, vatPercentage: 13.5, productCode: '100234' },
        { unitPrice: 2500, units: 1, vatPercentage: 0, productCode: 'LAHJAKORTTI25' },
      ],
    });

    expect(await standIn.callback(created.transactionId, 'ok')).toBe(200);
    const expected: PaymentReturn = {
      status: 'ok',
      stamp: sent?.stamp ?? '',
      reference: '10016',
      transactionId: created.transactionId,
      amountCents: 5080,
      method: 'nordea',
    };
    expect(shop.received.map((r) => r.answer)).toEqual([expected]);
    expect(shop.received[0]?.query.tilaus).toBeUndefined();

    const redirect = new URL(standIn.redirectUrl(created.transactionId, 'ok'));
    expect(redirect.pathname).toBe('/kassa/maksettu');
    expect(redirect.searchParams.get('tilaus')).toBe('1001');
    expect(provider.parseReturn(Object.fromEntries(redirect.searchParams))).toEqual(expected);

    expect(await provider.status(refOf(created.transactionId))).toEqual(expected);
  });

  it('a cancelled payment comes to the cancel callback as fail', async () => {
    const created = await provider.start(request());
    expect(await standIn.callback(created.transactionId, 'fail')).toBe(200);
    expect(shop.received[0]?.answer).toMatchObject({ status: 'fail', amountCents: 5080 });
    expect(await provider.status(refOf(created.transactionId))).toMatchObject({ status: 'fail' });
  });

  it('a new payment reads as new until its return', async () => {
    const created = await provider.start(request());
    expect(await provider.status(refOf(created.transactionId))).toMatchObject({
      status: 'new',
      method: undefined,
    });
  });

  it('the same callback many times and out of order: each parsed the same, every time', async () => {
    const created = await provider.start(request());
    const id = created.transactionId;
    const ok = standIn.returnParams(id, 'ok');
    const pending = standIn.returnParams(id, 'pending');
    const fail = standIn.returnParams(id, 'fail');
    const order = [ok, pending, ok, fail, ok, pending, ok];
    const answers = order.map((params) => provider.parseReturn(params));
    expect(answers.map((a) => a.status)).toEqual([
      'ok',
      'pending',
      'ok',
      'fail',
      'ok',
      'pending',
      'ok',
    ]);
    expect(
      new Set(answers.filter((a) => a.status === 'ok').map((a) => JSON.stringify(a))).size,
    ).toBe(1);
    // Delivered for real, ten at once.
    const codes = await Promise.all(Array.from({ length: 10 }, () => standIn.callback(id, 'ok')));
    expect(codes).toEqual(Array(10).fill(200));
    expect(new Set(shop.received.map((r) => JSON.stringify(r.answer))).size).toBe(1);
  });

  it.each([
    ['checkout-amount', '1'],
    ['checkout-status', 'ok'],
    ['checkout-stamp', 'another-order'],
    ['checkout-transaction-id', '00000000-0000-0000-0000-000000000000'],
    ['checkout-account', '695861'],
  ])('a callback with %s tampered is refused', async (name, value) => {
    const created = await provider.start(request());
    const params = standIn.returnParams(created.transactionId, 'fail');
    params[name] = value;
    const answer = await fetch(`${shop.url}/cb?${new URLSearchParams(params)}`);
    expect(answer.status).toBe(403);
    expect(shop.received[0]?.answer).toBeInstanceOf(PaymentReturnRefused);
  });

  it('a callback signed with another secret or without a signature is refused', async () => {
    const created = await provider.start(request());
    const other = new PaytrailProvider({ account: '375917', secret: 'WRONG', apiUrl: standIn.url });
    const params = standIn.returnParams(created.transactionId, 'ok');
    expect(() => other.parseReturn(params)).toThrow(PaymentReturnRefused);
    const { signature: _, ...unsigned } = params;
    expect(() => provider.parseReturn(unsigned)).toThrow(PaymentReturnRefused);
  });

  it('an amount that is not the sum of the items is refused before any call', async () => {
    const calls = standIn.calls.length;
    await expect(provider.start(request({ amountCents: 5081 }))).rejects.toMatchObject({
      status: 400,
      errors: { amountCents: 'payment.amountMismatch' },
    });
    await expect(
      provider.start(
        request({
          items: [{ unitPriceCents: 5080, units: 1, vatPercentage: 13.55, productCode: 'x' }],
        }),
      ),
    ).rejects.toBeInstanceOf(Invalid);
    await expect(provider.start(request({ amountCents: 0, items: [] }))).rejects.toBeInstanceOf(
      Invalid,
    );
    expect(standIn.calls.length).toBe(calls);
  });

  it('the stand-in refuses a wrong secret with 401, and the provider reports it', async () => {
    const wrong = new PaytrailProvider({ account: '375917', secret: 'WRONG', apiUrl: standIn.url });
    await expect(wrong.start(request())).rejects.toBeInstanceOf(PaymentProviderFailed);
    expect(standIn.calls.at(-1)).toEqual({ method: 'POST', path: '/payments', status: 401 });
  });

  it('the stand-in refuses a replayed request (the same nonce) with 401', async () => {
    const captured: { url: string; init: RequestInit }[] = [];
    const recording = new PaytrailProvider({
      account: standIn.account,
      secret: standIn.secret,
      apiUrl: standIn.url,
      fetch: (url, init) => {
        captured.push({ url: String(url), init: init ?? {} });
        return fetch(url, init);
      },
    });
    await recording.start(request());
    const first = captured[0];
    if (!first) throw new Error('no request was made');
    const replay = await fetch(first.url, first.init);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ status: 'error' });
  });

  it('a reused stamp is refused by the stand-in', async () => {
    const once = request();
    await provider.start(once);
    await expect(provider.start(once)).rejects.toThrow(/Duplicate stamp/);
  });

  it('an answer whose signature or body was changed on the way is not believed', async () => {
    standIn.tamper.next = 'signature';
    await expect(provider.start(request())).rejects.toThrow(/signature/);
    standIn.tamper.next = 'body';
    await expect(provider.start(request())).rejects.toThrow(/signature/);
  });

  it('no answer within the time limit is a provider failure', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const slow = new PaytrailProvider({
      account: standIn.account,
      secret: standIn.secret,
      apiUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      timeoutMs: 200,
    });
    await expect(slow.start(request())).rejects.toBeInstanceOf(PaymentProviderFailed);
    silent.closeAllConnections();
    silent.close();
  });
});
