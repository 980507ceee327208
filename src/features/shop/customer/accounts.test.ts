import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPage, createShopProducts } from '../../../../tests/factories/index.ts';
import { createTestApp, type TestApp } from '../../../../tests/helpers/app.ts';
import { SHOP_HOST as HOST, shopVisitorFrom } from '../../../../tests/helpers/shop.ts';
import { registerCustomer, unverifyEmail } from '../../../../tests/helpers/shop-customer.ts';
import type { Visitor } from '../../../../tests/helpers/visitor.ts';
import { SESSION_COOKIE } from '../../../server/plugins/sessions.ts';
import { openText } from '../../forms/crypto.server.ts';
import { mailOutbox } from '../../forms/tables.ts';
import { CART_API, cartSchema } from '../schemas.ts';
import {
  cartLineItems,
  carts,
  customers,
  emailVerificationTokens,
  passwordResetTokens,
} from '../tables.ts';
import { requestPasswordReset } from './accounts.server.ts';
import { ACCOUNT_API, CUSTOMER_API, customerSchema } from './schemas.ts';

/**
 * Shop accounts (decision 025): register, log in and out, the password reset link, the customer
 * API, and the cart kept through a login. Concurrent logins run on PostgreSQL only
 * (DATABASE_URL set, as in CI): PGlite has one connection, so nothing would race there.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const A = '7790001';
const B = '7790002';
const FEW = '7790003';
const PASSWORD = 'oikea-salasana-1';
let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.db;
  await createShopProducts(db, [
    { path: '/tuotteet/a', code: A, name: 'Fileet', priceCents: 695 },
    { path: '/tuotteet/b', code: B, name: 'Jauheliha', priceCents: 489 },
    { path: '/tuotteet/few', code: FEW, name: 'Vähissä', priceCents: 1000, stock: 3 },
  ]);
  await createPage(db, { siteId: 'lihakauppa', path: '/', type: 'home', title: 'Lihakauppa' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A fresh address per test, so the per-account limits of one test do not touch another. */
function email(): string {
  n += 1;
  return `asiakas${n}@example.fi`;
}

/** A shop visitor from its own client address (the per-address limits count apart). */
async function visitor(ip = `10.0.0.${(n % 250) + 1}`): Promise<Visitor> {
  return shopVisitorFrom(t, ip);
}

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** A confirmed account, `v` logged in to it (decision 075). */
async function registered(v: Visitor, address = email(), password = PASSWORD) {
  await registerCustomer(v, address, password);
  return address;
}

async function customerOf(v: Visitor) {
  const res = await v.get(CUSTOMER_API);
  expect(res.statusCode, res.body).toBe(200);
  return customerSchema.parse(res.json());
}

async function add(v: Visitor, code: string, quantity: number) {
  const res = await v.post(`${CART_API}/add?language=fi&code=${code}&quantity=${quantity}`);
  expect(res.statusCode, res.body).toBe(200);
}

async function cartOf(v: Visitor) {
  const res = await v.get(`${CART_API}/load?language=fi`);
  const cart = cartSchema.parse(res.json());
  return Object.fromEntries(cart.lineItems.map((line) => [line.code, line.quantity]));
}

const login = (v: Visitor, address: string, password = PASSWORD) =>
  v.post(`${ACCOUNT_API}/login`, json({ email: address, password }));

