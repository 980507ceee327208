import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { Conflict } from '../../../server/errors.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { PaytrailProvider } from '../payment/paytrail.server.ts';
import {
  type PaytrailStandIn,
  startPaytrailStandIn,
} from '../payment/paytrail-stand-in.test-support.ts';
import { type PaymentProvider, PaymentProviderFailed } from '../payment/provider.ts';
import { testBank } from '../payment/providers.server.ts';
import type { TestBankTicket } from '../payment/testbank.server.ts';
import {
  orderLines,
  orderPayments,
  orderRefunds,
  orders,
  testBankPayments,
  testBankRefunds,
} from '../tables.ts';
import { createOrder } from './order-fixtures.test-support.ts';
import {
  EXPIRY_STATUS_RETRY_MS,
  expireUnpaidOrders,
  handlePaymentReturn,
} from './payment-returns.server.ts';
import { chargedLinesOf, jobPaymentDeps, paymentOfOrder } from './payments.server.ts';
import {
  REFUND_CALLBACK_PATH,
  refundOrder,
  refundsOfOrder,
  unitsCharge,
} from './refunds.server.ts';
import { openedOrder, paidAtTestBank, SHOP } from './refunds.test-support.ts';

/**
 * Refunds through the provider interface (decision 122), the status asked before an unpaid order
 * expires, and the lines' stored charges. Races between refunds are in refund-race.test.ts
 * (PostgreSQL).
 */

let t: TestApp;
let standIn: PaytrailStandIn;
let paytrail: PaytrailProvider;

beforeAll(async () => {
  t = await createTestApp();
  standIn = await startPaytrailStandIn();
  paytrail = new PaytrailProvider({
    account: standIn.account,
    secret: standIn.secret,
    apiUrl: standIn.url,
  });
}, 120_000);
afterAll(async () => {
  await standIn?.close();
  await t?.close();
});

const refundDeps = (provider: PaymentProvider = testBank(t.app)) => ({
  db: t.app.db,
  provider,
  shopUrl: SHOP,
});

async function orderRow(id: string) {
  const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error('no order');
  return row;
}

/** A fixture order paid through the Paytrail stand-in, its signed ok return applied. */
async function paidAtPaytrail() {
  const { deps, order } = await openedOrder(t, paytrail);
  const [payment] = [...standIn.payments.values()].filter(
    (p) => p.request.reference === String(order.number),
  );
  if (!payment) throw new Error('no stand-in payment');
  payment.status = 'ok';
  await handlePaymentReturn(deps, standIn.returnParams(payment.transactionId, 'ok'));
  return { order, transactionId: payment.transactionId };
}

