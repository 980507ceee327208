import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Paytrail's signature (Payment API, "Authentication"): HMAC over every `checkout-` header or
 * query parameter, lower-case names sorted alphabetically, each as `name:value` on its own line,
 * then the body exactly as sent (an empty string when there is none), joined with line feeds.
 * The same scheme signs requests, responses, redirects and callbacks, and the test bank's
 * returns (decision 024), so the order code checks every provider's answer the same way.
 */

export const SIGNATURE_ALGORITHMS = ['sha256', 'sha512'] as const;
export type SignatureAlgorithm = (typeof SIGNATURE_ALGORITHMS)[number];

const CHECKOUT_PREFIX = 'checkout-';

export function isSignatureAlgorithm(value: unknown): value is SignatureAlgorithm {
  return SIGNATURE_ALGORITHMS.includes(value as SignatureAlgorithm);
}

/** The `checkout-` entries of headers or query parameters, names lower-cased. */
export function checkoutEntries(params: Record<string, string>): [string, string][] {
  return Object.entries(params)
    .map(([name, value]): [string, string] => [name.toLowerCase(), value])
    .filter(([name]) => name.startsWith(CHECKOUT_PREFIX))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The text the HMAC is computed over. */
export function signaturePayload(params: Record<string, string>, body = ''): string {
  return [...checkoutEntries(params).map(([name, value]) => `${name}:${value}`), body].join('\n');
}

/** The hexadecimal HMAC of `params`' `checkout-` entries and `body`. */
export function calculateSignature(
  secret: string,
  params: Record<string, string>,
  body = '',
  algorithm: SignatureAlgorithm = 'sha256',
): string {
  return createHmac(algorithm, secret).update(signaturePayload(params, body)).digest('hex');
}

/**
 * Whether `given` is the signature of `params` and `body`, compared in constant time. A value of
 * another length (or not a string) is refused before comparing: the length is no secret.
 */
export function signatureMatches(
  secret: string,
  params: Record<string, string>,
  body: string,
  given: unknown,
  algorithm: SignatureAlgorithm = 'sha256',
): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(calculateSignature(secret, params, body, algorithm), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
