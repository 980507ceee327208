import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { Database, Transaction } from '../../db/client.ts';
import { adminT } from '../../i18n/admin.ts';
import { Invalid } from '../../server/errors.ts';
import { hashPassword, isCommonPassword } from '../../server/passwords.ts';
import { getSite } from '../../sites/registry.ts';
import { enqueueMail, openText, sealText } from '../forms/index.server.ts';
import { type Actor, changesBetween, recordAudit } from './audit.server.ts';
import { isPermission } from './permissions.ts';
import type { Grant } from './schemas.ts';
import { revokeStaffSessions, startStaffSession } from './sessions.server.ts';
import {
  staffGrants,
  staffMembers,
  staffRecoveryCodes,
  staffRoles,
  staffTokens,
} from './tables.ts';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp.server.ts';

/**
 * Staff accounts come into being without a password (decision 130): an administrator (or the
 * `npm run staff` command for the first one) names the person and their grants, and a one-time
 * enrolment link lets that person set a password and a TOTP authenticator; only then can they
 * sign in. The same link, made again, replaces a lost authenticator.
 */

export const ENROL_TTL_MS = 72 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A recovery code as shown: ten of `a–z0–9` (51 bits) in two groups, `k3x9q-7mz2p`. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

export function recoveryCodeHash(code: string): string {
  return tokenHash(code.replace(/[\s-]/g, '').toLowerCase());
}

/** Replaces the staff member's recovery codes with ten new ones; answers them (shown once). */
export async function replaceRecoveryCodes(tx: Transaction, staffId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await tx
    .insert(staffRecoveryCodes)
    .values(codes.map((code) => ({ staffId, codeHash: recoveryCodeHash(code) })));
  return codes;
}

/** Refuses a password from the list of common and breached ones: 400 naming `field`. */
export function assertStaffPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) {
    throw new Invalid({ [field]: 'admin.error.passwordCommon' }, 'The password is too common.');
  }
}

/** Checks the grants: known roles, known sites and languages. 400 naming `grants` otherwise. */
export async function checkGrants(
  tx: Transaction | Database,
  grants: readonly Grant[],
): Promise<void> {
  const keys = [...new Set(grants.map((g) => g.role))];
  const known = keys.length
    ? await tx.select({ key: staffRoles.key }).from(staffRoles).where(inArray(staffRoles.key, keys))
    : [];
  if (known.length !== keys.length) {
    throw new Invalid({ grants: 'admin.error.role' }, 'A grant names an unknown role.');
  }
  for (const grant of grants) {
    for (const site of grant.sites ?? []) {
      if (!getSite(site)) throw new Invalid({ grants: 'admin.error.site' }, `No site ${site}.`);
    }
  }
}

/** Writes a one-time link's token (only its hash is kept) and answers the link. */
async function issueToken(
  tx: Transaction,
  staffId: string,
  purpose: 'enrol' | 'reset',
  baseUrl: string,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + (purpose === 'enrol' ? ENROL_TTL_MS : RESET_TTL_MS));
  await tx
    .delete(staffTokens)
    .where(and(eq(staffTokens.staffId, staffId), eq(staffTokens.purpose, purpose)));
  await tx
    .insert(staffTokens)
    .values({ tokenHash: tokenHash(token), staffId, purpose, expiresAt, createdAt: now });
  // The token travels in the fragment: never sent to a server, never in a log or a Referer.
  const page = purpose === 'enrol' ? 'enrol' : 'reset';
  return { url: `${baseUrl.replace(/\/+$/, '')}/${page}#${token}`, expiresAt };
}

export interface NewStaff {
  /** Given only by tests that make one person in two databases. */
  id?: string;
  email: string;
  name: string;
  lang: 'fi' | 'sv' | 'en';
  grants: Grant[];
}

/**
 * Creates a staff member with their grants and an enrolment link (72 hours), mailed to them in
 * their language through the outbox when `mailKey` is given; audited in the same transaction.
 * 400 naming `email` when the address has a staff account.
 */