describe('refundOrder with the test bank', () => {
  it('refunds part, then the rest; the bank keeps both; more than is left is refused', async () => {
    const order = await paidAtTestBank(t);
    const part = await refundOrder(refundDeps(), order.id, { amountCents: 1000 }, 'k1', 'staff-1');
    expect(part).toMatchObject({ status: 'ok', amountCents: 1000, actor: 'staff-1' });
    expect(part.transactionId).not.toBeNull();
    await expect(
      refundOrder(refundDeps(), order.id, { amountCents: 2891 }, 'k2', 'staff-1'),
    ).rejects.toBeInstanceOf(Conflict);
    const rest = await refundOrder(refundDeps(), order.id, { amountCents: 2890 }, 'k3', 'staff-2');
    expect(rest.status).toBe('ok');
    const [kept] = await t.app.db
      .select()
      .from(testBankPayments)
      .where(eq(testBankPayments.reference, String(order.number)));
    expect(kept?.refundedCents).toBe(3890);
    expect((await refundsOfOrder(t.app.db, order.id)).map((r) => r.amountCents)).toEqual([
      1000, 2890,
    ]);
    await expect(
      refundOrder(refundDeps(), order.id, { amountCents: 1 }, 'k4', 'staff-1'),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it('the same key again is the same refund: one row, one refund at the bank', async () => {
    const order = await paidAtTestBank(t);
    const first = await refundOrder(refundDeps(), order.id, { amountCents: 3890 }, 'same', 'a');
    const again = await refundOrder(refundDeps(), order.id, { amountCents: 3890 }, 'same', 'b');
    expect(again).toEqual(first);
    const atBank = await t.app.db
      .select()
      .from(testBankRefunds)
      .where(eq(testBankRefunds.refundStamp, first.id));
    expect(atBank).toHaveLength(1);
    expect(await refundsOfOrder(t.app.db, order.id)).toHaveLength(1);
  });

  it('refunds by lines at what they charged, unit by unit to the cent', async () => {
    const order = await paidAtTestBank(t);
    const lines = await chargedLinesOf(t.app.db, order);
    const a = lines.find((l) => l.code.startsWith('A'));
    if (!a) throw new Error('no line');
    // 30,00 less its 3,42 share of the coupon: 26,58 over 3 units (8,86 each).
    const one = await refundOrder(
      refundDeps(),
      order.id,
      { lines: [{ code: a.code, quantity: 1 }] },
      'l1',
      'staff',
    );
    expect(one.amountCents).toBe(unitsCharge(a, 0, 1));
    const two = await refundOrder(
      refundDeps(),
      order.id,
      { lines: [{ code: a.code, quantity: 2 }] },
      'l2',
      'staff',
    );
    expect(one.amountCents + two.amountCents).toBe(a.chargedCents);
    expect(two.lines).toEqual([{ code: a.code, quantity: 2 }]);
    await expect(
      refundOrder(refundDeps(), order.id, { lines: [{ code: a.code, quantity: 1 }] }, 'l3', 's'),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it('refuses an unpaid order, a bad ask and an order it does not know', async () => {
    const unpaid = await createOrder(t.app.db, { customerId: null });
    await expect(
      refundOrder(refundDeps(), unpaid.id, { amountCents: 100 }, 'k', 's'),
    ).rejects.toBeInstanceOf(Conflict);
    await expect(
      refundOrder(refundDeps(), unpaid.id, { amountCents: 0 }, 'k', 's'),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      refundOrder(refundDeps(), unpaid.id, { amountCents: 10 }, '', 's'),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      refundOrder(refundDeps(), crypto.randomUUID(), { amountCents: 10 }, 'k', 's'),
    ).rejects.toMatchObject({ status: 404 });
    expect(await refundsOfOrder(t.app.db, unpaid.id)).toEqual([]);
  });
});

describe('refundOrder with Paytrail (the stand-in)', () => {
  it('sends amount, stamp, reference and callback URLs; records the answer', async () => {
    const { order, transactionId } = await paidAtPaytrail();
    const refund = await refundOrder(
      refundDeps(paytrail),
      order.id,
      { amountCents: 1500 },
      'p1',
      'staff',
    );
    expect(refund.status).toBe('ok');
    const [sent] = standIn.refunds.get(transactionId) ?? [];
    expect(sent).toMatchObject({
      amount: 1500,
      refundStamp: refund.id,
      refundReference: String(order.number),
      callbackUrls: { success: new URL(REFUND_CALLBACK_PATH, SHOP).href },
    });
    expect(refund.transactionId).toBe(sent?.transactionId);
  });

  it('a pending answer is kept pending; a refusal is recorded as failed and frees the amount', async () => {
    const { order } = await paidAtPaytrail();
    standIn.refundAnswer.status = 'pending';
    try {
      const pending = await refundOrder(
        refundDeps(paytrail),
        order.id,
        { amountCents: 100 },
        'a',
        's',
      );
      expect(pending.status).toBe('pending');
    } finally {
      standIn.refundAnswer.status = 'ok';
    }
    // The stand-in refuses more than the payment has left (as Paytrail answers 400): here the
    // shop's own check is passed by making the payment look larger than it is.
    await t.app.db
      .update(orderPayments)
      .set({ amountCents: 999_999 })
      .where(eq(orderPayments.orderId, order.id));
    const refused = await refundOrder(
      refundDeps(paytrail),
      order.id,
      { amountCents: 5000 },
      'b',
      's',
    );
    expect(refused.status).toBe('fail');
  });

  it('a provider that does not answer leaves the refund requested; the same key sends it again once', async () => {
    const { order, transactionId } = await paidAtPaytrail();
    standIn.outage.down = true;
    try {
      await expect(
        refundOrder(refundDeps(paytrail), order.id, { amountCents: 3890 }, 'x', 's'),
      ).rejects.toBeInstanceOf(PaymentProviderFailed);
    } finally {
      standIn.outage.down = false;
    }
    const [requested] = await refundsOfOrder(t.app.db, order.id);
    expect(requested?.status).toBe('requested');
    // At once, the repeat does not resend (the first may still be on its way)…
    expect(
      await refundOrder(refundDeps(paytrail), order.id, { amountCents: 3890 }, 'x', 's'),
    ).toMatchObject({ status: 'requested' });
    // …later it does, with the same refund stamp.
    const later = { ...refundDeps(paytrail), now: () => new Date(Date.now() + 60_000) };
    const sent = await refundOrder(later, order.id, { amountCents: 3890 }, 'x', 's');
    expect(sent.status).toBe('ok');
    expect((standIn.refunds.get(transactionId) ?? []).map((r) => r.refundStamp)).toEqual([
      requested?.id,
    ]);
    // Nothing is left to refund.
    await expect(
      refundOrder(refundDeps(paytrail), order.id, { amountCents: 1 }, 'y', 's'),
    ).rejects.toBeInstanceOf(Conflict);
  });
});

describe('the status is asked before an unpaid order expires', () => {
  it('paid at the test bank but never returned: the expiry pays it once, with its mails', async () => {
    const { order, next } = await openedOrder(t);
    const bank = testBank(t.app);
    await bank.decide(
      bank.openTicket(new URL(next).searchParams.get('maksu')) as TestBankTicket,
      'ok',
    );
    await t.app.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));
    expect(await expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db))).toBe(0);
    expect(await expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db))).toBe(0);
    const row = await orderRow(order.id);
    expect(row.status).toBe('paid');
    expect(row.paidAt).not.toBeNull();
    const mails = await t.app.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `Tilausvahvistus ${order.number} %`));
    expect(mails).toHaveLength(1);
  });

  it('Paytrail says ok: paid; new: expired; away: kept for the retry window, then expired', async () => {
    const deps = () => jobPaymentDeps(t.app, t.app.db, paytrail);
    const paidOne = await openedOrder(t, paytrail);
    const newOne = await openedOrder(t, paytrail);
    const past = new Date(Date.now() - 1000);
    for (const o of [paidOne.order, newOne.order]) {
      await t.app.db.update(orders).set({ expiresAt: past }).where(eq(orders.id, o.id));
    }
    const atStandIn = (number: number) =>
      [...standIn.payments.values()].find((p) => p.request.reference === String(number));
    const paid = atStandIn(paidOne.order.number);
    if (!paid) throw new Error('no stand-in payment');
    paid.status = 'ok';
    paid.provider = 'nordea';
    await expireUnpaidOrders(deps(), new Date());
    expect((await orderRow(paidOne.order.id)).status).toBe('paid');
    expect((await orderRow(newOne.order.id)).status).toBe('expired');

    const third = await openedOrder(t, paytrail);
    await t.app.db.update(orders).set({ expiresAt: past }).where(eq(orders.id, third.order.id));
    standIn.outage.down = true;
    try {
      expect(await expireUnpaidOrders(deps(), new Date())).toBe(0);
      expect((await orderRow(third.order.id)).status).toBe('pending_payment');
      const after = new Date(past.getTime() + EXPIRY_STATUS_RETRY_MS + 1000);
      expect(await expireUnpaidOrders(deps(), after)).toBe(1);
      expect((await orderRow(third.order.id)).status).toBe('expired');
    } finally {
      standIn.outage.down = false;
    }
  });
});

