import { describe, expect, it } from 'vitest';
import { paymentTypeLabel } from './payment-type.ts';

describe('paymentTypeLabel (spec §7)', () => {
  it.each([
    ['FI54', 'Mobile pay'],
    ['fi54', 'Mobile pay'],
    [' FI54 ', 'Mobile pay'],
    ['FI50', 'card payment'],
    ['FI51', 'online bank'],
    ['FI5', 'online bank'],
    ['FI540', 'online bank'],
    ['nordea', 'online bank'],
    ['', 'online bank'],
    [null, 'online bank'],
    [undefined, 'online bank'],
  ])('%j → %s', (code, label) => {
    expect(paymentTypeLabel(code)).toBe(label);
  });
});