describe('register, log in, log out', () => {
  it('registers and is logged in; logs out; logs in again with the address in other case', async () => {
    const v = await visitor();
    expect(await customerOf(v)).toMatchObject({ loggedIn: false, email: '' });
    const address = await registered(v);
    expect(await customerOf(v)).toMatchObject({ loggedIn: true, email: address });
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);

    const out = await v.post(`${ACCOUNT_API}/logout`);
    expect(out.statusCode, out.body).toBe(200);
    expect(await customerOf(v)).toMatchObject({ loggedIn: false });

    const res = await login(v, address.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ loggedIn: true, email: address });
  });

  it('refuses a short password and a bad address with field errors, writing nothing', async () => {
    const before = await t.app.db.$count(customers);
    const res = await (await visitor()).post(
      `${ACCOUNT_API}/register`,
      json({ email: 'not-an-address', password: 'short' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      email: 'account.error.email',
      password: 'account.error.passwordShort',
    });
    expect(await t.app.db.$count(customers)).toBe(before);
  });

  it('answers a wrong password and an unknown address alike with 401', async () => {
    const address = await registered(await visitor());
    const v = await visitor();
    const wrong = await login(v, address, 'väärä-salasana');
    const unknown = await login(v, email(), PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ errors: { password: 'account.error.login' } });
    }
    expect(wrong.json()).toEqual(unknown.json());
    expect(await customerOf(v)).toMatchObject({ loggedIn: false });
  });

  it('gives a new session token at login; the old token is no longer a session', async () => {
    const address = await registered(await visitor());
    const v = await visitor();
    await add(v, A, 1); // the guest's session is stored
    const before = v.jar.get(SESSION_COOKIE);
    expect(before).toBeDefined();
    expect((await login(v, address)).statusCode).toBe(200);
    const after = v.jar.get(SESSION_COOKIE);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    const old = await t.app.inject({
      method: 'GET',
      url: CUSTOMER_API,
      headers: { host: HOST, cookie: `${SESSION_COOKIE}=${before}` },
    });
    expect(old.json()).toMatchObject({ loggedIn: false });
    expect(await cartOf(v)).toEqual({ [A]: 1 });
  });

  it('requires the anti-forgery header on login', async () => {
    const address = await registered(await visitor());
    const v = await visitor();
    const res = await v.post(`${ACCOUNT_API}/login`, {
      ...json({ email: address, password: PASSWORD }),
      xsrf: false,
    });
    expect(res.statusCode).toBe(403);
    expect(await customerOf(v)).toMatchObject({ loggedIn: false });
  });
});

describe('login rate limits', () => {
  it('per account: the 11th attempt in 15 minutes is 429 even with the right password, from any address', async () => {
    const address = await registered(await visitor());
    for (let i = 0; i < 10; i++) {
      const res = await login(await visitor(`10.1.0.${i + 1}`), address, 'väärä-salasana');
      expect(res.statusCode).toBe(401);
    }
    const v = await visitor('10.1.1.1');
    const res = await login(v, address);
    expect(res.statusCode).toBe(429);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.headers['retry-after']).toBeDefined();
    expect(await customerOf(v)).toMatchObject({ loggedIn: false });
  });

  it('per address: the 21st attempt in a minute from one address is 429', async () => {
    const v = await visitor('10.2.0.1');
    for (let i = 0; i < 20; i++) expect((await login(v, email())).statusCode).toBe(401);
    expect((await login(v, email())).statusCode).toBe(429);
  });
});

describe('password reset', () => {
  async function mailedToken(address: string): Promise<string> {
    const rows = await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipients, address));
    const bodies = rows.map((row) => openText(t.app.config.forms.encryptionKey, row.sealedBody));
    // The account's confirmation mail went to the address before (decision 075).
    const links = bodies.flatMap((body) => {
      const token = /\/salasana\/uusi\?token=([A-Za-z0-9_-]{43})/.exec(body)?.[1];
      return token ? [token] : [];
    });
    expect(links, bodies.join('\n---\n')).toHaveLength(1);
    return links[0] ?? '';
  }

  it('answers the same for an unknown address and mails nothing', async () => {
    const v = await visitor();
    const unknown = email();
    const res = await v.post(`${ACCOUNT_API}/password-reset`, json({ email: unknown }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await t.app.db.$count(mailOutbox, eq(mailOutbox.recipients, unknown))).toBe(0);
  });

  it('mails a link whose token works once; the old password stops working, other sessions end', async () => {
    const owner = await visitor();
    const address = await registered(owner);
    const v = await visitor();
    const asked = await v.post(`${ACCOUNT_API}/password-reset`, json({ email: address }));
    expect(asked.json()).toEqual({ ok: true });
    const token = await mailedToken(address);
    const [stored] = await t.app.db.select().from(passwordResetTokens);
    expect(stored?.tokenHash).not.toContain(token);

    const reset = await v.post(
      `${ACCOUNT_API}/password-reset/confirm`,
      json({ token, password: 'uusi-salasana-2' }),
    );
    expect(reset.statusCode, reset.body).toBe(200);
    const again = await v.post(
      `${ACCOUNT_API}/password-reset/confirm`,
      json({ token, password: 'kolmas-salasana-3' }),
    );
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual({ token: 'account.error.resetToken' });

    expect(await customerOf(owner)).toMatchObject({ loggedIn: false });
    expect((await login(await visitor(), address)).statusCode).toBe(401);
    expect((await login(await visitor(), address, 'uusi-salasana-2')).statusCode).toBe(200);
  });

  it('keeps neither the link nor its mail when what is written with them fails', async () => {
    const address = await registered(await visitor());
    const [customer] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    const tokensOf = () =>
      t.app.db
        .select()
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.customerId, customer?.id ?? ''));
    const mailsTo = () =>
      t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipients, address));
    const [tokensBefore, mailsBefore] = [(await tokensOf()).length, (await mailsTo()).length];
    await expect(
      requestPasswordReset(t.app.db, {
        email: address,
        lang: 'fi',
        resetPageUrl: 'http://lihakauppa.localhost/salasana/uusi',
        mailKey: t.app.config.forms.encryptionKey,
        alsoWrite: async () => {
          throw new Error('the audit row could not be written');
        },
      }),
    ).rejects.toThrow('the audit row could not be written');
    expect((await tokensOf()).length).toBe(tokensBefore);
    expect((await mailsTo()).length).toBe(mailsBefore);
  });

  it('refuses an expired token and writes nothing', async () => {
    const address = await registered(await visitor());
    await requestPasswordReset(t.app.db, {
      email: address,
      lang: 'fi',
      resetPageUrl: 'http://lihakauppa.localhost/salasana/uusi',
      mailKey: t.app.config.forms.encryptionKey,
      now: new Date(Date.now() - 61 * 60 * 1000),
    });
    const token = await mailedToken(address);
    const [before] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    const res = await (await visitor()).post(
      `${ACCOUNT_API}/password-reset/confirm`,
      json({ token, password: 'uusi-salasana-2' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ token: 'account.error.resetToken' });
    const [after] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    expect(after?.passwordHash).toBe(before?.passwordHash);
  });
});

