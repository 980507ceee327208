import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { staffMembers, staffSessions } from './tables.ts';

/**
 * Staff sessions (decision 130): a cookie of their own, apart from the visitors' session, HttpOnly
 * and SameSite=Strict, `__Host-` prefixed and Secure over HTTPS; the row is keyed by the SHA-256
 * of the token. Signed in: 30 minutes idle, 12 hours at most. Between the password and the code
 * the session is `second-factor` for at most 5 minutes and opens nothing but the code step.
 */

export const IDLE_MS = 30 * 60 * 1000;
export const ABSOLUTE_MS = 12 * 60 * 60 * 1000;
export const SECOND_FACTOR_MS = 5 * 60 * 1000;
/** last_seen_at is written at most this often: an idle timeout needs no write per request. */
const TOUCH_MS = 60 * 1000;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export type StaffStage = 'second-factor' | 'full';

export interface StaffSession {
  id: string;
  staffId: string;
  stage: StaffStage;
  verifiedAt: Date;
  expiresAt: Date;
  email: string;
  name: string;
  lang: 'fi' | 'sv' | 'en';
}

/** The cookie's name: `__Host-` prefixed where the browser takes it (HTTPS). */
export function staffCookieName(request: FastifyRequest): string {
  return request.protocol === 'https' ? '__Host-kattaus_staff' : 'kattaus_staff';
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function cookieOptions(request: FastifyRequest, maxAgeSeconds: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: request.protocol === 'https',
    maxAge: Math.max(0, Math.floor(maxAgeSeconds)),
  };
}

/** The staff session of the request's cookie, live (neither idle too long nor past its end). */
export async function readStaffSession(
  db: Database,
  request: FastifyRequest,
  now = new Date(),
): Promise<StaffSession | null> {
  const token = request.cookies[staffCookieName(request)];
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const id = hashToken(token);
  const [row] = await db
    .select({
      id: staffSessions.id,
      staffId: staffSessions.staffId,
      stage: staffSessions.stage,
      verifiedAt: staffSessions.verifiedAt,
      expiresAt: staffSessions.expiresAt,
      lastSeenAt: staffSessions.lastSeenAt,
      email: staffMembers.email,
      name: staffMembers.name,
      lang: staffMembers.lang,
      disabledAt: staffMembers.disabledAt,
    })
    .from(staffSessions)
    .innerJoin(staffMembers, eq(staffMembers.id, staffSessions.staffId))
    .where(and(eq(staffSessions.id, id), gt(staffSessions.expiresAt, now)));
  if (!row || row.disabledAt) return null;
  if (row.stage === 'full' && now.getTime() - row.lastSeenAt.getTime() > IDLE_MS) return null;
  if (row.stage === 'full' && now.getTime() - row.lastSeenAt.getTime() > TOUCH_MS) {
    await db.update(staffSessions).set({ lastSeenAt: now }).where(eq(staffSessions.id, id));
  }
  return {
    id: row.id,
    staffId: row.staffId,
    stage: row.stage as StaffStage,
    verifiedAt: row.verifiedAt,
    expiresAt: row.expiresAt,
    email: row.email,
    name: row.name,
    lang: row.lang as StaffSession['lang'],
  };
}

type Writer = Pick<Database, 'insert' | 'delete' | 'update'>;

/**
 * Starts a session for the staff member at `stage` on a new token (the old session, if the
 * request had one, is deleted: a token planted before the login is worthless after it), in the
 * caller's transaction; sets the cookie on the reply.
 */
export async function startStaffSession(
  tx: Writer,
  request: FastifyRequest,
  reply: FastifyReply,
  staffId: string,
  stage: StaffStage,
  now = new Date(),
): Promise<string> {
  const old = request.cookies[staffCookieName(request)];
  if (old && TOKEN_PATTERN.test(old)) {
    await tx.delete(staffSessions).where(eq(staffSessions.id, hashToken(old)));
  }
  const token = randomBytes(32).toString('base64url');
  const lifetime = stage === 'full' ? ABSOLUTE_MS : SECOND_FACTOR_MS;
  const id = hashToken(token);
  await tx.insert(staffSessions).values({
    id,
    staffId,
    stage,
    createdAt: now,
    lastSeenAt: now,
    verifiedAt: now,
    expiresAt: new Date(now.getTime() + lifetime),
    ip: request.ip,
  });
  reply.setCookie(staffCookieName(request), token, cookieOptions(request, lifetime / 1000));
  return id;
}

/** Ends the request's staff session and clears the cookie. */
export async function endStaffSession(
  db: Writer,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = request.cookies[staffCookieName(request)];
  if (token && TOKEN_PATTERN.test(token)) {
    await db.delete(staffSessions).where(eq(staffSessions.id, hashToken(token)));
  }
  reply.clearCookie(staffCookieName(request), { path: '/' });
}

/**
 * Revokes every session of a staff member (a password or role change, a disabled account), but
 * `except` (the session that made the change, when it is their own).
 */
export async function revokeStaffSessions(
  tx: Writer,
  staffId: string,
  except?: string,
): Promise<void> {
  await tx
    .delete(staffSessions)
    .where(
      except
        ? and(eq(staffSessions.staffId, staffId), ne(staffSessions.id, except))
        : eq(staffSessions.staffId, staffId),
    );
}

/** The password or a code was given again: sensitive actions are open for `config.staffReauthMs`. */
export async function markVerified(db: Writer, sessionId: string, now = new Date()) {
  await db.update(staffSessions).set({ verifiedAt: now }).where(eq(staffSessions.id, sessionId));
}

/** Deletes sessions past their end or idle too long (the hourly clean-up job). */
export async function deleteDeadStaffSessions(db: Database, now = new Date()): Promise<void> {
  await db
    .delete(staffSessions)
    .where(
      or(
        lt(staffSessions.expiresAt, now),
        and(
          eq(staffSessions.stage, 'full'),
          lt(staffSessions.lastSeenAt, sql`${now}::timestamptz - interval '30 minutes'`),
        ),
      ),
    );
}