describe("the lines' stored charges", () => {
  it('payment items read the stored charge, not a share derived again', async () => {
    const order = await createOrder(t.app.db, { customerId: null });
    const lines = await t.app.db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    // Stored shares 3,00 and 2,00 where the derivation would give 3,42 and 1,58.
    for (const line of lines) {
      await t.app.db
        .update(orderLines)
        .set({ chargedCents: line.linePriceCents - (line.code.startsWith('A') ? 300 : 200) })
        .where(eq(orderLines.code, line.code));
    }
    const payment = await paymentOfOrder(t.app.db, order);
    const byCode = (prefix: string) =>
      payment.items
        .filter((i) => i.productCode.startsWith(prefix))
        .reduce((s, i) => s + i.unitPriceCents * i.units, 0);
    expect(byCode('A')).toBe(2700);
    expect(byCode('B')).toBe(1190);
    expect(payment.amountCents).toBe(3890);
  });

  it('an order from before the stored charges derives them (the fallback)', async () => {
    const order = await createOrder(t.app.db, { customerId: null });
    const lines = await chargedLinesOf(t.app.db, order);
    expect(lines.map((l) => l.linePriceCents - l.chargedCents)).toEqual([342, 158]);
  });

  it('no refund row exists without an order (the foreign key)', async () => {
    await expect(
      t.app.db.insert(orderRefunds).values({
        orderId: crypto.randomUUID(),
        paymentStamp: 'none',
        provider: 'testbank',
        idempotencyKey: 'k',
        amountCents: 1,
        actor: 's',
      }),
    ).rejects.toThrow();
  });
});
