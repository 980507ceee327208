import { desc, eq } from 'drizzle-orm';
import { openText } from '../../src/features/forms/crypto.server.ts';
import { mailOutbox } from '../../src/features/forms/tables.ts';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import { customers } from '../../src/features/shop/tables.ts';
import type { Visitor } from './visitor.ts';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

const CONFIRM_LINK = /\/rekisteroidy\/vahvista\?token=([A-Za-z0-9_-]{43})/;

/**
 * The token of the newest registration confirmation link mailed to `email` (decision 075), read
 * from the outbox of `v`'s app. Throws when there is none.
 */
export async function mailedConfirmToken(v: Visitor, email: string): Promise<string> {
  const rows = await v.app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipients, email))
    .orderBy(desc(mailOutbox.id));
  for (const row of rows) {
    const token = CONFIRM_LINK.exec(
      openText(v.app.config.forms.encryptionKey, row.sealedBody),
    )?.[1];
    if (token) return token;
  }
  throw new Error(`no confirmation link mailed to ${email}`);
}

/**
 * Registers `v` as a shop customer through the API and confirms it from the mailed link, as its
 * owner would: logged in after it. Throws with the answer when a call is refused; free of the
 * test runner, so the benchmarks use it too.
 */
export async function registerCustomer(v: Visitor, email: string, password: string): Promise<void> {
  const registered = await v.post(`${ACCOUNT_API}/register`, json({ email, password }));
  if (registered.statusCode !== 200) {
    throw new Error(`register answered ${registered.statusCode}: ${registered.body}`);
  }
  const token = await mailedConfirmToken(v, email);
  const confirmed = await v.post(`${ACCOUNT_API}/register/confirm`, json({ token }));
  if (confirmed.statusCode !== 200) {
    throw new Error(`confirm answered ${confirmed.statusCode}: ${confirmed.body}`);
  }
}

/**
 * Registers `v` as a shop customer (logged in after it) and saves a private customer's delivery
 * address at `postalCode` in Helsinki (`streetAddress`, by default Lihakuja 3). Throws with the
 * answer when any call is refused; free of the test runner, so the benchmarks use it too.
 */
export async function registerWithAddress(
  v: Visitor,
  email: string,
  password: string,
  postalCode: string,
  streetAddress = 'Lihakuja 3',
): Promise<void> {
  await registerCustomer(v, email, password);
  const address = await v.post(
    CUSTOMER_API,
    json({
      firstName: 'Maija',
      lastName: 'Meikäläinen',
      streetAddress,
      postalCode,
      city: 'Helsinki',
      phoneNumber: '040 123 4567',
      isPrivateCustomer: true,
    }),
  );
  if (address.statusCode !== 200) {
    throw new Error(`delivery address answered ${address.statusCode}: ${address.body}`);
  }
}

/** The path of the verification link in the newest mail of the outbox to `email`, if any. */
export async function verificationLinkOf(v: Visitor, email: string): Promise<string | null> {
  const rows = await v.app.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipients, email))
    .orderBy(desc(mailOutbox.id));
  for (const row of rows) {
    const text = openText(v.app.config.forms.encryptionKey, row.sealedBody);
    const link = /https?:\/\/[^\s/]+(\/sahkoposti\/vahvista\?token=[\w-]+)/.exec(text)?.[1];
    if (link) return link;
  }
  return null;
}

/**
 * Makes the account of `email` one whose address is not verified, as accounts made before
 * registration went through a mailed link are (decision 083): every account registered now is
 * verified by its registration link.
 */
export async function unverifyEmail(v: Visitor, email: string): Promise<void> {
  const rows = await v.app.db
    .update(customers)
    .set({ emailVerifiedAt: null })
    .where(eq(customers.email, email))
    .returning({ id: customers.id });
  if (rows.length !== 1) throw new Error(`no account of ${email}`);
}

/**
 * Verifies the e-mail address of the customer logged in as `v` as its owner would (decision 082):
 * asks 'Oma tili' for a verification link, opens the newest one mailed to `email` and presses the
 * page's button.
 */
export async function verifyEmail(v: Visitor, email: string): Promise<void> {
  const asked = await v.post(`${ACCOUNT_API}/email-verification`, json({}));
  if (asked.statusCode !== 200) {
    throw new Error(`verification link answered ${asked.statusCode}: ${asked.body}`);
  }
  const link = await verificationLinkOf(v, email);
  if (!link) throw new Error(`no verification mail to ${email}`);
  const page = await v.get(link);
  if (page.statusCode !== 200) throw new Error(`verification page answered ${page.statusCode}`);
  const token = new URL(link, 'http://shop').searchParams.get('token') ?? '';
  const res = await v.post('/sahkoposti/vahvista', {
    payload: new URLSearchParams({ _xsrf: v.xsrfToken ?? '', token }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (res.statusCode !== 200 || !res.body.includes('data-verified')) {
    throw new Error(`verification answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  }
}
