import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { postForm, shopTestApp, shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import { registerCustomer } from '../../../../tests/helpers/shop-customer.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { customers, passwordResetTokens } from '../tables.ts';
import { hashResetToken } from './accounts.server.ts';
import { ACCOUNT_API } from './schemas.ts';

/**
 * The rules for a password a customer sets (decision 074, OWASP ASVS 4.0 2.1): at least 12
 * characters, up to 128, counted as characters (an emoji is one); no composition rules; never one
 * of the common or breached passwords of the shipped list. The same on registration and reset,
 * through the API and the pages.
 */

const t = shopTestApp();
let n = 0;

async function visitor(): Promise<Visitor> {
  n += 1;
  return shopVisitorFrom(t, `10.9.2.${n}`);
}

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const register = async (password: string, email = `salasana${n + 1}@example.fi`) =>
  (await visitor()).post(`${ACCOUNT_API}/register`, json({ email, password }));

async function storedCustomers(): Promise<number> {
  return t.app.db.$count(customers);
}

describe('password rules', () => {
  it.each([
    ['12345678', 'account.error.passwordShort'],
    ['a'.repeat(11), 'account.error.passwordShort'],
    // Eleven characters, 22 UTF-16 code units: still eleven.
    ['🥩'.repeat(11), 'account.error.passwordShort'],
    ['x'.repeat(129), 'account.error.passwordLong'],
    ['qwertyuiop123', 'account.error.passwordCommon'],
    ['123456789012', 'account.error.passwordCommon'],
    // The list is checked without regard to case.
    ['PasswordPassword', 'account.error.passwordCommon'],
  ])('refuses %j on registration with %s, storing nothing', async (password, key) => {
    const before = await storedCustomers();
    const res = await register(password);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual({ password: key });
    expect(await storedCustomers()).toBe(before);
  });

  it.each([
    ['twelve characters', 'kissa-istuu1'],
    ['a passphrase with spaces and no digits or capitals', 'kissa istuu puussa ja katselee'],
    ['64 characters', 'lihakauppa '.repeat(6).slice(0, 64)],
    ['128 characters', 'p'.repeat(64) + 'q'.repeat(64)],
    ['128 emoji (256 UTF-16 code units)', '🥩'.repeat(128)],
  ])('takes %s', async (_, password) => {
    const res = await register(password);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('names the rule in Finnish on the registration page', async () => {
    const v = await visitor();
    await v.get('/rekisteroidy');
    const short = await postForm(v, '/rekisteroidy', {
      email: 'sivu-salasana@example.fi',
      password: '12345678',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Salasanassa on oltava vähintään 12 merkkiä');
    const common = await postForm(v, '/rekisteroidy', {
      email: 'sivu-salasana@example.fi',
      password: 'qwertyuiop123',
    });
    expect(common.statusCode).toBe(400);
    expect(common.body).toContain('Salasana on liian yleinen');
    expect(await t.app.db.$count(customers, eq(customers.email, 'sivu-salasana@example.fi'))).toBe(
      0,
    );
  });

  it('refuses a short or common password on reset and keeps the link usable', async () => {
    const email = `nollaus${n}@example.fi`;
    await registerCustomer(await visitor(), email, 'vanha-salasana-1');
    const [customer] = await t.app.db.select().from(customers).where(eq(customers.email, email));
    const token = 'r'.repeat(43);
    await t.app.db.insert(passwordResetTokens).values({
      tokenHash: hashResetToken(token),
      customerId: customer?.id ?? '',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const v = await visitor();
    for (const [password, key] of [
      ['12345678', 'account.error.passwordShort'],
      ['1q2w3e4r5t6y', 'account.error.passwordCommon'],
    ] as const) {
      const res = await v.post(`${ACCOUNT_API}/password-reset/confirm`, json({ token, password }));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ password: key });
    }
    const page = await postForm(v, '/salasana/uusi', { token, password: '1q2w3e4r5t6y' });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Salasana on liian yleinen');
    const ok = await v.post(
      `${ACCOUNT_API}/password-reset/confirm`,
      json({ token, password: 'uusi-hyvä-salasana' }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
