import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { AppError, Invalid } from '../../server/errors.ts';
import type { Lockout } from '../../server/lockout.ts';
import { hashPassword, passwordNeedsRehash, verifyPassword } from '../../server/passwords.ts';
import { openText } from '../forms/index.server.ts';
import { actorOf, changesBetween, recordAudit } from './audit.server.ts';
import { assertStaffPassword, recoveryCodeHash, replaceRecoveryCodes } from './enrolment.server.ts';
import { NotSignedIn } from './guard.server.ts';
import {
  endStaffSession,
  markVerified,
  readStaffSession,
  revokeStaffSessions,
  startStaffSession,
} from './sessions.server.ts';
import { staffMembers, staffRecoveryCodes } from './tables.ts';
import { matchTotp } from './totp.server.ts';

/**
 * Signing in (decision 130): the password first, which opens only the second step; then a TOTP
 * code or a one-time recovery code, which starts the signed-in session on a new token. Wrong
 * passwords are counted per address (10 lock the step), wrong codes per staff member (5 lock
 * it), for 15 minutes, shared by every process through Redis when it is configured.
 */

export interface LoginLimits {
  password: Lockout;
  code: Lockout;
}

export const PASSWORD_FAILURES = 10;
export const CODE_FAILURES = 5;
export const LOCK_WINDOW_MS = 15 * 60 * 1000;

export class WrongCredentials extends AppError {
  constructor(field: string, key: string) {
    super(401, 'login', 'Sign-in failed', 'The answer given is wrong.', {
      errors: { [field]: key },
    });
  }
}

const emailKey = (email: string) => email.trim().toLowerCase();

async function staffByEmail(db: Database, email: string) {
  const [row] = await db
    .select()
    .from(staffMembers)
    .where(
      and(
        sql`lower(${staffMembers.email}) = lower(${email})`,
        isNull(staffMembers.disabledAt),
        sql`${staffMembers.enrolledAt} is not null`,
      ),
    );
  return row;
}

/** The password step: 401 naming `password` when wrong (or the address unknown, alike). */
export async function passwordStep(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { email: string; password: string },
  limits: LoginLimits,
): Promise<string> {
  const db = request.server.db;
  await limits.password.check(emailKey(input.email));
  const staff = await staffByEmail(db, input.email);
  const ok = await verifyPassword(staff?.passwordHash, input.password);
  if (!staff?.passwordHash || !ok) {
    await limits.password.fail(emailKey(input.email));
    request.log.warn({ staffLogin: 'wrong password' }, 'staff sign-in refused');
    throw new WrongCredentials('password', 'admin.error.login');
  }
  const rehash = passwordNeedsRehash(staff.passwordHash)
    ? await hashPassword(input.password)
    : undefined;
  await db.transaction(async (tx) => {
    if (rehash) {
      await tx
        .update(staffMembers)
        .set({ passwordHash: rehash })
        .where(eq(staffMembers.id, staff.id));
    }
    await startStaffSession(tx, request, reply, staff.id, 'second-factor');
    await recordAudit(tx, actorOf(request, staff), {
      action: 'auth.password',
      subjectType: 'staff',
      subjectId: staff.id,
    });
  });
  return staff.id;
}

/** The staff member whose second step this request is at; 401 without one. */
async function pendingStaff(request: FastifyRequest) {
  const session = await readStaffSession(request.server.db, request);
  if (session?.stage !== 'second-factor') throw new NotSignedIn();
  return session;
}

/**
 * Takes a TOTP code for `staffId`: a code of now (±1 step) later than the last one accepted;
 * the step is stored in the same statement that checks it, so of two uses of one code one wins.
 */
async function acceptTotp(
  tx: Pick<Database, 'update'>,
  staff: { id: string; totpSecretSealed: string | null; totpLastStep: number | null },
  code: string,
  key: Buffer,
): Promise<boolean> {
  if (!staff.totpSecretSealed) return false;
  const secret = openText(key, staff.totpSecretSealed);
  const step = matchTotp(secret, code, { lastStep: staff.totpLastStep });
  if (step === null) return false;
  const [taken] = await tx
    .update(staffMembers)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(staffMembers.id, staff.id),
        or(isNull(staffMembers.totpLastStep), lt(staffMembers.totpLastStep, step)),
      ),
    )
    .returning({ id: staffMembers.id });
  return Boolean(taken);
}

async function staffRow(db: Database, id: string) {
  const [row] = await db.select().from(staffMembers).where(eq(staffMembers.id, id));
  if (!row || row.disabledAt) throw new NotSignedIn();
  return row;
}

/** The second step with a TOTP code: signed in on a new token; 401 naming `code` when wrong. */
export async function totpStep(
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  limits: LoginLimits,
): Promise<string> {
  const db = request.server.db;
  const pending = await pendingStaff(request);
  await limits.code.check(pending.staffId);
  const staff = await staffRow(db, pending.staffId);
  const done = await db.transaction(async (tx) => {
    if (!(await acceptTotp(tx, staff, code, request.server.config.forms.encryptionKey)))
      return null;
    const sessionId = await startStaffSession(tx, request, reply, staff.id, 'full');
    await recordAudit(tx, actorOf(request, staff), {
      action: 'auth.login',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: { method: { after: 'totp' } },
    });
    return sessionId;
  });
  if (!done) {
    await limits.code.fail(staff.id);
    throw new WrongCredentials('code', 'admin.error.totpWrong');
  }
  return done;
}

