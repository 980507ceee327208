import { and, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { NotFound } from '../../server/errors.ts';
import { actorOf, recordAudit } from './audit.server.ts';
import { startStaffSession } from './sessions.server.ts';
import { staffMembers } from './tables.ts';

/**
 * Single sign-on with OpenID Connect (decision 134): the authorization code flow with PKCE, state
 * and nonce, against the issuer of `STAFF_OIDC_*`. The provider's sign-in takes the place of the
 * password; the staff member is found by the provider's *verified* e-mail address, never made
 * (no self-sign-up), and still gives a TOTP or recovery code (every staff account has the second
 * factor). Anyone else is sent back to the sign-in page with nothing written.
 */

export const OIDC_START = '/api/admin/auth/oidc';
export const OIDC_CALLBACK = '/api/admin/auth/oidc/callback';
const FLOW_COOKIE = 'kattaus_staff_oidc';
const FLOW_SECONDS = 600;

type Oidc = { issuer: string; clientId: string; clientSecret: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const configurations = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration (discovered once per issuer and client). */
function configurationOf(oidc: Oidc): Promise<client.Configuration> {
  const key = `${oidc.issuer} ${oidc.clientId}`;
  let found = configurations.get(key);
  if (!found) {
    const issuer = new URL(oidc.issuer);
    // Plain HTTP only for a provider on this machine (the tests' own provider).
    const insecure = issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
    found = client.discovery(issuer, oidc.clientId, oidc.clientSecret, undefined, {
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
    found.catch(() => configurations.delete(key));
    configurations.set(key, found);
  }
  return found;
}

function oidcOf(request: FastifyRequest): Oidc {
  const oidc = request.server.config.staffOidc;
  if (!oidc) throw new NotFound('Single sign-on is not configured.');
  return oidc;
}

/** Where the provider sends the browser back: this server's callback, as the provider knows it. */
export function callbackUrl(request: FastifyRequest): URL {
  const base = request.server.config.adminUrl ?? `${request.protocol}://${request.host}/admin`;
  return new URL(OIDC_CALLBACK, base);
}

/** Starts the flow: PKCE, state and nonce in a signed cookie for 10 minutes; off to the provider. */
export async function startOidc(request: FastifyRequest, reply: FastifyReply) {
  const configuration = await configurationOf(oidcOf(request));
  const verifier = client.randomPKCECodeVerifier();
  const flow = { verifier, state: client.randomState(), nonce: client.randomNonce() };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: callbackUrl(request).href,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  // Lax: the provider's redirect back is a cross-site navigation.
  reply.setCookie(FLOW_COOKIE, JSON.stringify(flow), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: OIDC_CALLBACK,
    maxAge: FLOW_SECONDS,
  });
  return reply.redirect(url.href, 303);
}

function flowOf(request: FastifyRequest) {
  const raw = request.cookies[FLOW_COOKIE];
  const unsigned = raw ? request.unsignCookie(raw) : undefined;
  if (!unsigned?.valid || unsigned.value === null) return undefined;
  try {
    const flow = JSON.parse(unsigned.value) as {
      verifier?: unknown;
      state?: unknown;
      nonce?: unknown;
    };
    if (
      typeof flow.verifier === 'string' &&
      typeof flow.state === 'string' &&
      typeof flow.nonce === 'string'
    ) {
      return { verifier: flow.verifier, state: flow.state, nonce: flow.nonce };
    }
  } catch {
    // A damaged cookie is no flow.
  }
  return undefined;
}

/**
 * The provider's answer: the code is exchanged (checking PKCE, state, nonce and the ID token),
 * the verified e-mail address names the staff member, and the second step opens. Answers where
 * the browser goes next: the code step, or the sign-in page saying why not.
 */
export async function finishOidc(request: FastifyRequest, reply: FastifyReply): Promise<string> {
  const oidc = oidcOf(request);
  const flow = flowOf(request);
  reply.clearCookie(FLOW_COOKIE, { path: OIDC_CALLBACK });
  const refused = (why: string) => {
    request.log.warn({ staffOidc: why }, 'staff single sign-on refused');
    return '/admin/login#sso-refused';
  };
  if (!flow) return refused('no flow cookie');
  let email: string | undefined;
  try {
    const configuration = await configurationOf(oidc);
    const current = new URL(request.url, callbackUrl(request));
    const tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) return refused('no ID token');
    let info: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    }
    if (info.email_verified !== true || typeof info.email !== 'string') {
      return refused('no verified e-mail address');
    }
    email = info.email;
  } catch (error) {
    request.log.warn({ err: error }, 'staff single sign-on failed');
    return refused('the provider answer did not check out');
  }
  const db = request.server.db;
  const [staff] = await db
    .select({ id: staffMembers.id, email: staffMembers.email })
    .from(staffMembers)
    .where(
      and(
        sql`lower(${staffMembers.email}) = lower(${email})`,
        isNull(staffMembers.disabledAt),
        sql`${staffMembers.enrolledAt} is not null`,
      ),
    );
  if (!staff) return refused('unknown to Kattaus');
  await db.transaction(async (tx) => {
    await startStaffSession(tx, request, reply, staff.id, 'second-factor');
    await recordAudit(tx, actorOf(request, staff), {
      action: 'auth.oidc',
      subjectType: 'staff',
      subjectId: staff.id,
      changes: { issuer: { after: oidc.issuer } },
    });
  });
  return '/admin/login#second-factor';
}
