import { z } from 'zod';
import { PAYMENT_STATUSES, type PaymentReturn, PaymentReturnRefused } from './provider.ts';
import { isSignatureAlgorithm, signatureMatches } from './signing.ts';

/**
 * Paytrail's redirects and callbacks (decision 024): `checkout-` query parameters signed with
 * the merchant secret. The built-in test bank signs its redirects the same way, so both
 * providers parse their returns here.
 */

const returnFieldsSchema = z.object({
  'checkout-amount': z
    .string()
    .regex(/^\d{1,8}$/)
    .transform(Number),
  'checkout-stamp': z.string().min(1).max(200),
  'checkout-reference': z.string().min(1).max(200),
  'checkout-transaction-id': z.string().min(1).max(200),
  'checkout-status': z.enum(PAYMENT_STATUSES),
  'checkout-provider': z.string().max(100).optional(),
});

/**
 * Verifies a redirect's or callback's query the way Paytrail documents it: the HMAC over every
 * `checkout-` parameter (whatever their names: new ones may appear) and an empty body, with the
 * algorithm `checkout-algorithm` names, equal to `signature`; then `checkout-account` must be ours.
 * A repeated parameter is refused rather than guessed at.
 */
export function verifyCheckoutReturn(
  secret: string,
  account: string,
  query: Record<string, unknown>,
): PaymentReturn {
  // Only the signed parameters and the signature count; the shop's own (`?tilaus=`) are left out.
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!name.toLowerCase().startsWith('checkout-') && name !== 'signature') continue;
    if (typeof value !== 'string') {
      throw new PaymentReturnRefused(`Parameter ${name} is not one value.`);
    }
    params[name] = value;
  }
  const algorithm = params['checkout-algorithm'];
  if (!isSignatureAlgorithm(algorithm))
    throw new PaymentReturnRefused('Unknown signature algorithm.');
  if (!signatureMatches(secret, params, '', params.signature, algorithm)) {
    throw new PaymentReturnRefused('The signature does not match.');
  }
  if (params['checkout-account'] !== account) throw new PaymentReturnRefused('Another account.');
  const fields = returnFieldsSchema.safeParse(params);
  if (!fields.success) throw new PaymentReturnRefused('Signed, but the fields are not valid.');
  const f = fields.data;
  return {
    status: f['checkout-status'],
    stamp: f['checkout-stamp'],
    reference: f['checkout-reference'],
    transactionId: f['checkout-transaction-id'],
    amountCents: f['checkout-amount'],
    method: f['checkout-provider'],
  };
}
