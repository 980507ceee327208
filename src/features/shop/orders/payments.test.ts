import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import type { PaymentProvider, PaymentRequest } from '../payment/provider.ts';
import { paymentProvider } from '../payment/providers.server.ts';
import { TEST_BANK_PATH } from '../payment/testbank.server.ts';
import { orderPayments } from '../tables.ts';
import { createCustomer, createOrder } from './order-fixtures.test-support.ts';
import {
  appPaymentDeps,
  confirmationUrl,
  type PaymentDeps,
  paymentOfOrder,
  startPayment,
} from './payments.server.ts';

/** Opening the payment of a placed order (decision 028). */

const SHOP = 'http://lihakauppa.localhost/';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function deps(provider?: PaymentProvider): PaymentDeps {
  return appPaymentDeps(t.app, SHOP, provider);
}

/** A provider that records its requests around the real test bank. */
function recording(fail = false) {
  const bank = paymentProvider(t.app);
  const requests: PaymentRequest[] = [];
  const provider: PaymentProvider = {
    id: bank.id,
    async start(request) {
      requests.push(request);
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (fail) throw new Error('provider down');
      return bank.start(request);
    },
    status: (payment) => bank.status(payment),
    refund: (request) => bank.refund(request),
    parseReturn: (query) => bank.parseReturn(query),
  };
  return { provider, requests };
}

describe('startPayment', () => {
  it('opens one attempt with the order items, return and callback URLs on the shop', async () => {
    const customer = await createCustomer(t.app.db);
    const order = await createOrder(t.app.db, { customerId: customer.id, withGiftCard: true });
    const { provider, requests } = recording();
    const { next } = await startPayment(deps(provider), order, 'FI54');
    expect(new URL(next).pathname).toBe(TEST_BANK_PATH);
    expect(requests).toHaveLength(1);
    const request = requests[0] as PaymentRequest;
    expect(request.amountCents).toBe(2890);
    expect(request.reference).toBe(String(order.number));
    expect(request.items.reduce((s, i) => s + i.unitPriceCents * i.units, 0)).toBe(2890);
    expect(
      request.items.every((i) => i.vatPercentage === 13.5 || i.productCode === 'lahjakortti'),
    ).toBe(true);
    expect(request.redirectUrls.success).toBe('http://lihakauppa.localhost/kassa/maksu/paluu');
    expect(request.callbackUrls?.success).toBe(
      'http://lihakauppa.localhost/api/v1/lihakauppa/payment/callback',
    );
    const attempts = await t.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, order.id));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.stamp).toBe(request.stamp);
    expect(attempts[0]?.amountCents).toBe(2890);
    expect(attempts[0]?.href).toBe(next);
  });

  it('the order discount is shared over the lines like the pricing does', async () => {
    const order = await createOrder(t.app.db, { customerId: null });
    const payment = await paymentOfOrder(t.app.db, order);
    expect(payment.amountCents).toBe(3890);
    // 5,00 over 30,00 and 13,90: 3,42 and 1,58.
    const byCode = (prefix: string) =>
      payment.items
        .filter((i) => i.productCode.startsWith(prefix))
        .reduce((s, i) => s + i.unitPriceCents * i.units, 0);
    expect(byCode('A')).toBe(3000 - 342);
    expect(byCode('B')).toBe(1390 - 158);
  });

  it('called again, or ten times at once, answers the open attempt: one payment', async () => {
    const order = await createOrder(t.app.db, { customerId: null });
    const { provider, requests } = recording();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => startPayment(deps(provider), order, 'FI50')),
    );
    const again = await startPayment(deps(provider), order, 'FI50');
    expect(new Set([...answers.map((a) => a.next), again.next]).size).toBe(1);
    expect(requests).toHaveLength(1);
    const attempts = await t.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, order.id));
    expect(attempts).toHaveLength(1);
  });

  it('a provider failure leaves the attempt marked error; the next start opens a new stamp', async () => {
    const order = await createOrder(t.app.db, { customerId: null });
    const failing = recording(true);
    await expect(startPayment(deps(failing.provider), order, 'FI50')).rejects.toThrow();
    const working = recording();
    await startPayment(deps(working.provider), order, 'FI50');
    const attempts = await t.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, order.id));
    expect(attempts.map((a) => a.status).sort()).toEqual(['error', 'new']);
    expect(working.requests[0]?.stamp).not.toBe(failing.requests[0]?.stamp);
  });

  it('a paid, cancelled or free order goes to its confirmation page without a payment', async () => {
    for (const status of ['paid', 'cancelled', 'expired'] as const) {
      const order = await createOrder(t.app.db, { customerId: null, status });
      const { provider, requests } = recording();
      expect(await startPayment(deps(provider), order, 'FI50')).toEqual({
        next: confirmationUrl(SHOP, order.id),
      });
      expect(requests).toEqual([]);
    }
  });
});
