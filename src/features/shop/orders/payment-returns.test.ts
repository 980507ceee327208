import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { arrive, type Visitor } from '../../../../tests/helpers/visitor.ts';
import { products } from '../../content/tables.ts';
import { mailOutbox } from '../../forms/tables.ts';
import {
  type PaytrailStandIn,
  startPaytrailStandIn,
} from '../payment/paytrail-stand-in.test-support.ts';
import { CART_API, cartSchema } from '../schemas.ts';
import { orderPayments, orders } from '../tables.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  HOST,
  held,
  order,
  pathOf,
  stockOf,
  testBank,
} from './checkout.test-support.ts';
import { expireUnpaidOrders } from './payment-returns.server.ts';
import { jobPaymentDeps, PAYMENT_CALLBACK_PATH } from './payments.server.ts';
import { orderAnswerSchema } from './schemas.ts';

/**
 * Payment of orders on PGlite (decision 028): whole payments with the test bank and through the
 * Paytrail stand-in, tampered and replayed returns, a cancelled payment, expiry, and who may see
 * a confirmation page. The concurrent callbacks are in payment-race.test.ts (PostgreSQL).
 */

let t: TestApp;
const SHOP_EMAIL = 'tilaukset@kattaus.localhost';

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { weeklyQuantity: 50 });
  // Enough for every test's order; each test compares the stock before and after.
  await t.app.db.update(products).set({ stock: 100 }).where(eq(products.code, CODES.stocked));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function mailsOf(orderNumber: number) {
  return t.app.db
    .select({ recipients: mailOutbox.recipients, subject: mailOutbox.subject })
    .from(mailOutbox)
    .where(like(mailOutbox.subject, `%${orderNumber}%`));
}

async function orderRow(id: string) {
  const [row] = await t.app.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error('no order');
  return row;
}

/** A logged-in buyer's order of 2 stocked and 1 plain product; answers the order's answer. */
async function placed(v?: Visitor) {
  const shopper = v ?? (await buyer(t.app));
  await addToCart(shopper, CODES.stocked, 2);
  await addToCart(shopper, CODES.plain, 1);
  const res = await order(shopper, await held(shopper));
  expect(res.statusCode, res.body).toBe(200);
  return { shopper, answer: orderAnswerSchema.parse(res.json()) };
}