describe('e-mail verification (decisions 082 and 083)', () => {
  const verifiedAt = async (address: string) =>
    (await t.app.db.select().from(customers).where(eq(customers.email, address)))[0]
      ?.emailVerifiedAt ?? null;
  const linksTo = async (address: string) =>
    (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipients, address)))
      .map((row) => openText(t.app.config.forms.encryptionKey, row.sealedBody))
      .flatMap((body) => {
        const token = /\/sahkoposti\/vahvista\?token=([A-Za-z0-9_-]{43})/.exec(body)?.[1];
        return token ? [token] : [];
      });
  const askLink = (v: Visitor) => v.post(`${ACCOUNT_API}/email-verification`, json({}));
  /** An account whose address is not verified, as accounts made before decision 083 are. */
  async function unverified(v: Visitor) {
    const address = await registered(v);
    await unverifyEmail(v, address);
    return address;
  }

  it('an account made from the registration link has its address verified; no other link is mailed', async () => {
    const v = await visitor();
    const address = await registered(v);
    expect(await verifiedAt(address)).not.toBeNull();
    expect((await v.get('/oma-tili')).body).toContain('data-email-verified="true"');
    const res = await askLink(v);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await linksTo(address)).toEqual([]);
  });

  it('an unverified account gets a link; opening it verifies nothing, its button does, once', async () => {
    const v = await visitor();
    const address = await unverified(v);
    expect(await verifiedAt(address)).toBeNull();
    expect((await askLink(v)).statusCode).toBe(200);
    const [token] = await linksTo(address);
    expect(token).toBeDefined();
    const [stored] = await t.app.db
      .select()
      .from(emailVerificationTokens)
      .where(eq(emailVerificationTokens.email, address));
    expect(stored?.tokenHash).not.toContain(token);
    // A mail scanner fetching the link changes nothing.
    const page = await v.get(`/sahkoposti/vahvista?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Vahvista sähköpostiosoite');
    expect(page.body).toContain('<meta name="robots" content="noindex"/>');
    expect(await verifiedAt(address)).toBeNull();
    const confirm = (token: string) =>
      v.post(`${ACCOUNT_API}/email-verification/confirm`, json({ token }));
    expect((await confirm(token ?? '')).statusCode).toBe(200);
    expect(await verifiedAt(address)).not.toBeNull();
    const again = await confirm(token ?? '');
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual({ token: 'account.error.verifyToken' });
  });

  it("'Oma tili' offers a new link until the address is verified, at most 3 in 15 minutes", async () => {
    const v = await visitor();
    const address = await unverified(v);
    const account = await v.get('/oma-tili');
    expect(account.body).toContain('data-email-verified="false"');
    for (let i = 0; i < 4; i++) {
      const res = await askLink(v);
      expect(res.json()).toEqual({ ok: true });
    }
    // Three links; the fourth asked within 15 minutes is not sent.
    const tokens = await linksTo(address);
    expect(tokens).toHaveLength(3);
    const form = await v.post('/oma-tili', {
      payload: new URLSearchParams({ _xsrf: v.xsrfToken ?? '', action: 'verify-email' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(303);
    expect(form.headers.location).toBe('/oma-tili?vahvistus=lahetetty');
    expect((await v.get('/oma-tili?vahvistus=lahetetty')).body).toContain(
      `Vahvistuslinkki on lähetetty osoitteeseen ${address}`,
    );
    expect(await linksTo(address)).toHaveLength(3);
    // Any of the links works (the page's button posts it).
    const verified = await v.post('/sahkoposti/vahvista', {
      payload: new URLSearchParams({ _xsrf: v.xsrfToken ?? '', token: tokens[1] ?? '' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(verified.body).toContain('data-verified="true"');
    expect((await v.get('/oma-tili')).body).toContain('data-email-verified="true"');
    expect((await askLink(v)).statusCode).toBe(200);
    expect(await linksTo(address)).toHaveLength(3);
    expect((await askLink(await visitor())).statusCode).toBe(401);
  });

  it('a link no longer verifies once the account has another address; a password reset verifies it', async () => {
    const v = await visitor();
    const address = await unverified(v);
    expect((await askLink(v)).statusCode).toBe(200);
    const [token] = await linksTo(address);
    await t.app.db
      .update(customers)
      .set({ email: `muutettu-${address}` })
      .where(eq(customers.email, address));
    const refused = await v.post(
      `${ACCOUNT_API}/email-verification/confirm`,
      json({ token: token ?? '' }),
    );
    expect(refused.statusCode).toBe(400);
    expect(await verifiedAt(`muutettu-${address}`)).toBeNull();

    const other = await unverified(await visitor());
    await (await visitor()).post(`${ACCOUNT_API}/password-reset`, json({ email: other }));
    const reset = (await t.app.db.select().from(mailOutbox).where(eq(mailOutbox.recipients, other)))
      .map((row) => openText(t.app.config.forms.encryptionKey, row.sealedBody))
      .map((body) => /\/salasana\/uusi\?token=([A-Za-z0-9_-]{43})/.exec(body)?.[1])
      .find(Boolean);
    const done = await (await visitor()).post(
      `${ACCOUNT_API}/password-reset/confirm`,
      json({ token: reset, password: 'uusi-salasana-2' }),
    );
    expect(done.statusCode, done.body).toBe(200);
    expect(await verifiedAt(other)).not.toBeNull();
  });
});

describe('the cart through a login', () => {
  it("keeps the guest's lines and merges them with the account's saved cart, capped by stock", async () => {
    const first = await visitor();
    const address = await registered(first);
    await add(first, A, 2);
    await add(first, FEW, 2);
    await first.post(`${ACCOUNT_API}/logout`);
    expect(await cartOf(first)).toEqual({});

    const second = await visitor();
    await add(second, A, 3);
    await add(second, B, 1);
    await add(second, FEW, 2);
    expect((await login(second, address)).statusCode).toBe(200);
    expect(await cartOf(second)).toEqual({ [A]: 5, [B]: 1, [FEW]: 3 });
    // One saved cart, and no guest cart left behind.
    const [{ customerId } = { customerId: '' }] = await t.app.db
      .select({ customerId: customers.id })
      .from(customers)
      .where(eq(customers.email, address));
    expect(await t.app.db.$count(carts, eq(carts.customerId, customerId))).toBe(1);
  });

  it("a guest's lines go into the account's saved cart and outlast a logout", async () => {
    const address = await registered(await visitor());
    const v = await visitor();
    await add(v, B, 4);
    await v.post(`${ACCOUNT_API}/logout`);
    const w = await visitor();
    expect((await login(w, address)).statusCode).toBe(200);
    expect(await cartOf(w)).toEqual({});
    const g = await visitor();
    await add(g, B, 4);
    expect((await login(g, address)).statusCode).toBe(200);
    expect(await cartOf(g)).toEqual({ [B]: 4 });
    await g.post(`${ACCOUNT_API}/logout`);
    const h = await visitor();
    expect((await login(h, address)).statusCode).toBe(200);
    expect(await cartOf(h)).toEqual({ [B]: 4 });
  });
  it("registering keeps the guest cart: it becomes the new account's saved cart", async () => {
    const v = await visitor();
    await add(v, A, 2);
    const before = v.jar.get(SESSION_COOKIE);
    const address = await registered(v);
    expect(v.jar.get(SESSION_COOKIE)).not.toBe(before);
    expect(await cartOf(v)).toEqual({ [A]: 2 });
    await v.post(`${ACCOUNT_API}/logout`);
    const w = await visitor();
    expect((await login(w, address)).statusCode).toBe(200);
    expect(await cartOf(w)).toEqual({ [A]: 2 });
  });
});

describe('GET and POST /api/lk/customer', () => {
  const form = {
    firstName: 'Maija',
    lastName: 'Meikäläinen',
    streetAddress: 'Mannerheimintie 1 A 2',
    postalCode: '00100',
    city: 'Helsinki',
    phoneNumber: '050 123 1234',
    isPrivateCustomer: true,
  };

  it('saves the address of a logged-in customer and answers the delivery address', async () => {
    const v = await visitor();
    await registered(v);
    const res = await v.post(CUSTOMER_API, json(form));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      firstName: 'Maija',
      lastName: 'Meikäläinen',
      streetAddress: 'Mannerheimintie 1 A 2',
      postalCode: '00100',
      city: 'Helsinki',
    });
    const customer = await customerOf(v);
    expect(customer).toMatchObject({
      loggedIn: true,
      phoneCountryCode: '+358',
      phoneNumber: '501231234',
      isPrivateCustomer: true,
      deliveryAddress: res.json(),
      billingAddress: res.json(),
    });
    const page = await v.get('/');
    expect(page.statusCode).toBe(200);
  });

  it('is 401 for a visitor and writes nothing', async () => {
    const v = await visitor();
    const res = await v.post(CUSTOMER_API, json(form));
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });

  it.each([
    [
      'a phone number not in Finnish format',
      { phoneNumber: '12ab' },
      { phoneNumber: 'account.error.phone' },
    ],
    [
      'the private-customer box not ticked',
      { isPrivateCustomer: false },
      { isPrivateCustomer: 'validation.required' },
    ],
    [
      'the private-customer box missing',
      { isPrivateCustomer: undefined },
      { isPrivateCustomer: 'validation.required' },
    ],
    ['an empty first name', { firstName: '  ' }, { firstName: 'validation.required' }],
    [
      'a four-digit postal code',
      { postalCode: '0010' },
      { postalCode: 'account.error.postalCode' },
    ],
  ])('refuses %s with 400 naming the field; nothing is written', async (_name, change, errors) => {
    const v = await visitor();
    const address = await registered(v);
    const res = await v.post(CUSTOMER_API, json({ ...form, ...change }));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().errors).toEqual(errors);
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    expect(row?.deliveryAddress).toBeNull();
    expect(row?.phoneNumber).toBe('');
  });

  it('refuses a NUL byte and a 20 MB body without writing', async () => {
    const v = await visitor();
    const address = await registered(v);
    const nul = await v.post(CUSTOMER_API, json({ ...form, city: 'Hel\u0000sinki' }));
    expect(nul.statusCode).toBe(400);
    expect(nul.headers['content-type']).toContain('application/problem+json');
    const big = await v.post(CUSTOMER_API, json({ ...form, city: 'x'.repeat(20 * 1024 * 1024) }));
    expect(big.statusCode).toBe(413);
    expect(big.headers['content-type']).toContain('application/problem+json');
    const [row] = await t.app.db.select().from(customers).where(eq(customers.email, address));
    expect(row?.deliveryAddress).toBeNull();
  });
});

describe.runIf(onPostgres)('on PostgreSQL', () => {
  it('10 concurrent logins of one account, each with a guest cart: no line lost, exact sums', async () => {
    const address = await registered(await visitor());
    const guests = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const g = await visitor(`10.3.0.${i + 1}`);
        await add(g, A, 1);
        await add(g, B, i + 1);
        return g;
      }),
    );
    const answers = await Promise.all(guests.map((g) => login(g, address)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const [owner] = await t.app.db
      .select({ id: customers.id })
      .from(customers)
      .where(eq(customers.email, address));
    const saved = await t.app.db
      .select({ code: cartLineItems.code, quantity: cartLineItems.quantity })
      .from(cartLineItems)
      .innerJoin(carts, eq(carts.id, cartLineItems.cartId))
      .where(and(eq(carts.customerId, owner?.id ?? ''), eq(carts.siteId, 'lihakauppa')));
    expect(Object.fromEntries(saved.map((l) => [l.code, l.quantity]))).toEqual({
      [A]: 10,
      [B]: 55,
    });
    // One saved cart: no login made a second one beside it.
    expect(await t.app.db.$count(carts, eq(carts.customerId, owner?.id ?? ''))).toBe(1);
  });
});
