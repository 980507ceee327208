import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testConfig } from '../../../../tests/helpers/app.ts';
import {
  type PaytrailStandIn,
  startPaytrailStandIn,
} from '../payment/paytrail-stand-in.test-support.ts';
import { paymentProvider } from '../payment/providers.server.ts';
import { orderRefunds } from '../tables.ts';
import { handlePaymentReturn } from './payment-returns.server.ts';
import { REFUND_CALLBACK_PATH, refundableCents, refundOrder } from './refunds.server.ts';
import { openedOrder, SHOP } from './refunds.test-support.ts';

/**
 * Paytrail's callback of a refund it answered `pending` (decision 141), on an app configured for
 * Paytrail against its stand-in: a signed `ok` or `fail` settles the refund once, a `fail` frees
 * its amount, and a callback whose signature, stamp or amount does not match changes nothing.
 */
let t: TestApp;
let standIn: PaytrailStandIn;

beforeAll(async () => {
  standIn = await startPaytrailStandIn();
  const base = testConfig();
  t = await createTestApp({
    config: {
      payment: {
        ...base.payment,
        provider: 'paytrail',
        paytrail: { account: standIn.account, secret: standIn.secret, apiUrl: standIn.url },
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

/** An order paid through the stand-in, and a refund of `cents` it answered `pending`. */
async function pendingRefund(cents: number, key: string) {
  const { deps, order } = await openedOrder(t, paymentProvider(t.app));
  const [payment] = [...standIn.payments.values()].filter(
    (p) => p.request.reference === String(order.number),
  );
  if (!payment) throw new Error('no stand-in payment');
  payment.status = 'ok';
  await handlePaymentReturn(deps, standIn.returnParams(payment.transactionId, 'ok'));
  standIn.refundAnswer.status = 'pending';
  try {
    const refund = await refundOrder(
      { db: t.app.db, provider: paymentProvider(t.app), shopUrl: SHOP },
      order.id,
      { amountCents: cents },
      key,
      'staff',
    );
    expect(refund.status).toBe('pending');
    return { order, refund };
  } finally {
    standIn.refundAnswer.status = 'ok';
  }
}

const call = (params: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `${REFUND_CALLBACK_PATH}?${new URLSearchParams(params)}`,
    headers: { host: 'lihakauppa.localhost' },
  });

async function statusOf(id: string) {
  const [row] = await t.app.db.select().from(orderRefunds).where(eq(orderRefunds.id, id));
  return row?.status;
}

describe('the refund callback', () => {
  it('settles a pending refund as ok once; repeats and a tampered call change nothing', async () => {
    const { refund } = await pendingRefund(1000, 'cb-ok');
    const params = standIn.refundCallbackParams(refund.id, 'ok');
    const tampered = await call({ ...params, 'checkout-amount': '999' });
    expect(tampered.statusCode).toBe(403);
    expect(await statusOf(refund.id)).toBe('pending');
    const first = await call(params);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await statusOf(refund.id)).toBe('ok');
    expect((await call(params)).statusCode).toBe(200);
    expect(await statusOf(refund.id)).toBe('ok');
    // A fail for the same refund afterwards is signed, but the refund stays ok.
    expect((await call(standIn.refundCallbackParams(refund.id, 'fail'))).statusCode).toBe(200);
    expect(await statusOf(refund.id)).toBe('ok');
  });

  it('records a failed refund and frees its amount; an unknown stamp is refused', async () => {
    const { order, refund } = await pendingRefund(1500, 'cb-fail');
    const left = await t.app.db.transaction((tx) => refundableCents(tx, order.id));
    expect((await call(standIn.refundCallbackParams(refund.id, 'fail'))).statusCode).toBe(200);
    expect(await statusOf(refund.id)).toBe('fail');
    expect(await t.app.db.transaction((tx) => refundableCents(tx, order.id))).toBe(left + 1500);
    const params = standIn.refundCallbackParams(refund.id, 'fail');
    const unknown = await call({ ...params, 'checkout-stamp': crypto.randomUUID() });
    expect(unknown.statusCode).toBe(403);
    // Not the shop's host: not found.
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: `${REFUND_CALLBACK_PATH}?${new URLSearchParams(params)}`,
      headers: { host: 'jyvabroiler.localhost' },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});
