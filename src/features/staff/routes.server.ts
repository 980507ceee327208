import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../server/errors.ts';
import { lockout } from '../../server/lockout.ts';
import { jsonAnswer } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import type { ZodApp } from '../../server/types.ts';
import { sites } from '../../sites/registry.ts';
import { type AccessGrant, can, permissionsOf } from './access.ts';
import { adminRoute } from './admin-route.server.ts';
import { listAudit } from './audit.server.ts';
import {
  completeEnrolment,
  createStaff,
  newEnrolmentLink,
  openEnrolment,
  requestStaffReset,
  resetStaffPassword,
} from './enrolment.server.ts';
import { NotSignedIn, signedInStaff } from './guard.server.ts';
import {
  CODE_FAILURES,
  changeOwnPassword,
  LOCK_WINDOW_MS,
  type LoginLimits,
  newRecoveryCodes,
  PASSWORD_FAILURES,
  passwordStep,
  reauthenticate,
  recoveryCodesLeft,
  recoveryStep,
  signOut,
  totpStep,
  updateProfile,
} from './login.server.ts';
import {
  createRole,
  getStaff,
  listRoles,
  listStaff,
  setDisabled,
  setGrants,
  updateRole,
} from './management.server.ts';
import { finishOidc, OIDC_CALLBACK, OIDC_START, startOidc } from './oidc.server.ts';
import {
  listPasskeys,
  passkeyStep,
  registerPasskey,
  registrationOptions,
  removePasskey,
  signInOptions,
} from './passkeys.server.ts';
import { PERMISSIONS } from './permissions.ts';
import {
  ADMIN_API,
  auditListSchema,
  auditQuerySchema,
  enrolCompleteSchema,
  enrolmentLinkSchema,
  enrolmentSchema,
  grantsSchema,
  idParamsSchema,
  loginAnswerSchema,
  loginSchema,
  type Me,
  meSchema,
  okSchema,
  passkeyParamsSchema,
  passwordChangeSchema,
  profileSchema,
  reauthSchema,
  recoveryCodesSchema,
  recoverySchema,
  resetRequestSchema,
  resetSchema,
  roleCreateSchema,
  roleParamsSchema,
  roleSchema,
  rolesSchema,
  siteScopeSchema,
  staffCreateSchema,
  staffListSchema,
  staffRowSchema,
  tokenBodySchema,
  totpSchema,
} from './schemas.ts';
import { staffPasskeys } from './tables.ts';

const BODY_LIMIT = 16 * 1024;
/** Per client address and minute: each sign-in step, and everything else. */
const AUTH_LIMIT = perMinute(30);
const API_LIMIT = perMinute(600);

/** A redirect (its `Location` says where); the body is empty. */
function redirectAnswer(description: string) {
  return { description, content: { 'text/plain': { schema: z.literal('') } } };
}

/** Where links to the back office point: `ADMIN_URL`, or the address this request came to. */
export function adminUrlOf(request: FastifyRequest): string {
  return request.server.config.adminUrl ?? `${request.protocol}://${request.host}/admin`;
}

function signedIn(request: FastifyRequest) {
  if (!request.staff) throw new NotSignedIn();
  return request.staff;
}

async function me(request: FastifyRequest): Promise<Me> {
  const staff = signedIn(request);
  const verifiedUntil = new Date(staff.verifiedAt.getTime() + request.server.config.staffReauthMs);
  return {
    id: staff.staffId,
    email: staff.email,
    name: staff.name,
    lang: staff.lang,
    permissions: permissionsOf(staff.grants),
    grants: staff.grants.map((g) => ({
      role: g.role,
      roleName: g.roleName ?? { fi: g.role, sv: g.role, en: g.role },
      permissions: [...g.permissions],
      sites: g.sites ? [...g.sites] : null,
      langs: g.langs ? ([...g.langs] as Me['grants'][number]['langs']) : null,
    })),
    recoveryCodesLeft: await recoveryCodesLeft(request.server.db, staff.staffId),
    verifiedUntil: verifiedUntil > new Date() ? verifiedUntil.toISOString() : null,
  };
}

