import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX, PASSWORD_MIN } from '../shop/customer/schemas.ts';
import { newPasswordSchema, STAFF_PASSWORD_MAX, STAFF_PASSWORD_MIN } from './schemas.ts';

describe('staff passwords', () => {
  it('follow the customers’ rules (decision 074)', () => {
    expect([STAFF_PASSWORD_MIN, STAFF_PASSWORD_MAX]).toEqual([PASSWORD_MIN, PASSWORD_MAX]);
    expect(newPasswordSchema.safeParse('a'.repeat(11)).success).toBe(false);
    expect(newPasswordSchema.safeParse('😀'.repeat(12)).success).toBe(true);
    expect(newPasswordSchema.safeParse('a'.repeat(129)).success).toBe(false);
  });
});