/** The second step with a recovery code, which is used up; 401 naming `code` when wrong. */
export async function recoveryStep(
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
  limits: LoginLimits,
  now = new Date(),
): Promise<string> {
  const db = request.server.db;
  const pending = await pendingStaff(request);
  await limits.code.check(pending.staffId);
  const staff = await staffRow(db, pending.staffId);
  const done = await db.transaction(async (tx) => {
    const [used] = await tx
      .update(staffRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(staffRecoveryCodes.staffId, staff.id),
          eq(staffRecoveryCodes.codeHash, recoveryCodeHash(code)),
          isNull(staffRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: staffRecoveryCodes.id });
    if (!used) return null;
    const left = await tx.$count(
      staffRecoveryCodes,
      and(eq(staffRecoveryCodes.staffId, staff.id), isNull(staffRecoveryCodes.usedAt)),
    );
    const sessionId = await startStaffSession(tx, request, reply, staff.id, 'full', now);
    await recordAudit(tx, actorOf(request, staff), {
      action: 'auth.login',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: {
        method: { after: 'recovery' },
        recoveryCodesLeft: { before: left + 1, after: left },
      },
    });
    return sessionId;
  });
  if (!done) {
    await limits.code.fail(staff.id);
    throw new WrongCredentials('code', 'admin.error.recoveryWrong');
  }
  return done;
}

/** Signs out: the session row goes and the cookie is cleared; audited when one was signed in. */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const db = request.server.db;
  const session = await readStaffSession(db, request);
  await db.transaction(async (tx) => {
    await endStaffSession(tx, request, reply);
    if (session?.stage === 'full') {
      await recordAudit(tx, actorOf(request, { id: session.staffId, email: session.email }), {
        action: 'auth.logout',
        subjectType: 'staff',
        subjectId: session.staffId,
      });
    }
  });
}

/**
 * Re-authentication for sensitive actions: the password or a TOTP code again opens them for 5
 * minutes. Wrong answers count towards the same lockouts as signing in.
 */
export async function reauthenticate(
  request: FastifyRequest,
  input: { password: string } | { code: string },
  limits: LoginLimits,
): Promise<void> {
  const db = request.server.db;
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  const staff = await staffRow(db, me.staffId);
  if ('password' in input) {
    await limits.password.check(emailKey(staff.email));
    if (!(await verifyPassword(staff.passwordHash, input.password))) {
      await limits.password.fail(emailKey(staff.email));
      throw new WrongCredentials('password', 'admin.error.currentPassword');
    }
  }
  await db.transaction(async (tx) => {
    if ('code' in input) {
      await limits.code.check(staff.id);
      if (!(await acceptTotp(tx, staff, input.code, request.server.config.forms.encryptionKey))) {
        await limits.code.fail(staff.id);
        throw new WrongCredentials('code', 'admin.error.totpWrong');
      }
    }
    await markVerified(tx, me.sessionId);
    await recordAudit(tx, actorOf(request), {
      action: 'auth.reauth',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: { method: { after: 'password' in input ? 'password' : 'totp' } },
    });
  });
}

/**
 * Changes the signed-in staff member's password: the current one must be right (400 naming
 * `currentPassword`), the new one must meet the rules. Every other session of theirs ends.
 */
export async function changeOwnPassword(
  request: FastifyRequest,
  input: { currentPassword: string; newPassword: string },
  limits: LoginLimits,
): Promise<void> {
  const db = request.server.db;
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  const staff = await staffRow(db, me.staffId);
  await limits.password.check(emailKey(staff.email));
  if (!(await verifyPassword(staff.passwordHash, input.currentPassword))) {
    await limits.password.fail(emailKey(staff.email));
    throw new Invalid({ currentPassword: 'admin.error.currentPassword' }, 'The password is wrong.');
  }
  assertStaffPassword(input.newPassword, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx
      .update(staffMembers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(eq(staffMembers.id, staff.id));
    await revokeStaffSessions(tx, staff.id, me.sessionId);
    await markVerified(tx, me.sessionId);
    await recordAudit(tx, actorOf(request), {
      action: 'staff.password',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: { password: { before: '…', after: '…' } },
    });
  });
}

/** Ten new recovery codes for the signed-in staff member (the old ones stop working). */
export async function newRecoveryCodes(request: FastifyRequest): Promise<string[]> {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  return request.server.db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, me.staffId);
    await recordAudit(tx, actorOf(request), {
      action: 'staff.recovery-codes',
      subjectType: 'staff',
      subjectId: me.staffId,
    });
    return codes;
  });
}

/** Saves the signed-in staff member's name and language. */
export async function updateProfile(
  request: FastifyRequest,
  input: { name: string; lang: 'fi' | 'sv' | 'en' },
): Promise<void> {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  await request.server.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ name: staffMembers.name, lang: staffMembers.lang })
      .from(staffMembers)
      .where(eq(staffMembers.id, me.staffId))
      .for('update');
    await tx
      .update(staffMembers)
      .set({ ...input, updatedAt: new Date() })
      .where(eq(staffMembers.id, me.staffId));
    await recordAudit(tx, actorOf(request), {
      action: 'staff.profile',
      subjectType: 'staff',
      subjectId: me.staffId,
      changes: changesBetween(before ?? null, input),
    });
  });
}

/** Recovery codes the staff member has not used. */
export async function recoveryCodesLeft(db: Database, staffId: string): Promise<number> {
  return db.$count(
    staffRecoveryCodes,
    and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)),
  );
}
