import type { TestApp } from '../../../../tests/helpers/app.ts';
import type { PaymentProvider } from '../payment/provider.ts';
import { testBank } from '../payment/providers.server.ts';
import type { TestBankTicket } from '../payment/testbank.server.ts';
import { createOrder } from './order-fixtures.test-support.ts';
import { handlePaymentReturn } from './payment-returns.server.ts';
import { appPaymentDeps, type OrderRow, startPayment } from './payments.server.ts';

export const SHOP = 'http://lihakauppa.localhost/';

/**
 * An order of 38,90 € (the fixture's: 3 × 10,00 and 2 × 6,95 less 5,00) whose payment was opened
 * at `provider` (the app's test bank by default); `pay` makes the provider take it and applies its
 * signed return, as the shopper's way back would.
 */
export async function openedOrder(t: TestApp, provider?: PaymentProvider) {
  const deps = appPaymentDeps(t.app, SHOP, provider);
  const order = await createOrder(t.app.db, { customerId: null });
  const { next } = await startPayment(deps, order, 'FI50');
  return { deps, order, next };
}

/** A fixture order paid at the app's test bank, its page pressed and its return applied. */
export async function paidAtTestBank(t: TestApp): Promise<OrderRow> {
  const { deps, order, next } = await openedOrder(t);
  const bank = testBank(t.app);
  const ticket = bank.openTicket(new URL(next).searchParams.get('maksu')) as TestBankTicket;
  await bank.decide(ticket, 'ok');
  const back = new URL(bank.returnUrl(ticket, 'ok'));
  const { order: paid } = await handlePaymentReturn(deps, Object.fromEntries(back.searchParams));
  if (paid.status !== 'paid') throw new Error('not paid');
  return order;
}
