import { describe, expect, it } from 'vitest';
import { verifyCheckoutReturn } from './paytrail-returns.ts';
import { PaymentReturnRefused } from './provider.ts';
import { calculateSignature, signatureMatches, signaturePayload } from './signing.ts';

/** Paytrail's test merchant (Payment API documentation, "Test credentials"). */
const ACCOUNT = '375917';
const SECRET = 'SAIPPUAKAUPPIAS';

/**
 * The body of the documentation's HMAC examples, with its keys in the documented order: the
 * signature covers the body exactly as sent, so the order of the keys is part of the vector.
 */
function documentedBody(stamp: string) {
  return JSON.stringify({
    stamp,
    reference: '3759170',
    amount: 1525,
    currency: 'EUR',
    language: 'FI',
    items: [
      {
        unitPrice: 1525,
        units: 1,
        vatPercentage: 24,
        productCode: '#1234',
        deliveryDate: '2018-09-01',
      },
    ],
    customer: { email: 'test.customer@example.com' },
    redirectUrls: {
      success: 'https://ecom.example.com/cart/success',
      cancel: 'https://ecom.example.com/cart/cancel',
    },
  });
}

describe("Paytrail's signature test vectors", () => {
  it('the minimal example (account, algorithm and method headers only)', () => {
    const headers = {
      'checkout-account': ACCOUNT,
      'checkout-algorithm': 'sha256',
      'checkout-method': 'POST',
    };
    expect(
      calculateSignature(SECRET, headers, documentedBody('should-be-unique-for-merchant')),
    ).toBe('84b454005a4f087076ad86cee8b4a646b18982998de7221db57646743cda7b81');
  });

  it('the documentation example with nonce and timestamp, the headers given in any order', () => {
    const headers = {
      'checkout-timestamp': '2018-07-06T10:01:31.904Z',
      'checkout-nonce': '564635208570151',
      'checkout-method': 'POST',
      'checkout-algorithm': 'sha256',
      'checkout-account': ACCOUNT,
      // Not a checkout- header: not signed.
      'content-type': 'application/json; charset=utf-8',
    };
    expect(
      calculateSignature(SECRET, headers, documentedBody('unique-identifier-for-merchant')),
    ).toBe('3708f6497ae7cc55a2e6009fc90aa10c3ad0ef125260ee91b19168750f6d74f6');
  });

  it('the GET example with a transaction id and no body (the payload ends in an empty line)', () => {
    const headers = {
      'checkout-account': ACCOUNT,
      'checkout-algorithm': 'sha256',
      'checkout-method': 'GET',
      'checkout-timestamp': '2019-11-01T08:48:50.832Z',
      'checkout-transaction-id': '681538c4-fc84-11e9-83bc-2ffcef4c3453',
      'checkout-nonce': '87ac41e1-e6e6-4789-b8e0-c83930cfc447',
    };
    expect(signaturePayload(headers).endsWith('\n')).toBe(true);
    expect(calculateSignature(SECRET, headers)).toBe(
      '4d84e3aedaa847b23e672ff3bc9c57ae5d1c1e84aec251ce39914eaf250bb8b2',
    );
  });

  const documentedRedirect =
    'checkout-account=375917&checkout-algorithm=sha256&checkout-amount=2964&checkout-stamp=15336332710015&checkout-reference=192387192837195&checkout-transaction-id=4b300af6-9a22-11e8-9184-abb6de7fd2d0&checkout-status=ok&checkout-provider=nordea&signature=b2d3ecdda2c04563a4638fcade3d4e77dfdc58829b429ad2c2cb422d0fc64080';

  it("the documentation's redirect URL verifies and reads as a paid payment", () => {
    const query = Object.fromEntries(new URLSearchParams(documentedRedirect));
    expect(verifyCheckoutReturn(SECRET, ACCOUNT, query)).toEqual({
      status: 'ok',
      stamp: '15336332710015',
      reference: '192387192837195',
      transactionId: '4b300af6-9a22-11e8-9184-abb6de7fd2d0',
      amountCents: 2964,
      method: 'nordea',
    });
  });

  it.each([
    ['checkout-amount', '2965'],
    ['checkout-status', 'fail'],
    ['checkout-stamp', '15336332710016'],
    ['checkout-transaction-id', '4b300af6-9a22-11e8-9184-abb6de7fd2d1'],
    ['checkout-provider', 'osuuspankki'],
    ['checkout-new-field', 'anything'],
    ['signature', 'b2d3ecdda2c04563a4638fcade3d4e77dfdc58829b429ad2c2cb422d0fc64081'],
    ['signature', 'b2d3'],
    ['signature', ''],
  ])('a redirect with %s changed to %j is refused', (name, value) => {
    const query = Object.fromEntries(new URLSearchParams(documentedRedirect));
    query[name] = value;
    expect(() => verifyCheckoutReturn(SECRET, ACCOUNT, query)).toThrow(PaymentReturnRefused);
  });

  it('a redirect without a signature, with a repeated parameter, another secret or account is refused', () => {
    const query: Record<string, unknown> = Object.fromEntries(
      new URLSearchParams(documentedRedirect),
    );
    const { signature: _, ...unsigned } = query;
    expect(() => verifyCheckoutReturn(SECRET, ACCOUNT, unsigned)).toThrow(PaymentReturnRefused);
    expect(() =>
      verifyCheckoutReturn(SECRET, ACCOUNT, { ...query, 'checkout-status': ['ok', 'fail'] }),
    ).toThrow(PaymentReturnRefused);
    expect(() => verifyCheckoutReturn('ANOTHER-SECRET', ACCOUNT, query)).toThrow(
      PaymentReturnRefused,
    );
    expect(() => verifyCheckoutReturn(SECRET, '695861', query)).toThrow(PaymentReturnRefused);
  });

  it('a parameter not starting with checkout- is not signed, so it may be added', () => {
    const query = Object.fromEntries(new URLSearchParams(documentedRedirect));
    expect(verifyCheckoutReturn(SECRET, ACCOUNT, { ...query, utm_source: 'x' }).status).toBe('ok');
    expect(verifyCheckoutReturn(SECRET, ACCOUNT, { ...query, tilaus: ['1', '2'] }).status).toBe(
      'ok',
    );
  });

  it('signatureMatches compares whole values only', () => {
    const headers = { 'checkout-account': ACCOUNT };
    const good = calculateSignature(SECRET, headers, 'body');
    expect(signatureMatches(SECRET, headers, 'body', good)).toBe(true);
    expect(signatureMatches(SECRET, headers, 'body', good.toUpperCase())).toBe(false);
    expect(signatureMatches(SECRET, headers, 'body', `${good}0`)).toBe(false);
    expect(signatureMatches(SECRET, headers, 'body', undefined)).toBe(false);
    expect(signatureMatches(SECRET, headers, 'body ', good)).toBe(false);
  });
});
