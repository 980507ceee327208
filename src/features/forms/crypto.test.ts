import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openBytes, openText, sealBytes, sealText } from './crypto.server.ts';

describe('sealing', () => {
  const key = randomBytes(32);
  it('round-trips text and bytes, with a fresh IV each time', () => {
    const a = sealText(key, 'Sairastuin syötyäni tuotetta');
    expect(a).not.toContain('Sairastuin');
    expect(a).not.toBe(sealText(key, 'Sairastuin syötyäni tuotetta'));
    expect(openText(key, a)).toBe('Sairastuin syötyäni tuotetta');
    const bytes = randomBytes(1000);
    expect(openBytes(key, sealBytes(key, bytes)).equals(bytes)).toBe(true);
  });

  it('refuses a wrong key or tampered data', () => {
    const sealed = sealText(key, 'x');
    expect(() => openText(randomBytes(32), sealed)).toThrow();
    const bytes = sealBytes(key, Buffer.from('hello'));
    bytes.writeUInt8((bytes.at(-1) ?? 0) ^ 1, bytes.length - 1);
    expect(() => openBytes(key, bytes)).toThrow();
  });
});
