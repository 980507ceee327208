import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import {
  expectChargedAsShown,
  type ShownTotals,
  shownTotals,
} from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { type PaymentProvider, PaymentProviderFailed } from '../payment/provider.ts';
import { paymentProvider } from '../payment/providers.server.ts';
import { TEST_BANK_PATH } from '../payment/testbank.server.ts';
import { centsOfMoney } from '../schemas.ts';
import { carts, customers, orders } from '../tables.ts';
import { checkOut } from './check-out.server.ts';
import {
  addToCart,
  buyer,
  CODES,
  createCheckoutShop,
  emailOf,
  held,
} from './checkout.test-support.ts';
import { appPaymentDeps, confirmationUrl, type PaymentDeps } from './payments.server.ts';

/** checkOut: the one sequence of the checkout page's purchase post and the JSON order route. */

const SHOP = 'http://lihakauppa.localhost/';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await createCheckoutShop(t.app.db, { slotCapacity: 1000 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function deps(provider?: PaymentProvider): PaymentDeps {
  return appPaymentDeps(t.app, SHOP, provider);
}

/**
 * The use case's input for a buyer's held cart, confirmed with the totals its checkout shows
 * (`shown`, which every placed order is checked against).
 */
async function inputOf(v: Visitor, checkoutId: string, shown: ShownTotals) {
  const [row] = await t.app.db
    .select({ customerId: customers.id, sessionId: carts.sessionId })
    .from(customers)
    .innerJoin(carts, and(eq(carts.customerId, customers.id), eq(carts.siteId, SHOP_SITE_ID)))
    .where(eq(customers.email, emailOf.get(v) ?? ''));
  if (!row?.sessionId) throw new Error('no cart of the buyer');
  return {
    siteId: SHOP_SITE_ID,
    lang: 'fi' as const,
    sessionId: row.sessionId,
    customerId: row.customerId,
    checkoutId,
    paymentMethodCode: 'FI50',
    confirmed: {
      totalCents: centsOfMoney(shown.total) ?? 0,
      usedGiftCardCents: centsOfMoney(shown.usedGiftCardAmount) ?? 0,
    },
  };
}

describe('checkOut', () => {
  it('places the order and opens its payment; a repeated submit answers the same order', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain, 2);
    const checkoutId = await held(v);
    const shown = await shownTotals(v);
    const input = await inputOf(v, checkoutId, shown);
    const first = await checkOut(deps(), input);
    await expectChargedAsShown(t.app.db, first.order.id, shown);
    expect(first.created).toBe(true);
    expect(first.paymentError).toBeUndefined();
    expect(first.order.status).toBe('pending_payment');
    expect(new URL(first.next).pathname).toBe(TEST_BANK_PATH);
    const again = await checkOut(deps(), input);
    expect(again.created).toBe(false);
    expect(again.order.id).toBe(first.order.id);
    expect(again.next).toBe(first.next);
  });

  it('leaves the order standing when the payment cannot be opened and answers its confirmation page', async () => {
    const v = await buyer(t.app);
    await addToCart(v, CODES.plain);
    const checkoutId = await held(v);
    const shown = await shownTotals(v);
    const input = await inputOf(v, checkoutId, shown);
    const bank = paymentProvider(t.app);
    const down: PaymentProvider = {
      id: bank.id,
      start: async () => {
        throw new PaymentProviderFailed('provider down');
      },
      status: (payment) => bank.status(payment),
      refund: (request) => bank.refund(request),
      parseReturn: (query) => bank.parseReturn(query),
    };
    const answer = await checkOut(deps(down), input);
    await expectChargedAsShown(t.app.db, answer.order.id, shown);
    expect(answer.paymentError?.status).toBe(502);
    expect(answer.next).toBe(confirmationUrl(SHOP, answer.order.id));
    const [row] = await t.app.db.select().from(orders).where(eq(orders.id, answer.order.id));
    expect(row?.status).toBe('pending_payment');
  });
});
