import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  matchTotp,
  otpauthUrl,
  stepAt,
  totpCode,
} from './totp.server.ts';

/** RFC 6238 appendix B: the SHA-1 secret "12345678901234567890", eight digits there, six here. */
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('gives the RFC test vectors (their last six digits)', () => {
    for (const [seconds, eight] of VECTORS) {
      expect(totpCode(RFC_SECRET, stepAt(seconds * 1000))).toBe(eight.slice(2));
    }
  });

  it('round-trips base32', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('takes the code of now and of one step either side, not two', () => {
    const now = 1_800_000_000_000;
    const step = stepAt(now);
    for (const offset of [-1, 0, 1]) {
      expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step + offset), { now })).toBe(
        step + offset,
      );
    }
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 2), { now })).toBeNull();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step + 2), { now })).toBeNull();
    expect(matchTotp(RFC_SECRET, 'abcdef', { now })).toBeNull();
  });

  it('takes a code once: not for its step again, nor for an earlier one', () => {
    const now = 1_800_000_000_000;
    const step = stepAt(now);
    const code = totpCode(RFC_SECRET, step);
    expect(matchTotp(RFC_SECRET, code, { now, lastStep: step - 1 })).toBe(step);
    expect(matchTotp(RFC_SECRET, code, { now, lastStep: step })).toBeNull();
    expect(
      matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 1), { now, lastStep: step }),
    ).toBeNull();
  });

  it('writes the otpauth address authenticator apps read', () => {
    const url = new URL(otpauthUrl('ABC', 'maija@example.fi'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Kattaus:maija@example.fi');
    expect(url.searchParams.get('secret')).toBe('ABC');
    expect(url.searchParams.get('issuer')).toBe('Kattaus');
  });
});