/** The sites and languages where some grant gives anything: the app's site picker. */
export function scopeOf(grants: readonly AccessGrant[]) {
  return sites
    .map((site) => ({
      id: site.id,
      name: site.name,
      langs: site.languages.filter((lang) =>
        PERMISSIONS.some((p) => can(grants, p, { siteId: site.id, lang })),
      ),
    }))
    .filter((site) => site.langs.length > 0);
}

/**
 * The back office's identity API under /api/admin (decisions 130–132): sign-in steps, enrolment,
 * password reset, the signed-in staff member's profile, staff accounts, roles and the audit log.
 * Every route declares what it needs in `config.staff`; every answer is `no-store`.
 */
export async function staffRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const limits: LoginLimits = {
    password: lockout(fastify.sharedCounters, {
      name: 'staff-password',
      max: PASSWORD_FAILURES,
      windowMs: LOCK_WINDOW_MS,
    }),
    code: lockout(fastify.sharedCounters, {
      name: 'staff-code',
      max: CODE_FAILURES,
      windowMs: LOCK_WINDOW_MS,
    }),
  };
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  registerSignInRoutes(app, limits);
  registerReauthAndResetRoutes(app, limits);
  registerPasskeyRoutes(app, limits);
  registerSingleSignOnRoutes(app);
  registerEnrolmentRoutes(app);
  registerProfileRoutes(app, limits);
  registerStaffAccountRoutes(app);
  registerStaffStatusRoutes(app);
  registerRoleRoutes(app);
  registerAuditRoutes(app);
}

/** The key that seals outgoing mail. */
function mailKey(app: Pick<FastifyInstance, 'config'>) {
  return app.config.forms.encryptionKey;
}

/** After a step that started a session, the answer is made from that session. */
async function signedInAnswer(request: FastifyRequest, sessionId: string): Promise<Me> {
  request.staff = await signedInStaff(request.server.db, sessionId);
  return me(request);
}

/** What most routes here ask: a body is small, and each sign-in step is limited per address. */
const publicStep = {
  staff: { access: 'public' },
  rateLimit: AUTH_LIMIT,
  bodyLimit: BODY_LIMIT,
} as const;
const signedInRead = { staff: { access: 'signed-in' }, rateLimit: API_LIMIT } as const;
const signedInWrite = { ...signedInRead, bodyLimit: BODY_LIMIT } as const;
const ok = { ok: true as const };

