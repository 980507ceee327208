import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import { AppError, Invalid } from '../../../server/errors.ts';
import { hashPassword, passwordNeedsRehash, verifyPassword } from '../../../server/passwords.ts';
import type { Session } from '../../../server/plugins/sessions.ts';
import { sessions } from '../../../server/tables.ts';
import type { Lang } from '../../../sites/types.ts';
import { enqueueMail } from '../../forms/index.server.ts';
import {
  customerRegistrations,
  customers,
  emailVerificationTokens,
  passwordResetTokens,
} from '../tables.ts';
import { mergeCartsAtLogin } from './cart-merge.server.ts';
import { assertUncommonPassword, meetsPasswordRules } from './password-policy.server.ts';
import type { Address, AddressForm, Customer } from './schemas.ts';

/**
 * Shop customer accounts (decision 025): register, log in and out, password reset, and the
 * customer's own data. The session holds `customer: { loggedIn: true, id }` once logged in; the
 * navigation's header reads `loggedIn` from there.
 */

export const RESET_TTL_MS = 60 * 60 * 1000;
/** How long a registration waits for its confirmation (decision 075). */
export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

export class NotLoggedIn extends AppError {
  constructor() {
    super(401, 'unauthorized', 'Not logged in', 'Log in to use the customer account.');
  }
}

/** 401 for a wrong address or password alike: the answer does not tell which. */
export class WrongCredentials extends AppError {
  constructor() {
    super(401, 'login', 'Login failed', 'The email address or the password is wrong.', {
      errors: { password: 'account.error.login' },
    });
  }
}

export { hashPassword };

/** The logged-in customer's id stored in the session's data, if any. */
export function customerIdOf(data: Record<string, unknown>): string | null {
  const customer = data.customer;
  if (typeof customer !== 'object' || customer === null) return null;
  const { loggedIn, id } = customer as { loggedIn?: unknown; id?: unknown };
  return loggedIn === true && typeof id === 'string' ? id : null;
}

/**
 * Whether the session's customer logged in with a password that the current rules would refuse
 * (decision 077): Oma tili then asks for a new one.
 */
export function passwordOutdatedOf(data: Record<string, unknown>): boolean {
  const customer = data.customer as { passwordOutdated?: unknown } | null | undefined;
  return customer?.passwordOutdated === true;
}

export async function sessionCustomerId(session: Session | undefined): Promise<string | null> {
  if (!session || session.isNew) return null;
  return customerIdOf(await session.get());
}

/**
 * Starts the customer's session: a new session token (the old one stops working), the customer
 * in its data, and the cart kept: the guest cart of the old session merges into the customer's
 * saved cart, in the same transaction (see `mergeCartsAtLogin`).
 */
async function startCustomerSession(
  session: Session,
  customerId: string,
  siteId: string,
  lang: Lang,
  passwordOutdated = false,
): Promise<void> {
  const data = await session.get();
  await session.regenerate(
    {
      ...data,
      customer: {
        loggedIn: true,
        id: customerId,
        ...(passwordOutdated ? { passwordOutdated } : {}),
      },
    },
    (tx, oldId, newId) =>
      mergeCartsAtLogin(tx, { customerId, siteId, lang, oldSessionId: oldId, newSessionId: newId }),
  );
}

export interface AccountContext {
  db: Database;
  session: Session;
  siteId: string;
  lang: Lang;
}

/** The shop's pages that the account mails link to, as absolute URLs. */
export interface AccountMailLinks {
  confirmPage: string;
  loginPage: string;
  resetRequestPage: string;
}

/**
 * Registration (decision 075): answers nothing about the address. Whether or not it has an
 * account, the password is hashed (so both take about as long) and one mail goes to the address,
 * in `lang`: for a new address a link that creates the account (`confirmRegistration`); for a
 * taken one a note to its owner that someone tried, with the login and password-reset links. No
 * account exists and nobody is logged in until the link is used. Registrations past their time
 * are deleted on the way.
 */
