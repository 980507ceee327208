import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { postForm, shopTestApp, shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { openText } from '../../forms/crypto.server.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { customerRegistrations, customers } from '../tables.ts';
import { ACCOUNT_API, CUSTOMER_API } from './schemas.ts';

/**
 * Registering tells nobody whether an address has an account (decision 075): a taken address and
 * a new one get the same answer, and the mail says the rest to the address's owner: a link that
 * confirms the new account, or a note that the address has one already.
 */

const PASSWORD = 'oikea-salasana-1';
const t = shopTestApp();
let n = 0;

async function visitor(): Promise<Visitor> {
  n += 1;
  return shopVisitorFrom(t, `10.9.3.${n}`);
}

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

async function mailsTo(address: string) {
  const rows = await t.app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipients, address))
    .orderBy(desc(mailOutbox.id));
  const key = t.app.config.forms.encryptionKey;
  return rows.map((row) => ({ subject: row.subject, body: openText(key, row.sealedBody) }));
}

/** The confirmation link's token in the newest mail to `address`. */
async function confirmToken(address: string): Promise<string> {
  const [mail] = await mailsTo(address);
  const token = /\/rekisteroidy\/vahvista\?token=([\w-]{43})/.exec(mail?.body ?? '')?.[1];
  expect(token, mail?.body).toBeDefined();
  return token ?? '';
}

/** An account that exists: registered and confirmed. */
async function existing(address: string): Promise<void> {
  const v = await visitor();
  expect(
    (await v.post(`${ACCOUNT_API}/register`, json({ email: address, password: PASSWORD })))
      .statusCode,
  ).toBe(200);
  const token = await confirmToken(address);
  const confirmed = await v.post(`${ACCOUNT_API}/register/confirm`, json({ token }));
  expect(confirmed.statusCode, confirmed.body).toBe(200);
}

const loggedIn = async (v: Visitor) => (await v.get(CUSTOMER_API)).json().loggedIn as boolean;

describe('registering a taken address and a new one', () => {
  it('answers both alike through the API and mails the owner of the taken one', async () => {
    const taken = 'rekisteroity1@example.fi';
    await existing(taken);
    const before = (await mailsTo(taken)).length;

    const a = await visitor();
    const forTaken = await a.post(
      `${ACCOUNT_API}/register`,
      json({ email: taken.toUpperCase(), password: 'joku-muu-salasana' }),
    );
    const b = await visitor();
    const forNew = await b.post(
      `${ACCOUNT_API}/register`,
      json({ email: 'uusi1@example.fi', password: 'joku-muu-salasana' }),
    );
    for (const res of [forTaken, forNew]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
    }
    expect(forTaken.json()).toEqual(forNew.json());
    expect(forTaken.json()).toEqual({ ok: true });
    // Neither is logged in by it: the new account waits for its owner's confirmation.
    expect(await loggedIn(a)).toBe(false);
    expect(await loggedIn(b)).toBe(false);
    expect(await t.app.db.$count(customers, eq(customers.email, 'uusi1@example.fi'))).toBe(0);

    const owner = await mailsTo(taken);
    expect(owner).toHaveLength(before + 1);
    expect(owner[0]?.subject).toBe('Tiliä yritettiin luoda osoitteellesi – Lihakauppa');
    expect(owner[0]?.body).toContain('http://lihakauppa.localhost/kirjaudu');
    expect(owner[0]?.body).toContain('http://lihakauppa.localhost/salasana');
    expect(owner[0]?.body).not.toContain('/rekisteroidy/vahvista');
    // The taken address's password is not changed by the attempt.
    const relogin = await (await visitor()).post(
      `${ACCOUNT_API}/login`,
      json({ email: taken, password: PASSWORD }),
    );
    expect(relogin.statusCode).toBe(200);
  });

  it('shows the same page for both on the registration page', async () => {
    const taken = 'rekisteroity2@example.fi';
    await existing(taken);
    const send = async (email: string) => {
      const v = await visitor();
      await v.get('/rekisteroidy');
      const res = await postForm(v, '/rekisteroidy', { email, password: 'joku-muu-salasana' });
      // The page names the address typed and carries the visitor's own token: neither tells.
      return {
        status: res.statusCode,
        body: res.body
          .replaceAll(email, 'EMAIL')
          .replace(/name="_xsrf" value="[^"]*"/g, '')
          .replace(/XSRF-TOKEN[^"]*/g, ''),
      };
    };
    const forTaken = await send(taken);
    const forNew = await send('uusi2@example.fi');
    expect(forTaken.status).toBe(200);
    expect(forNew.status).toBe(200);
    expect(forTaken.body).toContain('Lähetimme osoitteeseen EMAIL viestin');
    expect(forTaken.body).not.toContain('error-summary');
    expect(forTaken.body).toEqual(forNew.body);
  });

  it('creates the account from the mailed link once, logs in and goes back to paluu', async () => {
    const address = 'vahvistettava@example.fi';
    const v = await visitor();
    await v.get('/rekisteroidy?paluu=%2Fkassa%3Fpostinumero%3D00100');
    const sent = await postForm(v, '/rekisteroidy', {
      email: address,
      password: PASSWORD,
      paluu: '/kassa?postinumero=00100',
    });
    expect(sent.statusCode).toBe(200);
    const [mail] = await mailsTo(address);
    expect(mail?.subject).toBe('Vahvista tilisi – Lihakauppa');
    const token = await confirmToken(address);
    const page = await v.get(`/rekisteroidy/vahvista?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`name="token" value="${token}"`);
    expect(page.body).toContain('name="_xsrf"');
    const confirmed = await postForm(v, '/rekisteroidy/vahvista', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(303);
    expect(confirmed.headers.location).toBe('/kassa?postinumero=00100');
    expect(await loggedIn(v)).toBe(true);
    expect(await t.app.db.$count(customers, eq(customers.email, address))).toBe(1);
    expect(
      await t.app.db.$count(customerRegistrations, eq(customerRegistrations.email, address)),
    ).toBe(0);
    const again = await postForm(v, '/rekisteroidy/vahvista', { token });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Vahvistuslinkki on vanhentunut tai jo käytetty.');
  });

  it('refuses an unknown or expired link, creating nothing', async () => {
    const address = 'vanhentunut@example.fi';
    const v = await visitor();
    await v.post(`${ACCOUNT_API}/register`, json({ email: address, password: PASSWORD }));
    const token = await confirmToken(address);
    await t.app.db
      .update(customerRegistrations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(customerRegistrations.email, address));
    for (const tried of [token, 'x'.repeat(43)]) {
      const res = await v.post(`${ACCOUNT_API}/register/confirm`, json({ token: tried }));
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors).toEqual({ token: 'account.error.registrationToken' });
    }
    expect(await t.app.db.$count(customers, eq(customers.email, address))).toBe(0);
    expect(await loggedIn(v)).toBe(false);
  });

  it('a mail to one address at most 3 times in 15 minutes, whether it has an account or not', async () => {
    const taken = 'rajoitettu@example.fi';
    await existing(taken);
    const attempts = async (email: string) => {
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) {
        const v = await visitor();
        answers.push(
          (await v.post(`${ACCOUNT_API}/register`, json({ email, password: PASSWORD }))).statusCode,
        );
      }
      return answers;
    };
    // The taken address's own registration counted once already.
    expect(await attempts(taken)).toEqual([200, 200, 429, 429]);
    expect(await attempts('rajoitettu-uusi@example.fi')).toEqual([200, 200, 200, 429]);
  });
});