/** The password step, the second steps with a code, signing out, and who is signed in. */
function registerSignInRoutes(app: ZodApp, limits: LoginLimits) {
  adminRoute(app, 'POST', `${ADMIN_API}/auth/login`, {
    ...publicStep,
    summary: 'The password step of signing in',
    description:
      'A right password opens only the second step (5 minutes): a TOTP code or a recovery code. 401 naming `password` for a wrong address or password alike. Ten wrong passwords for one address lock the step for 15 minutes (429), counted by every process.',
    body: loginSchema,
    answer: jsonAnswer(loginAnswerSchema, 'The second step is next'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) => {
      const staffId = await passwordStep(request, reply, request.body, limits);
      const passkeys = await app.db.$count(staffPasskeys, eq(staffPasskeys.staffId, staffId));
      return {
        next: 'second-factor' as const,
        methods: [
          'totp' as const,
          'recovery' as const,
          ...(passkeys > 0 ? (['passkey'] as const) : []),
        ],
      };
    },
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/totp`, {
    ...publicStep,
    summary: 'The second step with a TOTP code: signed in',
    description:
      'Needs the session of the password step (401 otherwise). A code works once; ±30 seconds of clock drift are allowed. Five wrong codes lock the step for 15 minutes (429).',
    body: totpSchema,
    answer: jsonAnswer(meSchema, 'Signed in'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) =>
      signedInAnswer(request, await totpStep(request, reply, request.body.code, limits)),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/recovery`, {
    ...publicStep,
    summary: 'The second step with a one-time recovery code: signed in',
    description: 'The code is used up. Wrong codes count with wrong TOTP codes (5 lock the step).',
    body: recoverySchema,
    answer: jsonAnswer(meSchema, 'Signed in'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) =>
      signedInAnswer(request, await recoveryStep(request, reply, request.body.code, limits)),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/logout`, {
    staff: { access: 'public' },
    rateLimit: AUTH_LIMIT,
    summary: 'Signs out',
    answer: jsonAnswer(okSchema, 'Signed out'),
    problems: [403, 429],
    handler: async (request, reply) => {
      await signOut(request, reply);
      return ok;
    },
  });
  adminRoute(app, 'GET', `${ADMIN_API}/auth/session`, {
    ...signedInRead,
    summary: 'The signed-in staff member, their permissions and grants',
    answer: jsonAnswer(meSchema, 'Signed in'),
    problems: [401, 429],
    handler: (request) => me(request),
  });
}

/** Giving the password again, and resetting a forgotten one by a mailed link. */
function registerReauthAndResetRoutes(app: ZodApp, limits: LoginLimits) {
  adminRoute(app, 'POST', `${ADMIN_API}/auth/reauth`, {
    ...signedInWrite,
    rateLimit: AUTH_LIMIT,
    summary:
      'Gives the password or a TOTP code again: sensitive actions open for 5 minutes (STAFF_REAUTH_SECONDS)',
    description:
      'Sensitive actions (roles, grants, new staff, enrolment links, recovery codes) answer 403 with type `/problems/reauth` when the last password or code is older than 5 minutes.',
    body: reauthSchema,
    answer: jsonAnswer(meSchema, 'Verified'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request) => {
      await reauthenticate(request, request.body, limits);
      const staff = signedIn(request);
      staff.verifiedAt = new Date();
      return me(request);
    },
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/password-reset`, {
    ...publicStep,
    rateLimit: perMinute(10),
    summary: 'Mails a password reset link if the address belongs to a staff member',
    description: 'Answers the same either way. The link works once, for one hour.',
    body: resetRequestSchema,
    answer: jsonAnswer(okSchema, 'Asked'),
    problems: [400, 403, 413, 429],
    handler: async (request) => {
      await requestStaffReset(app.db, request.body.email, {
        adminUrl: adminUrlOf(request),
        mailKey: mailKey(app),
        ip: request.ip,
        requestId: request.id,
      });
      return ok;
    },
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/password-reset/confirm`, {
    ...publicStep,
    summary: 'Sets a new password with the token of a reset link',
    description: 'Every session of the person ends; signing in still needs the second factor.',
    body: resetSchema,
    answer: jsonAnswer(okSchema, 'Changed'),
    problems: [400, 403, 413, 429],
    handler: async (request) => {
      await resetStaffPassword(app.db, request.body, { ip: request.ip, requestId: request.id });
      return ok;
    },
  });
}

const webauthnJson = z.looseObject({ id: z.string().min(1).max(1024), type: z.string() });
const webauthnAnswer = z.object({ response: webauthnJson }).strict();

const passkeyList = z.object({
  passkeys: z.array(
    z.object({ id: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() }),
  ),
});

/** Signing in with a passkey, and the signed-in staff member’s own passkeys. */
function registerPasskeyRoutes(app: ZodApp, limits: LoginLimits) {
  const options = jsonAnswer(z.looseObject({}), 'Options');
  const ownPasskeys = {
    staff: { access: 'signed-in', reauth: true },
    rateLimit: AUTH_LIMIT,
  } as const;
  const passkeys = jsonAnswer(passkeyList, 'Passkeys');
  adminRoute(app, 'GET', `${ADMIN_API}/auth/passkey/options`, {
    staff: { access: 'public' },
    rateLimit: AUTH_LIMIT,
    summary: 'WebAuthn options for the code step with a passkey (after the password)',
    answer: options,
    problems: [401, 429],
    handler: (request, reply) => signInOptions(request, reply),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/auth/passkey`, {
    ...publicStep,
    summary: 'The second step with a passkey: signed in',
    description: 'Wrong answers count with wrong codes (5 lock the step).',
    body: webauthnAnswer,
    answer: jsonAnswer(meSchema, 'Signed in'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) =>
      signedInAnswer(
        request,
        await passkeyStep(request, reply, request.body.response as never, limits),
      ),
  });
  adminRoute(app, 'GET', `${ADMIN_API}/profile/passkeys`, {
    ...signedInRead,
    summary: 'The signed-in staff member’s passkeys',
    answer: passkeys,
    problems: [401, 429],
    handler: async (request) => ({ passkeys: await listPasskeys(request) }),
  });
  adminRoute(app, 'GET', `${ADMIN_API}/profile/passkeys/options`, {
    ...ownPasskeys,
    summary: 'WebAuthn options for registering a passkey; needs re-authentication',
    answer: options,
    problems: [401, 403, 429],
    handler: (request, reply) => registrationOptions(request, reply),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/profile/passkeys`, {
    ...ownPasskeys,
    bodyLimit: BODY_LIMIT,
    summary: 'Registers a passkey from the answer of the registration ceremony',
    body: webauthnAnswer,
    answer: passkeys,
    problems: [400, 401, 403, 413, 429],
    handler: async (request, reply) => {
      await registerPasskey(request, reply, request.body.response as never);
      return { passkeys: await listPasskeys(request) };
    },
  });
  adminRoute(app, 'DELETE', `${ADMIN_API}/profile/passkeys/:id`, {
    ...ownPasskeys,
    summary: 'Removes one of the signed-in staff member’s passkeys; needs re-authentication',
    params: passkeyParamsSchema,
    answer: passkeys,
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => {
      await removePasskey(request, request.params.id);
      return { passkeys: await listPasskeys(request) };
    },
  });
}

/** Signing in through the OpenID Connect provider, and which sign-in methods there are. */
function registerSingleSignOnRoutes(app: ZodApp) {
  const redirect = { staff: { access: 'public' }, rateLimit: AUTH_LIMIT, status: 303 } as const;
  adminRoute(app, 'GET', OIDC_START, {
    ...redirect,
    summary: 'Signs in with the OpenID Connect provider (STAFF_OIDC_*): a redirect to it',
    description:
      'Authorization code flow with PKCE, state and nonce. 404 when single sign-on is not configured.',
    answer: redirectAnswer('To the provider'),
    problems: [404, 429],
    handler: (request, reply) => startOidc(request, reply),
  });
  adminRoute(app, 'GET', OIDC_CALLBACK, {
    ...redirect,
    summary: 'The provider’s answer: on to the code step, or back to the sign-in page',
    description:
      'The staff member is found by the verified e-mail address of the provider; nobody is made. The second factor is still asked for. Anyone unknown goes back to `/admin/login#sso-refused`.',
    answer: redirectAnswer('To the code step (`/admin/login#second-factor`) or the sign-in page'),
    problems: [404, 429],
    handler: async (request, reply) => reply.redirect(await finishOidc(request, reply), 303),
  });
  adminRoute(app, 'GET', `${ADMIN_API}/auth/methods`, {
    staff: { access: 'public' },
    rateLimit: API_LIMIT,
    summary: 'How staff may sign in here: the password, and single sign-on when configured',
    answer: jsonAnswer(z.object({ sso: z.boolean() }), 'Sign-in methods'),
    problems: [429],
    handler: () => ({ sso: Boolean(app.config.staffOidc) }),
  });
}

/** Opening and completing an enrolment link. */
function registerEnrolmentRoutes(app: ZodApp) {
  adminRoute(app, 'POST', `${ADMIN_API}/enrolment`, {
    ...publicStep,
    summary: 'Opens an enrolment link: the person and the TOTP secret offered to them',
    description:
      'A POST so that the token stays out of URLs and logs. 400 naming `token` for an unknown, used or expired link.',
    body: tokenBodySchema,
    answer: jsonAnswer(enrolmentSchema, 'The enrolment'),
    problems: [400, 403, 413, 429],
    handler: (request) => openEnrolment(app.db, request.body.token, mailKey(app)),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/enrolment/complete`, {
    ...publicStep,
    summary: 'Completes an enrolment: password and authenticator set, signed in',
    description:
      'The code must come from the offered secret. Answers the ten recovery codes, shown this once.',
    body: enrolCompleteSchema,
    answer: jsonAnswer(recoveryCodesSchema, 'Enrolled and signed in'),
    problems: [400, 403, 413, 429],
    handler: async (request, reply) => ({
      recoveryCodes: await completeEnrolment(request, reply, request.body, mailKey(app)),
    }),
  });
}

/** The signed-in staff member’s own name, language, password, recovery codes and sites. */
function registerProfileRoutes(app: ZodApp, limits: LoginLimits) {
  adminRoute(app, 'POST', `${ADMIN_API}/profile`, {
    ...signedInWrite,
    summary: 'Saves the signed-in staff member’s name and language',
    body: profileSchema,
    answer: jsonAnswer(okSchema, 'Saved'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request) => {
      await updateProfile(request, request.body);
      return ok;
    },
  });
  adminRoute(app, 'POST', `${ADMIN_API}/profile/password`, {
    ...signedInWrite,
    rateLimit: AUTH_LIMIT,
    summary: 'Changes the signed-in staff member’s password',
    description: 'Needs the current password (400 naming `currentPassword`); other sessions end.',
    body: passwordChangeSchema,
    answer: jsonAnswer(okSchema, 'Changed'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request) => {
      await changeOwnPassword(request, request.body, limits);
      return ok;
    },
  });
  adminRoute(app, 'POST', `${ADMIN_API}/profile/recovery-codes`, {
    staff: { access: 'signed-in', reauth: true },
    rateLimit: AUTH_LIMIT,
    summary: 'Ten new recovery codes (the old ones stop working); needs re-authentication',
    answer: jsonAnswer(recoveryCodesSchema, 'The new codes, shown this once'),
    problems: [401, 403, 429],
    handler: async (request) => ({ recoveryCodes: await newRecoveryCodes(request) }),
  });
  adminRoute(app, 'GET', `${ADMIN_API}/sites`, {
    ...signedInRead,
    summary: 'The sites and languages the signed-in staff member’s grants reach',
    answer: jsonAnswer(siteScopeSchema, 'Sites'),
    problems: [401, 429],
    handler: (request) => ({ sites: scopeOf(signedIn(request).grants) }),
  });
}

const manage = { staff: { permission: 'staff.manage' }, rateLimit: API_LIMIT } as const;
const sensitive = {
  staff: { permission: 'staff.manage', reauth: true },
  rateLimit: API_LIMIT,
} as const;

/** The answer for a new enrolment link: what the staff member is sent. */
function enrolmentLinkAnswer(made: { id: string; enrolmentUrl: string; expiresAt: Date }) {
  return { id: made.id, enrolmentUrl: made.enrolmentUrl, expiresAt: made.expiresAt.toISOString() };
}

/** Staff accounts: listed, added, read, and their grants replaced. */
function registerStaffAccountRoutes(app: ZodApp) {
  adminRoute(app, 'GET', `${ADMIN_API}/staff`, {
    ...manage,
    summary: 'Every staff account with its grants',
    answer: jsonAnswer(staffListSchema, 'Staff'),
    problems: [401, 403, 429],
    handler: async () => ({ staff: await listStaff(app.db) }),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/staff`, {
    ...sensitive,
    bodyLimit: BODY_LIMIT,
    summary: 'Adds a staff member and mails them an enrolment link',
    description:
      'The link (72 hours) is also answered, to hand over in person. Needs re-authentication.',
    body: staffCreateSchema,
    answer: jsonAnswer(enrolmentLinkSchema, 'Added'),
    problems: [400, 401, 403, 413, 429],
    handler: async (request) =>
      enrolmentLinkAnswer(await createStaff(app.db, request.body, linkMailing(request))),
  });
  adminRoute(app, 'GET', `${ADMIN_API}/staff/:id`, {
    ...manage,
    summary: 'One staff account with its grants',
    params: idParamsSchema,
    answer: jsonAnswer(staffRowSchema, 'The staff member'),
    problems: [400, 401, 403, 404, 429],
    handler: (request) => getStaff(app.db, request.params.id),
  });
  adminRoute(app, 'PUT', `${ADMIN_API}/staff/:id/grants`, {
    ...sensitive,
    bodyLimit: BODY_LIMIT,
    summary: 'Replaces a staff member’s grants; their sessions end',
    description: '409 when no active administrator for every site and language would remain.',
    params: idParamsSchema,
    body: grantsSchema,
    answer: jsonAnswer(staffRowSchema, 'Saved'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request) => {
      await setGrants(request, request.params.id, request.body.grants);
      return getStaff(app.db, request.params.id);
    },
  });
}

/** Disabling and enabling a staff member, and a new enrolment link for one. */
function registerStaffStatusRoutes(app: ZodApp) {
  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    adminRoute(app, 'POST', `${ADMIN_API}/staff/:id/${path}`, {
      ...sensitive,
      summary: disabled
        ? 'Disables a staff member; their sessions end'
        : 'Enables a disabled staff member again',
      params: idParamsSchema,
      answer: jsonAnswer(staffRowSchema, 'Saved'),
      problems: [400, 401, 403, 404, 409, 429],
      handler: async (request) => {
        await setDisabled(request, request.params.id, disabled);
        return getStaff(app.db, request.params.id);
      },
    });
  }
  adminRoute(app, 'POST', `${ADMIN_API}/staff/:id/enrolment-link`, {
    ...sensitive,
    summary: 'A new enrolment link (a lost authenticator); mailed and answered',
    params: idParamsSchema,
    answer: jsonAnswer(enrolmentLinkSchema, 'The link'),
    problems: [400, 401, 403, 404, 429],
    handler: async (request) => {
      const made = await newEnrolmentLink(app.db, request.params.id, linkMailing(request));
      if (!made) throw new NotFound('No such staff member.');
      return enrolmentLinkAnswer(made);
    },
  });
}

/** The roles with every permission there is: the answer of each roles route. */
async function rolesAnswer(app: ZodApp) {
  return { roles: await listRoles(app.db), permissions: [...PERMISSIONS] };
}

/** Roles: listed, created and changed. */
function registerRoleRoutes(app: ZodApp) {
  const roles = jsonAnswer(rolesSchema, 'Roles');
  adminRoute(app, 'GET', `${ADMIN_API}/roles`, {
    ...manage,
    summary: 'The roles and the permissions there are',
    answer: roles,
    problems: [401, 403, 429],
    handler: () => rolesAnswer(app),
  });
  adminRoute(app, 'POST', `${ADMIN_API}/roles`, {
    ...sensitive,
    bodyLimit: BODY_LIMIT,
    summary: 'Creates a role',
    body: roleCreateSchema,
    answer: roles,
    problems: [400, 401, 403, 413, 429],
    handler: async (request) => {
      await createRole(request, request.body);
      return rolesAnswer(app);
    },
  });
  adminRoute(app, 'PUT', `${ADMIN_API}/roles/:key`, {
    ...sensitive,
    bodyLimit: BODY_LIMIT,
    summary: 'Changes a role’s name and permissions (at once for everyone holding it)',
    params: roleParamsSchema,
    body: roleSchema,
    answer: roles,
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request) => {
      await updateRole(request, request.params.key, request.body);
      return rolesAnswer(app);
    },
  });
}

/** The audit log. */
function registerAuditRoutes(app: ZodApp) {
  adminRoute(app, 'GET', `${ADMIN_API}/audit`, {
    staff: { permission: 'audit.read' },
    rateLimit: API_LIMIT,
    summary: 'The audit log, newest first, filtered; limited to the sites the grants reach',
    querystring: auditQuerySchema,
    answer: jsonAnswer(auditListSchema, 'Entries'),
    problems: [400, 401, 403, 429],
    handler: (request) => listAudit(app.db, signedIn(request).grants, request.query),
  });
}

/** Who made an enrolment link, and how it is mailed. */
function linkMailing(request: FastifyRequest) {
  return {
    actor: actorFor(request),
    adminUrl: adminUrlOf(request),
    mailKey: mailKey(request.server),
  };
}

function actorFor(request: FastifyRequest) {
  const staff = signedIn(request);
  return { staffId: staff.staffId, label: staff.email, ip: request.ip, requestId: request.id };
}