describe('a whole payment with the test bank', () => {
  it('approve: paid once, two mails, the confirmation page; replays change nothing', async () => {
    const stockBefore = await stockOf(t.app.db, CODES.stocked);
    const { shopper, answer } = await placed();
    expect(answer.status).toBe('pending_payment');
    expect(await stockOf(t.app.db, CODES.stocked)).toBe((stockBefore ?? 0) - 2);
    const back = await testBank(shopper, answer.next, 'ok');
    expect(new URL(back).pathname).toBe('/kassa/maksu/paluu');

    const ret = await shopper.get(pathOf(back));
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(`/kassa/vahvistus?tilaus=${answer.orderId}`);
    const paid = await orderRow(answer.orderId);
    expect(paid.status).toBe('paid');
    expect(paid.paidAt).not.toBeNull();
    expect(paid.paymentMethodCode).toBe('FI50');

    // The same return again, and as a callback: nothing more.
    expect((await shopper.get(pathOf(back))).statusCode).toBe(303);
    const callback = await t.app.inject({
      method: 'GET',
      url: `${PAYMENT_CALLBACK_PATH}${new URL(back).search}`,
      headers: { host: HOST },
    });
    expect(callback.statusCode, callback.body).toBe(200);
    expect(callback.json()).toEqual({ received: true });
    const mails = await mailsOf(answer.orderNumber);
    expect(mails.map((m) => m.recipients).sort()).toEqual([paid.email, SHOP_EMAIL].sort());
    expect((await orderRow(answer.orderId)).paidAt).toEqual(paid.paidAt);

    const page = await shopper.get(`/kassa/vahvistus?tilaus=${answer.orderId}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<meta name="robots" content="noindex"/>');
    expect(page.body).toContain(String(answer.orderNumber));
    expect(page.body).toContain('Maksettu');
    expect(page.body).toContain('Varastotuote');
    expect(page.body).toContain('data-name="shop-purchase"');
    const props = /data-name="shop-purchase"[^>]*data-props="([^"]*)"/.exec(page.body)?.[1];
    const purchase = JSON.parse((props ?? '{}').replaceAll('&quot;', '"')).purchase;
    expect(purchase).toMatchObject({
      transaction_id: String(answer.orderNumber),
      currency: 'EUR',
      value: (2 * 700 + 500) / 100,
      payment_type: 'card payment',
    });
    expect(purchase.items).toHaveLength(2);
  });

  it('cancel: the order is cancelled, what it took is given back once, the lines are back in the cart', async () => {
    const stockBefore = await stockOf(t.app.db, CODES.stocked);
    const { shopper, answer } = await placed();
    const back = await testBank(shopper, answer.next, 'fail');
    const ret = await shopper.get(pathOf(back));
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe('/kassa?postinumero=00100&maksu=peruttu#maksu');
    expect((await orderRow(answer.orderId)).status).toBe('cancelled');
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);
    // Again, and as a callback: released once only.
    await shopper.get(pathOf(back));
    await t.app.inject({
      method: 'GET',
      url: `${PAYMENT_CALLBACK_PATH}${new URL(back).search}`,
      headers: { host: HOST },
    });
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);
    const cart = cartSchema.parse((await shopper.get(`${CART_API}/load?language=fi`)).json());
    expect(Object.fromEntries(cart.lineItems.map((l) => [l.code, l.quantity]))).toEqual({
      [CODES.stocked]: 2,
      [CODES.plain]: 1,
    });
    expect(await mailsOf(answer.orderNumber)).toEqual([]);
    const page = await shopper.get(`/kassa/vahvistus?tilaus=${answer.orderId}`);
    expect(page.body).toContain('Peruttu');
  });

  it('a tampered return is refused (403) and changes nothing', async () => {
    const { shopper, answer } = await placed();
    const back = new URL(await testBank(shopper, answer.next, 'ok'));
    const amount = Number(back.searchParams.get('checkout-amount'));
    back.searchParams.set('checkout-amount', String(amount - 100));
    const page = await shopper.get(pathOf(back.href));
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('Maksun paluutietoja ei voitu tarkistaa');
    const callback = await t.app.inject({
      method: 'GET',
      url: `${PAYMENT_CALLBACK_PATH}${back.search}`,
      headers: { host: HOST },
    });
    expect(callback.statusCode).toBe(403);
    expect(callback.headers['content-type']).toContain('application/problem+json');
    back.searchParams.set('checkout-amount', String(amount));
    back.searchParams.set('checkout-status', 'fail');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `${PAYMENT_CALLBACK_PATH}${back.search}`,
          headers: { host: HOST },
        })
      ).statusCode,
    ).toBe(403);
    expect((await orderRow(answer.orderId)).status).toBe('pending_payment');
    expect(await mailsOf(answer.orderNumber)).toEqual([]);
  });

  it('a second start of the same order answers the same payment page', async () => {
    const shopper = await buyer(t.app);
    await addToCart(shopper, CODES.plain, 2);
    const checkoutId = await held(shopper);
    const first = orderAnswerSchema.parse((await order(shopper, checkoutId)).json());
    const second = orderAnswerSchema.parse((await order(shopper, checkoutId)).json());
    expect(second.orderId).toBe(first.orderId);
    expect(second.next).toBe(first.next);
    const attempts = await t.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, first.orderId));
    expect(attempts).toHaveLength(1);
  });
});

describe('expiry', () => {
  it('an unpaid order past its time expires and gives back once; a late ok is flagged to the shop', async () => {
    const stockBefore = await stockOf(t.app.db, CODES.stocked);
    const { shopper, answer } = await placed();
    await t.app.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, answer.orderId));
    const first = await expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db));
    expect(first).toBeGreaterThanOrEqual(1);
    expect(await expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db))).toBe(0);
    expect((await orderRow(answer.orderId)).status).toBe('expired');
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);

    // The shopper pays after all (the bank learns it after the expiry asked): recorded and mailed
    // to the shop, never sold again.
    const back = await testBank(shopper, answer.next, 'ok');
    const ret = await shopper.get(pathOf(back));
    expect(ret.statusCode).toBe(303);
    expect(ret.headers.location).toBe(`/kassa/vahvistus?tilaus=${answer.orderId}`);
    await shopper.get(pathOf(back));
    const row = await orderRow(answer.orderId);
    expect(row.status).toBe('expired');
    expect(row.paidAt).toBeNull();
    expect(await stockOf(t.app.db, CODES.stocked)).toBe(stockBefore);
    const [attempt] = await t.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, answer.orderId));
    expect(attempt?.status).toBe('ok');
    const mails = await mailsOf(answer.orderNumber);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.recipients).toBe(SHOP_EMAIL);
    expect(mails[0]?.subject).toContain('myöhässä');
    const page = await shopper.get(`/kassa/vahvistus?tilaus=${answer.orderId}`);
    expect(page.body).toContain('Vanhentunut');
  });

  it('an order whose time has not run out stays', async () => {
    const { answer } = await placed();
    await expireUnpaidOrders(jobPaymentDeps(t.app, t.app.db));
    expect((await orderRow(answer.orderId)).status).toBe('pending_payment');
  });
});

describe('the confirmation page', () => {
  it("only the order's customer sees it: 404 for another customer, a visitor, a bad id", async () => {
    const { shopper, answer } = await placed();
    const url = `/kassa/vahvistus?tilaus=${answer.orderId}`;
    expect((await shopper.get(url)).statusCode).toBe(200);
    expect((await shopper.get(url)).body).toContain('Odottaa maksua');
    const other = await buyer(t.app);
    expect((await other.get(url)).statusCode).toBe(404);
    const visitor = await arrive(t.app, '/', { host: HOST });
    expect((await visitor.get(url)).statusCode).toBe(404);
    expect((await shopper.get('/kassa/vahvistus?tilaus=nonsense')).statusCode).toBe(404);
    expect((await shopper.get('/kassa/vahvistus')).statusCode).toBe(404);
    // Not on another site.
    const brand = await t.app.inject({
      method: 'GET',
      url,
      headers: { host: 'sibylla.localhost' },
    });
    expect(brand.statusCode).toBe(404);
  });

  it('the session that placed it sees it (orders.session_id), also without the customer', async () => {
    const { shopper, answer } = await placed();
    await t.app.db
      .update(orders)
      .set({ customerId: null })
      .where(and(eq(orders.id, answer.orderId)));
    expect((await shopper.get(`/kassa/vahvistus?tilaus=${answer.orderId}`)).statusCode).toBe(200);
  });
});

describe("'Oma tili'", () => {
  it("lists the customer's orders with their status and a link to the confirmation", async () => {
    const { shopper, answer } = await placed();
    const page = await shopper.get('/oma-tili');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="/kassa/vahvistus?tilaus=${answer.orderId}"`);
    expect(page.body).toContain(`>${answer.orderNumber}</a>`);
    expect(page.body).toContain('Odottaa maksua');
    expect(page.body).toContain('19,00 €');
    expect(page.body).not.toContain('Sinulla ei ole vielä tilauksia.');
    const other = await buyer(t.app);
    const empty = await other.get('/oma-tili');
    expect(empty.body).toContain('Sinulla ei ole vielä tilauksia.');
    expect(empty.body).not.toContain(answer.orderId);
  });
});