export async function createStaff(
  db: Database,
  input: NewStaff,
  options: { actor: Actor; adminUrl: string; mailKey?: Buffer; now?: Date },
): Promise<{ id: string; enrolmentUrl: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    await checkGrants(tx, input.grants);
    const [row] = await tx
      .insert(staffMembers)
      .values({
        ...(input.id ? { id: input.id } : {}),
        email: input.email,
        name: input.name,
        lang: input.lang,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: staffMembers.id });
    if (!row) throw new Invalid({ email: 'admin.error.emailTaken' }, 'The address has an account.');
    if (input.grants.length) {
      await tx.insert(staffGrants).values(
        input.grants.map((g) => ({
          staffId: row.id,
          roleKey: g.role,
          sites: g.sites,
          langs: g.langs,
        })),
      );
    }
    const link = await sendEnrolmentLink(tx, { ...input, id: row.id }, options, now);
    await recordAudit(tx, options.actor, {
      action: 'staff.create',
      subjectType: 'staff',
      subjectId: row.id,
      changes: changesBetween(null, {
        email: input.email,
        name: input.name,
        lang: input.lang,
        grants: input.grants,
      }),
    });
    return { id: row.id, enrolmentUrl: link.url, expiresAt: link.expiresAt };
  });
}

/** Issues a one-time enrolment link for a staff member and, with a mail key, mails it to them. */
async function sendEnrolmentLink(
  tx: Transaction,
  staff: { id: string; email: string; name: string; lang: Parameters<typeof adminT>[0] },
  options: { adminUrl: string; mailKey?: Buffer },
  now: Date,
) {
  const link = await issueToken(tx, staff.id, 'enrol', options.adminUrl, now);
  if (options.mailKey) {
    const t = adminT(staff.lang);
    await enqueueMail(tx, options.mailKey, {
      to: staff.email,
      subject: t('admin.mail.enrolSubject'),
      text: t('admin.mail.enrolBody', { name: staff.name, url: link.url }),
    });
  }
  return link;
}

/** A new enrolment link for an existing staff member (a lost authenticator); audited. */
export async function newEnrolmentLink(
  db: Database,
  staffId: string,
  options: { actor: Actor; adminUrl: string; mailKey?: Buffer; now?: Date },
): Promise<{ id: string; enrolmentUrl: string; expiresAt: Date } | null> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [staff] = await tx
      .select({
        id: staffMembers.id,
        email: staffMembers.email,
        name: staffMembers.name,
        lang: staffMembers.lang,
      })
      .from(staffMembers)
      .where(eq(staffMembers.id, staffId));
    if (!staff) return null;
    const link = await sendEnrolmentLink(tx, staff, options, now);
    await recordAudit(tx, options.actor, {
      action: 'staff.enrolment-link',
      subjectType: 'staff',
      subjectId: staff.id,
    });
    return { id: staff.id, enrolmentUrl: link.url, expiresAt: link.expiresAt };
  });
}

const badToken = () =>
  new Invalid({ token: 'admin.error.token' }, 'The link is unknown, used or expired.');

async function liveToken(
  tx: Transaction | Database,
  token: string,
  purpose: 'enrol' | 'reset',
  now: Date,
) {
  const [row] = await tx
    .select({
      staffId: staffTokens.staffId,
      secretSealed: staffTokens.totpSecretSealed,
      email: staffMembers.email,
      name: staffMembers.name,
      lang: staffMembers.lang,
      disabledAt: staffMembers.disabledAt,
    })
    .from(staffTokens)
    .innerJoin(staffMembers, eq(staffMembers.id, staffTokens.staffId))
    .where(
      and(
        eq(staffTokens.tokenHash, tokenHash(token)),
        eq(staffTokens.purpose, purpose),
        gt(staffTokens.expiresAt, now),
      ),
    );
  if (!row || row.disabledAt) throw badToken();
  return row;
}

/**
 * Opens an enrolment link: the person's address and name, and the TOTP secret offered to them
 * (made on the first open and kept with the link, so opening it again shows the same QR code).
 */
export async function openEnrolment(db: Database, token: string, key: Buffer, now = new Date()) {
  return db.transaction(async (tx) => {
    const row = await liveToken(tx, token, 'enrol', now);
    let secret = row.secretSealed ? openText(key, row.secretSealed) : undefined;
    if (!secret) {
      secret = newTotpSecret();
      await tx
        .update(staffTokens)
        .set({ totpSecretSealed: sealText(key, secret) })
        .where(eq(staffTokens.tokenHash, tokenHash(token)));
    }
    const url = otpauthUrl(secret, row.email);
    const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    const lang = row.lang === 'sv' || row.lang === 'en' ? row.lang : ('fi' as const);
    return { email: row.email, name: row.name, lang, secret, otpauthUrl: url, qrSvg };
  });
}

/**
 * Completes an enrolment: the first code of the offered secret proves the authenticator works;
 * then, in one transaction, the password and the secret are set, the link is used up, ten new
 * recovery codes replace any old ones, every other session ends, and this browser is signed in.
 * 400 naming `token`, `password` or `code` otherwise (nothing is written then).
 */
