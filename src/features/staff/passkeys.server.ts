import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '../../server/errors.ts';
import { actorOf, recordAudit } from './audit.server.ts';
import { NotSignedIn } from './guard.server.ts';
import type { LoginLimits } from './login.server.ts';
import { WrongCredentials } from './login.server.ts';
import { readStaffSession, startStaffSession } from './sessions.server.ts';
import { staffMembers, staffPasskeys } from './tables.ts';

/**
 * Passkeys (WebAuthn) as the second factor beside TOTP (decision 135): registered from the
 * profile (after re-authentication), given at the code step instead of a code. The challenge of a
 * ceremony lives in a signed, HttpOnly, five-minute cookie bound to the staff session that asked
 * for it, so asking for options writes nothing.
 */

const CHALLENGE_COOKIE = 'kattaus_staff_webauthn';
const CHALLENGE_SECONDS = 300;

function relyingParty(request: FastifyRequest) {
  return { rpID: request.hostname, origin: `${request.protocol}://${request.host}` };
}

function rememberChallenge(
  request: FastifyRequest,
  reply: FastifyReply,
  purpose: 'register' | 'sign-in',
  sessionId: string,
  challenge: string,
) {
  reply.setCookie(CHALLENGE_COOKIE, JSON.stringify({ purpose, sessionId, challenge }), {
    signed: true,
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/api/admin/',
    maxAge: CHALLENGE_SECONDS,
  });
}

function challengeOf(request: FastifyRequest, purpose: string, sessionId: string): string | null {
  const raw = request.cookies[CHALLENGE_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  if (!unsigned?.valid || unsigned.value === null) return null;
  try {
    const saved = JSON.parse(unsigned.value) as Record<string, unknown>;
    return saved.purpose === purpose &&
      saved.sessionId === sessionId &&
      typeof saved.challenge === 'string'
      ? saved.challenge
      : null;
  } catch {
    return null;
  }
}

async function passkeysOf(request: FastifyRequest, staffId: string) {
  return request.server.db
    .select()
    .from(staffPasskeys)
    .where(eq(staffPasskeys.staffId, staffId))
    .orderBy(asc(staffPasskeys.createdAt));
}

/** The signed-in staff member's passkeys, for the profile. */
export async function listPasskeys(request: FastifyRequest) {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  return (await passkeysOf(request, me.staffId)).map((p) => ({
    id: p.id,
    createdAt: p.createdAt.toISOString(),
    lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Options for registering a new passkey (the signed-in staff member's). */
export async function registrationOptions(request: FastifyRequest, reply: FastifyReply) {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  const existing = await passkeysOf(request, me.staffId);
  const options = await generateRegistrationOptions({
    rpName: 'Kattaus',
    rpID: relyingParty(request).rpID,
    userName: me.email,
    userDisplayName: me.name,
    userID: new TextEncoder().encode(me.staffId),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  rememberChallenge(request, reply, 'register', me.sessionId, options.challenge);
  return options;
}

/** Registers the passkey of a registration ceremony; 400 naming `response` when it fails. */
export async function registerPasskey(
  request: FastifyRequest,
  reply: FastifyReply,
  response: RegistrationResponseJSON,
): Promise<void> {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  const challenge = challengeOf(request, 'register', me.sessionId);
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/admin/' });
  const { rpID, origin } = relyingParty(request);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>> | undefined;
  try {
    verified = challenge
      ? await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
        })
      : undefined;
  } catch (error) {
    request.log.warn({ err: error }, 'passkey registration refused');
  }
  if (!verified?.verified) {
    throw new WrongCredentials('response', 'admin.error.passkey');
  }
  const credential = verified.registrationInfo.credential;
  await request.server.db.transaction(async (tx) => {
    await tx.insert(staffPasskeys).values({
      id: credential.id,
      staffId: me.staffId,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
    });
    await recordAudit(tx, actorOf(request), {
      action: 'staff.passkey-add',
      subjectType: 'staff',
      subjectId: me.staffId,
      changes: { passkey: { after: credential.id } },
    });
  });
}

/**
 * Removes one of the signed-in staff member's own passkeys (another's id is 404, as an unknown
 * one). The code from the authenticator app stays, so nobody is left without a second factor.
 */
export async function removePasskey(request: FastifyRequest, id: string): Promise<void> {
  const me = request.staff;
  if (!me) throw new NotSignedIn();
  await request.server.db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(staffPasskeys)
      .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.staffId, me.staffId)))
      .returning({ id: staffPasskeys.id });
    if (!removed) throw new NotFound('No such passkey.');
    await recordAudit(tx, actorOf(request), {
      action: 'staff.passkey-remove',
      subjectType: 'staff',
      subjectId: me.staffId,
      changes: { passkey: { before: removed.id } },
    });
  });
}

async function pending(request: FastifyRequest) {
  const session = await readStaffSession(request.server.db, request);
  if (session?.stage !== 'second-factor') throw new NotSignedIn();
  return session;
}

/** Options for the code step with a passkey: the staff member's own credentials. */
export async function signInOptions(request: FastifyRequest, reply: FastifyReply) {
  const session = await pending(request);
  const keys = await passkeysOf(request, session.staffId);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(request).rpID,
    allowCredentials: keys.map((p) => ({ id: p.id, transports: p.transports })),
    userVerification: 'preferred',
  });
  rememberChallenge(request, reply, 'sign-in', session.id, options.challenge);
  return options;
}

/**
 * The code step with a passkey: verified against the stored public key and counter; signed in on
 * a new token. Wrong answers count with wrong codes (5 lock the step).
 */
export async function passkeyStep(
  request: FastifyRequest,
  reply: FastifyReply,
  response: AuthenticationResponseJSON,
  limits: LoginLimits,
): Promise<string> {
  const session = await pending(request);
  await limits.code.check(session.staffId);
  const challenge = challengeOf(request, 'sign-in', session.id);
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/admin/' });
  const [key] = await request.server.db
    .select()
    .from(staffPasskeys)
    .where(and(eq(staffPasskeys.id, response.id), eq(staffPasskeys.staffId, session.staffId)));
  const { rpID, origin } = relyingParty(request);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>> | undefined;
  try {
    result =
      key && challenge
        ? await verifyAuthenticationResponse({
            response,
            expectedChallenge: challenge,
            expectedOrigin: origin,
            expectedRPID: rpID,
            credential: {
              id: key.id,
              publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
              counter: key.counter,
              transports: key.transports as never,
            },
          })
        : undefined;
  } catch (error) {
    request.log.warn({ err: error }, 'passkey sign-in refused');
  }
  if (!key || !result?.verified) {
    await limits.code.fail(session.staffId);
    throw new WrongCredentials('response', 'admin.error.passkey');
  }
  const [staff] = await request.server.db
    .select({ id: staffMembers.id, email: staffMembers.email })
    .from(staffMembers)
    .where(eq(staffMembers.id, session.staffId));
  if (!staff) throw new NotSignedIn();
  return request.server.db.transaction(async (tx) => {
    await tx
      .update(staffPasskeys)
      .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
      .where(eq(staffPasskeys.id, key.id));
    const sessionId = await startStaffSession(tx, request, reply, staff.id, 'full');
    await recordAudit(tx, actorOf(request, staff), {
      action: 'auth.login',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: { method: { after: 'passkey' } },
    });
    return sessionId;
  });
}
