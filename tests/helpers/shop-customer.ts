import { desc, eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/db/schema.ts';
import { openText } from '../../src/features/forms/crypto.server.ts';
import { ACCOUNT_API, CUSTOMER_API } from '../../src/features/shop/customer/schemas.ts';
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
 * address at `postalCode` in Helsinki. Throws with the answer when any call is refused.
 */
export async function registerWithAddress(
  v: Visitor,
  email: string,
  password: string,
  postalCode: string,
): Promise<void> {
  await registerCustomer(v, email, password);
  const address = await v.post(
    CUSTOMER_API,
    json({
      firstName: 'Maija',
      lastName: 'Meikäläinen',
      streetAddress: 'Lihakuja 3',
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