export async function register(
  db: Database,
  input: { email: string; password: string; returnPath: string | null },
  options: { lang: Lang; links: AccountMailLinks; mailKey: Buffer; now?: Date },
): Promise<void> {
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const now = options.now ?? new Date();
  const t = serverT(options.lang);
  await db.transaction(async (tx) => {
    await tx.delete(customerRegistrations).where(lte(customerRegistrations.expiresAt, now));
    const [owner] = await tx
      .select({ email: customers.email })
      .from(customers)
      .where(sql`lower(${customers.email}) = lower(${input.email})`);
    if (owner) {
      await enqueueMail(tx, options.mailKey, {
        to: owner.email,
        subject: t('account.register.takenMailSubject'),
        text: t('account.register.takenMailBody', {
          loginUrl: options.links.loginPage,
          resetUrl: options.links.resetRequestPage,
        }),
      });
      return;
    }
    const link = newLink(options.links.confirmPage);
    await tx.insert(customerRegistrations).values({
      tokenHash: link.tokenHash,
      email: input.email,
      passwordHash,
      returnPath: input.returnPath,
      expiresAt: new Date(now.getTime() + REGISTRATION_TTL_MS),
    });
    await mailLink(tx, options.mailKey, {
      to: input.email,
      lang: options.lang,
      subject: 'account.register.mailSubject',
      body: 'account.register.mailBody',
      url: link.url,
    });
  });
}

/**
 * Creates the account of a registration from its mailed link's token and logs it in (the guest
 * cart kept, as at login). The registration's row is deleted in the transaction that creates the
 * account, with every other waiting registration of the address: a link works once, and of two
 * uses at once one wins. 400 naming `token` for an unknown, used or expired link, or when the
 * address got an account meanwhile (only the address's owner has the link, so it may say so).
 * Answers the new customer's id and the local page to go back to, if the registration named one.
 * The account starts with its address verified: the link reached the mailbox (decision 083).
 */
export async function confirmRegistration(
  ctx: AccountContext,
  token: string,
  now: Date = new Date(),
): Promise<{ customerId: string; returnPath: string | null }> {
  const created = await ctx.db.transaction(async (tx) => {
    const [pending] = await tx
      .delete(customerRegistrations)
      .where(liveLink(customerRegistrations, token, now))
      .returning();
    if (!pending) return 'unknown' as const;
    await tx
      .delete(customerRegistrations)
      .where(sql`lower(${customerRegistrations.email}) = lower(${pending.email})`);
    const [row] = await tx
      .insert(customers)
      .values({ email: pending.email, passwordHash: pending.passwordHash, emailVerifiedAt: now })
      .onConflictDoNothing()
      .returning({ id: customers.id });
    return row ? { customerId: row.id, returnPath: pending.returnPath } : ('taken' as const);
  });
  if (created === 'unknown') {
    throw new Invalid(
      { token: 'account.error.registrationToken' },
      'The confirmation link is unknown, used or expired.',
    );
  }
  if (created === 'taken') {
    throw new Invalid({ token: 'account.error.emailTaken' }, 'The address has an account.');
  }
  await startCustomerSession(ctx.session, created.customerId, ctx.siteId, ctx.lang);
  return created;
}

/**
 * How to mail a verification link (decision 082), for accounts whose address is not verified:
 * those made before registration went through a mailed link (decision 083). The page it opens
 * and the outbox's key.
 */
export interface VerificationMail {
  /** `/sahkoposti/vahvista` on the shop's canonical host. */
  pageUrl: string;
  mailKey: Buffer;
}

/** How long a verification link works. */
export const VERIFY_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Verification mails one account may be sent in `VERIFY_MAIL_WINDOW_MS`. */
export const VERIFY_MAILS_PER_WINDOW = 3;
export const VERIFY_MAIL_WINDOW_MS = 15 * 60 * 1000;

/**
 * Puts a verification link for the customer's address in the outbox, in the caller's
 * transaction: 32 random bytes, only their SHA-256 stored with the address it went to, for
 * `VERIFY_TTL_MS` (decision 082).
 */
async function mailVerificationLink(
  tx: Database | Transaction,
  customer: { id: string; email: string },
  lang: Lang,
  mail: VerificationMail,
  now: Date,
): Promise<void> {
  const link = newLink(mail.pageUrl);
  await tx.insert(emailVerificationTokens).values({
    tokenHash: link.tokenHash,
    customerId: customer.id,
    email: customer.email,
    expiresAt: new Date(now.getTime() + VERIFY_TTL_MS),
  });
  await mailLink(tx, mail.mailKey, {
    to: customer.email,
    lang,
    subject: 'account.verify.mailSubject',
    body: 'account.verify.mailBody',
    url: link.url,
  });
}