describe('a whole payment through the Paytrail stand-in', () => {
  let standIn: PaytrailStandIn;
  let p: TestApp;

  beforeAll(async () => {
    standIn = await startPaytrailStandIn();
    p = await createTestApp({
      config: {
        payment: {
          provider: 'paytrail',
          paytrail: { account: standIn.account, secret: standIn.secret, apiUrl: standIn.url },
          shopOrderEmail: SHOP_EMAIL,
        },
      },
    });
    await createCheckoutShop(p.app.db, { weeklyQuantity: 50 });
  }, 120_000);
  afterAll(async () => {
    await p?.close();
    await standIn?.close();
  });

  it('signed request, signed callbacks: paid once whatever comes again or in another order', async () => {
    const shopper = await buyer(p.app);
    await addToCart(shopper, CODES.stocked, 1);
    await addToCart(shopper, CODES.plain, 3);
    const res = await order(shopper, await held(shopper), 'FI54');
    expect(res.statusCode, res.body).toBe(200);
    const answer = orderAnswerSchema.parse(res.json());
    const transactionId = answer.next.split('/pay/')[1] ?? '';
    const payment = standIn.payments.get(transactionId);
    expect(payment?.request.amount).toBe(700 + 3 * 500);
    expect(payment?.request.reference).toBe(String(answer.orderNumber));
    expect(new URL(payment?.request.callbackUrls?.success ?? '').pathname).toBe(
      PAYMENT_CALLBACK_PATH,
    );
    expect(standIn.calls.at(-1)).toMatchObject({ method: 'POST', path: '/payments', status: 201 });

    /** Delivers the stand-in's signed callback to the callback URL it was given. */
    const callback = (status: 'ok' | 'fail' | 'pending') => {
      const target = new URL(payment?.request.callbackUrls?.success ?? '');
      for (const [k, v] of Object.entries(standIn.returnParams(transactionId, status))) {
        target.searchParams.set(k, v);
      }
      return p.app.inject({ method: 'GET', url: pathOf(target.href), headers: { host: HOST } });
    };
    expect((await callback('pending')).statusCode).toBe(200);
    expect(
      (await p.app.db.select().from(orders).where(eq(orders.id, answer.orderId)))[0]?.status,
    ).toBe('pending_payment');
    for (let i = 0; i < 3; i++) expect((await callback('ok')).statusCode).toBe(200);
    // A fail after the ok undoes nothing.
    expect((await callback('fail')).statusCode).toBe(200);
    const redirect = await shopper.get(pathOf(standIn.redirectUrl(transactionId, 'ok')));
    expect(redirect.statusCode).toBe(303);
    expect(redirect.headers.location).toBe(`/kassa/vahvistus?tilaus=${answer.orderId}`);

    const [row] = await p.app.db.select().from(orders).where(eq(orders.id, answer.orderId));
    expect(row?.status).toBe('paid');
    const mails = await p.app.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.subject, `%${answer.orderNumber}%`));
    expect(mails).toHaveLength(2);
    const [attempt] = await p.app.db
      .select()
      .from(orderPayments)
      .where(eq(orderPayments.orderId, answer.orderId));
    expect(attempt).toMatchObject({ status: 'ok', method: 'nordea', transactionId });

    // A callback signed with another secret is refused.
    const forged = new URL(payment?.request.callbackUrls?.success ?? '');
    for (const [k, v] of Object.entries(standIn.returnParams(transactionId, 'ok'))) {
      forged.searchParams.set(k, v);
    }
    forged.searchParams.set('signature', '0'.repeat(64));
    const refused = await p.app.inject({
      method: 'GET',
      url: pathOf(forged.href),
      headers: { host: HOST },
    });
    expect(refused.statusCode).toBe(403);
  });
});