export async function completeEnrolment(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { token: string; password: string; code: string },
  key: Buffer,
  now = new Date(),
): Promise<string[]> {
  assertStaffPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return request.server.db.transaction(async (tx) => {
    const [used] = await tx
      .delete(staffTokens)
      .where(
        and(
          eq(staffTokens.tokenHash, tokenHash(input.token)),
          eq(staffTokens.purpose, 'enrol'),
          gt(staffTokens.expiresAt, now),
        ),
      )
      .returning({ staffId: staffTokens.staffId, secretSealed: staffTokens.totpSecretSealed });
    if (!used?.secretSealed) throw badToken();
    const secret = openText(key, used.secretSealed);
    const step = matchTotp(secret, input.code, { now: now.getTime() });
    if (step === null) {
      throw new Invalid({ code: 'admin.error.totpWrong' }, 'The code does not match the secret.');
    }
    const [staff] = await tx
      .update(staffMembers)
      .set({
        passwordHash,
        totpSecretSealed: sealText(key, secret),
        totpLastStep: step,
        enrolledAt: now,
        updatedAt: now,
      })
      .where(and(eq(staffMembers.id, used.staffId), sql`${staffMembers.disabledAt} is null`))
      .returning({ id: staffMembers.id, email: staffMembers.email });
    if (!staff) throw badToken();
    const codes = await replaceRecoveryCodes(tx, staff.id);
    await revokeStaffSessions(tx, staff.id);
    await startStaffSession(tx, request, reply, staff.id, 'full', now);
    await recordAudit(
      tx,
      { staffId: staff.id, label: staff.email, ip: request.ip, requestId: request.id },
      {
        action: 'staff.enrol',
        subjectType: 'staff',
        subjectId: staff.id,
        changes: { password: { after: '…' }, totp: { after: '…' } },
      },
    );
    return codes;
  });
}

/**
 * Mails a password reset link (one hour) when the address belongs to an enrolled, active staff
 * member; answers the same either way. The reset sets the password only: the second factor is
 * still needed to sign in.
 */
export async function requestStaffReset(
  db: Database,
  email: string,
  options: { adminUrl: string; mailKey: Buffer; ip: string; requestId: string; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  const [staff] = await db
    .select({ id: staffMembers.id, email: staffMembers.email, lang: staffMembers.lang })
    .from(staffMembers)
    .where(
      and(
        sql`lower(${staffMembers.email}) = lower(${email})`,
        sql`${staffMembers.enrolledAt} is not null`,
        sql`${staffMembers.disabledAt} is null`,
      ),
    );
  if (!staff) return;
  await db.transaction(async (tx) => {
    const link = await issueToken(tx, staff.id, 'reset', options.adminUrl, now);
    const t = adminT(staff.lang);
    await enqueueMail(tx, options.mailKey, {
      to: staff.email,
      subject: t('admin.mail.resetSubject'),
      text: t('admin.mail.resetBody', { url: link.url }),
    });
    await recordAudit(
      tx,
      { staffId: staff.id, label: staff.email, ip: options.ip, requestId: options.requestId },
      { action: 'auth.reset-requested', subjectType: 'staff', subjectId: staff.id },
    );
  });
}

/** Sets a new password with a reset link's token; every session of the person ends. */
export async function resetStaffPassword(
  db: Database,
  input: { token: string; password: string },
  options: { ip: string; requestId: string; now?: Date },
): Promise<void> {
  const now = options.now ?? new Date();
  assertStaffPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  await db.transaction(async (tx) => {
    const [used] = await tx
      .delete(staffTokens)
      .where(
        and(
          eq(staffTokens.tokenHash, tokenHash(input.token)),
          eq(staffTokens.purpose, 'reset'),
          gt(staffTokens.expiresAt, now),
        ),
      )
      .returning({ staffId: staffTokens.staffId });
    if (!used) throw badToken();
    const [staff] = await tx
      .update(staffMembers)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(staffMembers.id, used.staffId), sql`${staffMembers.disabledAt} is null`))
      .returning({ id: staffMembers.id, email: staffMembers.email });
    if (!staff) throw badToken();
    await revokeStaffSessions(tx, staff.id);
    await recordAudit(
      tx,
      { staffId: staff.id, label: staff.email, ip: options.ip, requestId: options.requestId },
      {
        action: 'staff.password-reset',
        subjectType: 'staff',
        subjectId: staff.id,
        changes: { password: { before: '…', after: '…' } },
      },
    );
  });
}

/** Keeps only the permissions the code names (a role row may hold an old one). */
export function knownPermissions(list: readonly string[]) {
  return list.filter(isPermission);
}