/** Whether the customer's e-mail address is verified. */
export async function emailVerified(db: Database, customerId: string): Promise<boolean> {
  const [row] = await db
    .select({ at: customers.emailVerifiedAt })
    .from(customers)
    .where(eq(customers.id, customerId));
  return Boolean(row?.at);
}

/**
 * Mails the customer a new verification link, unless the address is verified already or the
 * account was sent `VERIFY_MAILS_PER_WINDOW` in the last `VERIFY_MAIL_WINDOW_MS` (counted in the
 * database, under the customer's row lock, so every process counts the same). Answers what
 * happened; the caller tells the customer the same either way but `verified`.
 */
export async function resendVerification(
  db: Database,
  input: { customerId: string; lang: Lang; mail: VerificationMail; now?: Date },
): Promise<'sent' | 'verified' | 'limited'> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [customer] = await tx
      .select({
        id: customers.id,
        email: customers.email,
        verifiedAt: customers.emailVerifiedAt,
      })
      .from(customers)
      .where(eq(customers.id, input.customerId))
      .for('update');
    if (!customer) throw new NotLoggedIn();
    if (customer.verifiedAt) return 'verified';
    const since = new Date(now.getTime() - VERIFY_MAIL_WINDOW_MS);
    const recent = await tx.$count(
      emailVerificationTokens,
      and(
        eq(emailVerificationTokens.customerId, customer.id),
        gt(emailVerificationTokens.createdAt, since),
      ),
    );
    if (recent >= VERIFY_MAILS_PER_WINDOW) return 'limited';
    await tx
      .delete(emailVerificationTokens)
      .where(expiredLinksOf(emailVerificationTokens, customer.id, now));
    await mailVerificationLink(tx, customer, input.lang, input.mail, now);
    return 'sent';
  });
}

/**
 * Verifies an address with a link's token: the token is used by a conditional delete of its row
 * (live, not expired), so it works once; the account is verified only while its address is still
 * the one the link went to. 400 naming `token` otherwise; nothing is written then.
 */
export async function confirmEmail(
  db: Database,
  token: string,
  now: Date = new Date(),
): Promise<string> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(emailVerificationTokens)
      .where(liveLink(emailVerificationTokens, token, now))
      .returning({
        customerId: emailVerificationTokens.customerId,
        email: emailVerificationTokens.email,
      });
    const [customer] = used
      ? await tx
          .update(customers)
          .set({ emailVerifiedAt: sql`coalesce(${customers.emailVerifiedAt}, ${now})` })
          .where(
            and(
              eq(customers.id, used.customerId),
              sql`lower(${customers.email}) = lower(${used.email})`,
            ),
          )
          .returning({ id: customers.id })
      : [];
    if (!customer) {
      throw new Invalid(
        { token: 'account.error.verifyToken' },
        'The verification link is unknown, used or expired.',
      );
    }
    return customer.id;
  });
}

async function customerByEmail(db: Database, email: string) {
  const [row] = await db
    .select({
      id: customers.id,
      passwordHash: customers.passwordHash,
      lockedAt: customers.lockedAt,
    })
    .from(customers)
    .where(sql`lower(${customers.email}) = lower(${email})`);
  return row;
}

/**
 * Logs in: 401 for an unknown address, a wrong password or an account staff locked (decision
 * 146) — the same answer and about the same time.
 */
export async function logIn(
  ctx: AccountContext,
  input: { email: string; password: string },
): Promise<string> {
  const customer = await customerByEmail(ctx.db, input.email);
  const ok = await verifyPassword(customer?.passwordHash, input.password);
  if (!customer || !ok || customer.lockedAt) throw new WrongCredentials();
  if (passwordNeedsRehash(customer.passwordHash)) {
    await ctx.db
      .update(customers)
      .set({ passwordHash: await hashPassword(input.password) })
      .where(eq(customers.id, customer.id));
  }
  await startCustomerSession(
    ctx.session,
    customer.id,
    ctx.siteId,
    ctx.lang,
    !meetsPasswordRules(input.password),
  );
  return customer.id;
}

