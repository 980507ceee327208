import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/db/schema.ts';
import { openText } from '../../src/features/forms/crypto.server.ts';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
import type { Visitor } from './visitor.ts';

const json = (body: unknown) => ({
  payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/**
 * Registers `v` as a shop customer (logged in after it) and saves a private customer's delivery
 * address at `postalCode` in Helsinki (`streetAddress`, by default Lihakuja 3). Throws with the
 * answer when either call is refused; free of the test runner, so the benchmarks use it too.
 */
export async function registerWithAddress(
  v: Visitor,
  email: string,
  password: string,
  postalCode: string,
  streetAddress = 'Lihakuja 3',
): Promise<void> {
  const registered = await v.post(`${ACCOUNT_API}/register`, json({ email, password }));
  if (registered.statusCode !== 200) {
    throw new Error(`register answered ${registered.statusCode}: ${registered.body}`);
  }
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
 * Verifies the e-mail address of the customer logged in as `v` as its owner would: opens the
 * link of the newest verification mail to `email` and presses the page's button.
 */
export async function verifyEmail(v: Visitor, email: string): Promise<void> {
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
