import { describe, expect, it } from 'vitest';
import { addressKey, canonicalAddress, canonicalMailbox, mailboxKey } from './limit-keys.server.ts';

describe('what one customer is counted as', () => {
  it('one mailbox, however its address is written', () => {
    expect(canonicalMailbox('  Maija.Meikalainen+kerta@Gmail.com ')).toBe(
      'maijameikalainen@gmail.com',
    );
    expect(canonicalMailbox('maija.meikalainen@googlemail.com')).toBe('maijameikalainen@gmail.com');
    expect(canonicalMailbox('Maija+1@Example.FI')).toBe('maija@example.fi');
    // Dots matter elsewhere.
    expect(canonicalMailbox('maija.m@example.fi')).not.toBe(canonicalMailbox('maijam@example.fi'));
    expect(mailboxKey('s', 'Maija+2@example.fi')).toBe(mailboxKey('s', 'maija@EXAMPLE.fi'));
  });

  it('one home, however its street address is written; another flat is another home', () => {
    const home = (streetAddress: string, postalCode = '00100') =>
      canonicalAddress({ streetAddress, postalCode });
    expect(home('Lihakuja 3 A 5')).toBe(home('lihakuja 3a5'));
    expect(home('Lihakuja 3 A 5')).toBe(home(' Lihakuja 3 a as. 5 '));
    expect(home('Lihakuja 3 A 5')).toBe(home('LIHAKUJA 3 A 5', '001 00'));
    expect(home('Lihakuja 3 A 5')).not.toBe(home('Lihakuja 3 A 6'));
    expect(home('Lihakuja 3 A 5')).not.toBe(home('Lihakuja 3 A 5', '00200'));
    expect(home('Köttgränd 3 lgh 5', '00100')).toBe(home('köttgränd 3 5'));
  });

  it('keys are keyed hashes: no address in them, another secret another key', () => {
    const key = addressKey('salaisuus', { streetAddress: 'Lihakuja 3', postalCode: '00100' });
    expect(key).toMatch(/^address:[\w-]{43}$/);
    expect(key).not.toContain('lihakuja');
    expect(addressKey('toinen', { streetAddress: 'Lihakuja 3', postalCode: '00100' })).not.toBe(
      key,
    );
  });
});