/**
 * Changes the logged-in customer's password (decision 077, ASVS 2.1.5 and 2.1.6): the current
 * password must be right (400 naming `currentPassword`), the new one must meet the rules (400
 * naming `newPassword`). In one transaction the hash changes and the account's reset links and
 * every other session go (a stolen session does not outlive the change); this session stays.
 */
export async function changePassword(
  ctx: AccountContext,
  customerId: string,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const [row] = await ctx.db
    .select({ passwordHash: customers.passwordHash })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw new NotLoggedIn();
  if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
    throw new Invalid(
      { currentPassword: 'account.error.currentPassword' },
      'The current password is wrong.',
    );
  }
  assertUncommonPassword(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(customers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(customers.id, customerId));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.customerId, customerId));
    await tx
      .delete(sessions)
      .where(
        and(
          sql`${sessions.data}->'customer'->>'id' = ${customerId}`,
          ne(sessions.id, ctx.session.id),
        ),
      );
  });
  const data = await ctx.session.get();
  if (passwordOutdatedOf(data)) {
    await ctx.session.set({ ...data, customer: { loggedIn: true, id: customerId } });
  }
}

/**
 * Logs out: the session row goes (its saved cart stays with the account, decision 025); the
 * browser's token is worthless, and the next change gets a fresh one.
 */
export async function logOut(session: Session): Promise<void> {
  if (session.isNew) return;
  await session.clear();
}

/** The stored form of a mailed link's token (reset, registration, verification): its SHA-256. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new mailed link to `page`: 32 random bytes in its `token` parameter, of which only the hash
 * is stored (`tokenHash`).
 */
function newLink(page: string): { tokenHash: string; url: string } {
  const token = randomBytes(32).toString('base64url');
  const url = new URL(page);
  url.searchParams.set('token', token);
  return { tokenHash: hashResetToken(token), url: url.href };
}

/** Puts a mail with a link in the outbox, in the caller's transaction; `body` places `{url}`. */
async function mailLink(
  tx: Database | Transaction,
  mailKey: Buffer,
  mail: { to: string; lang: Lang; subject: MessageKey; body: MessageKey; url: string },
): Promise<void> {
  const t = serverT(mail.lang);
  await enqueueMail(tx, mailKey, {
    to: mail.to,
    subject: t(mail.subject),
    text: t(mail.body, { url: mail.url }),
  });
}

/** The tables of mailed links' tokens. */
type LinkTable =
  | typeof customerRegistrations
  | typeof emailVerificationTokens
  | typeof passwordResetTokens;

/** The row of a link's token while the link works: used by deleting it, so it works once. */
function liveLink(table: LinkTable, token: string, now: Date): SQL | undefined {
  return and(eq(table.tokenHash, hashResetToken(token)), gt(table.expiresAt, now));
}

/** A customer's links that no longer work. */
function expiredLinksOf(
  table: typeof emailVerificationTokens | typeof passwordResetTokens,
  customerId: string,
  now: Date,
): SQL | undefined {
  return and(eq(table.customerId, customerId), lte(table.expiresAt, now));
}

/**
 * Sends a reset link when the address has an account; answers the same either way (the caller
 * cannot tell). The token is 32 random bytes; only its hash is stored, for `RESET_TTL_MS`.
 */
export async function requestPasswordReset(
  db: Database,
  options: {
    email: string;
    lang: Lang;
    resetPageUrl: string;
    mailKey: Buffer;
    now?: Date;
    /** Written in the transaction that stores the link and its mail (a staff member's audit row). */
    alsoWrite?: (tx: Transaction) => Promise<void>;
  },
): Promise<void> {
  const now = options.now ?? new Date();
  const [customer] = await db
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(sql`lower(${customers.email}) = lower(${options.email})`);
  if (!customer) return;
  const link = newLink(options.resetPageUrl);
  await db.transaction(async (tx) => {
    await tx
      .delete(passwordResetTokens)
      .where(expiredLinksOf(passwordResetTokens, customer.id, now));
    await tx.insert(passwordResetTokens).values({
      tokenHash: link.tokenHash,
      customerId: customer.id,
      expiresAt: new Date(now.getTime() + RESET_TTL_MS),
    });
    await mailLink(tx, options.mailKey, {
      to: customer.email,
      lang: options.lang,
      subject: 'account.reset.mailSubject',
      body: 'account.reset.mailBody',
      url: link.url,
    });
    await options.alsoWrite?.(tx);
  });
}

