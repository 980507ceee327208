import type { Database } from '../../../db/client.ts';
import type { Config } from '../../../server/config.ts';
import { PaytrailProvider } from './paytrail.server.ts';
import type { PaymentProvider } from './provider.ts';
import { TestBankProvider, testBankSecret } from './testbank.server.ts';

/**
 * The configured payment provider (`PAYMENT_PROVIDER`, decision 024): the built-in test bank, or
 * Paytrail with the merchant's account and secret (start-up refuses `paytrail` without them).
 */
export function paymentProvider(
  app: { config: Config; db: Database },
  options: { fetch?: typeof fetch } = {},
): PaymentProvider {
  const paytrail = app.config.payment.paytrail;
  if (app.config.payment.provider === 'paytrail' && paytrail) {
    return new PaytrailProvider({ ...paytrail, ...options });
  }
  return testBank(app);
}

/** The test bank of this server: its key derives from the server secret; it keeps its payments in the database. */
export function testBank(app: { config: Config; db: Database }): TestBankProvider {
  return new TestBankProvider(testBankSecret(app.config.sessionSecret), app.db);
}
