import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { postForm, shopTestApp, shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import { registerCustomer } from '../../../../tests/helpers/shop-customer.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { customers } from '../tables.ts';
import { hashPassword } from './accounts.server.ts';
import { ACCOUNT_API, CUSTOMER_API } from './schemas.ts';

/**
 * A customer changes the password on Oma tili, giving the current one (decision 077, OWASP ASVS
 * 4.0 2.1.5, 2.1.6); the new one follows the rules of decision 074. Every other session of the
 * account ends. A login with a password that the rules would refuse now is told to change it
 * (2.1.7).
 */

const PASSWORD = 'vanha-hyva-salasana';
const NEW_PASSWORD = 'uusi ja pitkä salasana';
const t = shopTestApp();
let n = 0;

async function visitor(): Promise<Visitor> {
  n += 1;
  return shopVisitorFrom(t, `10.9.4.${n}`);
}

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const loggedIn = async (v: Visitor) => (await v.get(CUSTOMER_API)).json().loggedIn as boolean;

const logIn = async (email: string, password: string) => {
  const v = await visitor();
  const res = await v.post(`${ACCOUNT_API}/login`, json({ email, password }));
  return { v, status: res.statusCode };
};

async function customer(): Promise<{ v: Visitor; email: string }> {
  const v = await visitor();
  const email = `vaihtaja${n}@example.fi`;
  await registerCustomer(v, email, PASSWORD);
  return { v, email };
}

describe('changing the password on Oma tili', () => {
  it('shows the form and refuses a wrong current password or a new one against the rules', async () => {
    const { v } = await customer();
    const page = await v.get('/oma-tili');
    expect(page.body).toContain('id="field-currentPassword"');
    expect(page.body).toContain('id="field-newPassword"');
    for (const [fields, text] of [
      [
        { currentPassword: 'väärä-salasana-1', newPassword: NEW_PASSWORD },
        'Nykyinen salasana on väärin.',
      ],
      [{ currentPassword: PASSWORD, newPassword: '12345678' }, 'vähintään 12 merkkiä'],
      [{ currentPassword: PASSWORD, newPassword: 'qwertyuiop123' }, 'Salasana on liian yleinen'],
    ] as const) {
      const res = await postForm(v, '/oma-tili', { action: 'password', ...fields });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(text);
      expect(res.body).toContain('id="error-summary"');
      expect(res.body).not.toContain(fields.newPassword);
    }
  });

  it('changes it: the old one stops working, other sessions end, this one stays', async () => {
    const { v, email } = await customer();
    const other = await logIn(email, PASSWORD);
    expect(await loggedIn(other.v)).toBe(true);
    const res = await postForm(v, '/oma-tili', {
      action: 'password',
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode, res.body).toBe(303);
    const after = await v.get(String(res.headers.location));
    expect(after.body).toContain('Salasana on vaihdettu.');
    expect(await loggedIn(v)).toBe(true);
    expect(await loggedIn(other.v)).toBe(false);
    expect((await logIn(email, PASSWORD)).status).toBe(401);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('through the API: 400 naming the field, 200 once right, 401 for a visitor', async () => {
    const { v, email } = await customer();
    const wrong = await v.post(
      `${ACCOUNT_API}/password`,
      json({ currentPassword: 'väärä-salasana-1', newPassword: NEW_PASSWORD }),
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.json().errors).toEqual({ currentPassword: 'account.error.currentPassword' });
    const common = await v.post(
      `${ACCOUNT_API}/password`,
      json({ currentPassword: PASSWORD, newPassword: 'PasswordPassword' }),
    );
    expect(common.json().errors).toEqual({ newPassword: 'account.error.passwordCommon' });
    const ok = await v.post(
      `${ACCOUNT_API}/password`,
      json({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(200);
    const stranger = await (await visitor()).post(
      `${ACCOUNT_API}/password`,
      json({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD }),
    );
    expect(stranger.statusCode).toBe(401);
  });

  it('asks a customer who logs in with a password the rules refuse now to change it', async () => {
    const email = `vanha-saanto${n}@example.fi`;
    await t.app.db
      .insert(customers)
      .values({ email, passwordHash: await hashPassword('12345678') });
    const v = await visitor();
    await v.get('/kirjaudu');
    const res = await postForm(v, '/kirjaudu', { email, password: '12345678' });
    expect(res.statusCode).toBe(303);
    const page = await v.get('/oma-tili');
    expect(page.body).toContain('Salasanasi ei täytä nykyisiä vaatimuksia');
    await postForm(v, '/oma-tili', {
      action: 'password',
      currentPassword: '12345678',
      newPassword: NEW_PASSWORD,
    });
    expect((await v.get('/oma-tili')).body).not.toContain(
      'Salasanasi ei täytä nykyisiä vaatimuksia',
    );
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, email));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });
});