/**
 * Sets a new password with a reset token. The token is used by a conditional delete of its row
 * (live, not expired) in the transaction that sets the password: of two uses at once one wins,
 * the other finds no row. The customer's other reset tokens and every session go with it (a
 * stolen session does not outlive the reset). 400 naming `token` for an unknown, used or
 * expired token; nothing is written then.
 */
export async function resetPassword(
  db: Database,
  input: { token: string; password: string },
  now: Date = new Date(),
): Promise<string> {
  assertUncommonPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(passwordResetTokens)
      .where(liveLink(passwordResetTokens, input.token, now))
      .returning({ customerId: passwordResetTokens.customerId });
    if (!used)
      throw new Invalid(
        { token: 'account.error.resetToken' },
        'The reset link is unknown, used or expired.',
      );
    // The reset link reached the mailbox: that verifies the address as a verification link would.
    await tx
      .update(customers)
      .set({
        passwordHash,
        updatedAt: now,
        emailVerifiedAt: sql`coalesce(${customers.emailVerifiedAt}, ${now})`,
      })
      .where(eq(customers.id, used.customerId));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.customerId, used.customerId));
    await tx.delete(sessions).where(sql`${sessions.data}->'customer'->>'id' = ${used.customerId}`);
    return used.customerId;
  });
}

const emptyAddress: Address = {
  firstName: '',
  lastName: '',
  streetAddress: '',
  postalCode: '',
  city: '',
};

const visitor: Customer = {
  loggedIn: false,
  loading: false,
  email: '',
  deliveryAddress: emptyAddress,
  billingAddress: emptyAddress,
  phoneCountryCode: '+358',
  phoneNumber: '',
  isPrivateCustomer: false,
  additionalInformation: '',
};

/** The customer as `GET /api/lk/customer` answers it; empty fields for a visitor. */
export async function customerAnswer(db: Database, customerId: string | null): Promise<Customer> {
  if (!customerId) return visitor;
  const [row] = await db.select().from(customers).where(eq(customers.id, customerId));
  if (!row) return visitor;
  return {
    loggedIn: true,
    loading: false,
    email: row.email,
    deliveryAddress: row.deliveryAddress ?? emptyAddress,
    billingAddress: row.billingAddress ?? emptyAddress,
    phoneCountryCode: row.phoneCountryCode,
    phoneNumber: row.phoneNumber,
    isPrivateCustomer: row.isPrivateCustomer,
    additionalInformation: row.additionalInformation,
  };
}

/** The delivery street address of a customer, '' when none (the header's cart summary). */
export async function deliveryStreetOf(db: Database, customerId: string): Promise<string> {
  const [row] = await db
    .select({ address: customers.deliveryAddress })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.address?.streetAddress ?? '';
}

/**
 * Saves the address form (spec §3): the delivery address, phone and private-customer flag; the
 * billing address follows the delivery address until the customer has one of its own. One
 * statement. Answers the delivery address.
 */
export async function saveAddress(
  db: Database,
  customerId: string,
  form: AddressForm,
): Promise<Address> {
  const delivery: Address = {
    firstName: form.firstName,
    lastName: form.lastName,
    streetAddress: form.streetAddress,
    postalCode: form.postalCode,
    city: form.city,
  };
  const [row] = await db
    .update(customers)
    .set({
      deliveryAddress: delivery,
      billingAddress: sql`coalesce(${customers.billingAddress}, ${JSON.stringify(delivery)}::jsonb)`,
      phoneCountryCode: form.phoneCountryCode,
      phoneNumber: form.phoneNumber,
      isPrivateCustomer: form.isPrivateCustomer,
      updatedAt: new Date(),
    })
    .where(eq(customers.id, customerId))
    .returning({ id: customers.id });
  if (!row) throw new NotLoggedIn();
  return delivery;
}
