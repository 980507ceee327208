import type { Config } from '../../../server/config.ts';
import { PaytrailProvider } from './paytrail.server.ts';
import type { PaymentProvider } from './provider.ts';
import { TestBankProvider, testBankSecret } from './testbank.server.ts';

/**
 * The configured payment provider (`PAYMENT_PROVIDER`, decision 024): the built-in test bank, or
 * Paytrail with the merchant's account and secret (start-up refuses `paytrail` without them).
 */
export function paymentProvider(
  config: Config,
  options: { fetch?: typeof fetch } = {},
): PaymentProvider {
  const paytrail = config.payment.paytrail;
  if (config.payment.provider === 'paytrail' && paytrail) {
    return new PaytrailProvider({ ...paytrail, ...options });
  }
  return testBank(config);
}

/** The test bank of this server: its key derives from the server secret. */
export function testBank(config: Config): TestBankProvider {
  return new TestBankProvider(testBankSecret(config.sessionSecret));
}
