import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../server/errors.ts';
import { lockout } from '../../server/lockout.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../server/openapi.ts';
import type { ZodApp } from '../../server/types.ts';
import { sites } from '../../sites/registry.ts';
import { type AccessGrant, can, permissionsOf } from './access.ts';
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

const TAG = 'admin';
const BODY_LIMIT = 16 * 1024;
/** Per client address and minute: each sign-in step, and everything else. */
const AUTH_LIMIT = { max: 30, timeWindow: 60_000 };
const API_LIMIT = { max: 600, timeWindow: 60_000 };

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
function mailKey(app: ZodApp) {
  return app.config.forms.encryptionKey;
}

/** After a step that started a session, the answer is made from that session. */
async function signedInAnswer(request: FastifyRequest, sessionId: string): Promise<Me> {
  request.staff = await signedInStaff(request.server.db, sessionId);
  return me(request);
}

/** The password step, the second steps with a code, signing out, and who is signed in. */
function registerSignInRoutes(app: ZodApp, limits: LoginLimits) {
  app.post(
    `${ADMIN_API}/auth/login`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The password step of signing in',
        description:
          'A right password opens only the second step (5 minutes): a TOTP code or a recovery code. 401 naming `password` for a wrong address or password alike. Ten wrong passwords for one address lock the step for 15 minutes (429), counted by every process.',
        security: XSRF_SECURITY,
        body: loginSchema,
        response: {
          200: jsonAnswer(loginAnswerSchema, 'The second step is next'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
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
  );

  app.post(
    `${ADMIN_API}/auth/totp`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The second step with a TOTP code: signed in',
        description:
          'Needs the session of the password step (401 otherwise). A code works once; ±30 seconds of clock drift are allowed. Five wrong codes lock the step for 15 minutes (429).',
        security: XSRF_SECURITY,
        body: totpSchema,
        response: {
          200: jsonAnswer(meSchema, 'Signed in'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      return signedInAnswer(request, await totpStep(request, reply, request.body.code, limits));
    },
  );

  app.post(
    `${ADMIN_API}/auth/recovery`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The second step with a one-time recovery code: signed in',
        description:
          'The code is used up. Wrong codes count with wrong TOTP codes (5 lock the step).',
        security: XSRF_SECURITY,
        body: recoverySchema,
        response: {
          200: jsonAnswer(meSchema, 'Signed in'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      return signedInAnswer(request, await recoveryStep(request, reply, request.body.code, limits));
    },
  );

  app.post(
    `${ADMIN_API}/auth/logout`,
    {
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Signs out',
        security: XSRF_SECURITY,
        response: { 200: jsonAnswer(okSchema, 'Signed out'), ...problemAnswers(403, 429) },
      },
    },
    async (request, reply) => {
      await signOut(request, reply);
      return { ok: true as const };
    },
  );

  app.get(
    `${ADMIN_API}/auth/session`,
    {
      config: { staff: { access: 'signed-in' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The signed-in staff member, their permissions and grants',
        response: { 200: jsonAnswer(meSchema, 'Signed in'), ...problemAnswers(401, 429) },
      },
    },
    async (request) => me(request),
  );
}

/** Giving the password again, and resetting a forgotten one by a mailed link. */
function registerReauthAndResetRoutes(app: ZodApp, limits: LoginLimits) {
  app.post(
    `${ADMIN_API}/auth/reauth`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'signed-in' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary:
          'Gives the password or a TOTP code again: sensitive actions open for 5 minutes (STAFF_REAUTH_SECONDS)',
        description:
          'Sensitive actions (roles, grants, new staff, enrolment links, recovery codes) answer 403 with type `/problems/reauth` when the last password or code is older than 5 minutes.',
        security: XSRF_SECURITY,
        body: reauthSchema,
        response: {
          200: jsonAnswer(meSchema, 'Verified'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request) => {
      await reauthenticate(request, request.body, limits);
      const staff = signedIn(request);
      staff.verifiedAt = new Date();
      return me(request);
    },
  );

  app.post(
    `${ADMIN_API}/auth/password-reset`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: [TAG],
        summary: 'Mails a password reset link if the address belongs to a staff member',
        description: 'Answers the same either way. The link works once, for one hour.',
        security: XSRF_SECURITY,
        body: resetRequestSchema,
        response: { 200: jsonAnswer(okSchema, 'Asked'), ...problemAnswers(400, 403, 413, 429) },
      },
    },
    async (request) => {
      await requestStaffReset(app.db, request.body.email, {
        adminUrl: adminUrlOf(request),
        mailKey: mailKey(app),
        ip: request.ip,
        requestId: request.id,
      });
      return { ok: true as const };
    },
  );

  app.post(
    `${ADMIN_API}/auth/password-reset/confirm`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Sets a new password with the token of a reset link',
        description: 'Every session of the person ends; signing in still needs the second factor.',
        security: XSRF_SECURITY,
        body: resetSchema,
        response: { 200: jsonAnswer(okSchema, 'Changed'), ...problemAnswers(400, 403, 413, 429) },
      },
    },
    async (request) => {
      await resetStaffPassword(app.db, request.body, { ip: request.ip, requestId: request.id });
      return { ok: true as const };
    },
  );
}

const webauthnJson = z.looseObject({ id: z.string().min(1).max(1024), type: z.string() });

const passkeyList = z.object({
  passkeys: z.array(
    z.object({ id: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() }),
  ),
});

/** Signing in with a passkey, and the signed-in staff member’s own passkeys. */
function registerPasskeyRoutes(app: ZodApp, limits: LoginLimits) {
  app.get(
    `${ADMIN_API}/auth/passkey/options`,
    {
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'WebAuthn options for the code step with a passkey (after the password)',
        response: { 200: jsonAnswer(z.looseObject({}), 'Options'), ...problemAnswers(401, 429) },
      },
    },
    async (request, reply) => signInOptions(request, reply),
  );

  app.post(
    `${ADMIN_API}/auth/passkey`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The second step with a passkey: signed in',
        description: 'Wrong answers count with wrong codes (5 lock the step).',
        security: XSRF_SECURITY,
        body: z.object({ response: webauthnJson }).strict(),
        response: {
          200: jsonAnswer(meSchema, 'Signed in'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) =>
      signedInAnswer(
        request,
        await passkeyStep(request, reply, request.body.response as never, limits),
      ),
  );

  app.get(
    `${ADMIN_API}/profile/passkeys`,
    {
      config: { staff: { access: 'signed-in' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The signed-in staff member’s passkeys',
        response: { 200: jsonAnswer(passkeyList, 'Passkeys'), ...problemAnswers(401, 429) },
      },
    },
    async (request) => ({ passkeys: await listPasskeys(request) }),
  );

  app.get(
    `${ADMIN_API}/profile/passkeys/options`,
    {
      config: { staff: { access: 'signed-in', reauth: true }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'WebAuthn options for registering a passkey; needs re-authentication',
        response: {
          200: jsonAnswer(z.looseObject({}), 'Options'),
          ...problemAnswers(401, 403, 429),
        },
      },
    },
    async (request, reply) => registrationOptions(request, reply),
  );

  app.post(
    `${ADMIN_API}/profile/passkeys`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'signed-in', reauth: true }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Registers a passkey from the answer of the registration ceremony',
        security: XSRF_SECURITY,
        body: z.object({ response: webauthnJson }).strict(),
        response: {
          200: jsonAnswer(passkeyList, 'Passkeys'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request, reply) => {
      await registerPasskey(request, reply, request.body.response as never);
      return { passkeys: await listPasskeys(request) };
    },
  );

  app.delete(
    `${ADMIN_API}/profile/passkeys/:id`,
    {
      config: { staff: { access: 'signed-in', reauth: true }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Removes one of the signed-in staff member’s passkeys; needs re-authentication',
        security: XSRF_SECURITY,
        params: passkeyParamsSchema,
        response: {
          200: jsonAnswer(passkeyList, 'Passkeys'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      await removePasskey(request, request.params.id);
      return { passkeys: await listPasskeys(request) };
    },
  );
}

/** Signing in through the OpenID Connect provider, and which sign-in methods there are. */
function registerSingleSignOnRoutes(app: ZodApp) {
  app.get(
    OIDC_START,
    {
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Signs in with the OpenID Connect provider (STAFF_OIDC_*): a redirect to it',
        description:
          'Authorization code flow with PKCE, state and nonce. 404 when single sign-on is not configured.',
        response: { 303: redirectAnswer('To the provider'), ...problemAnswers(404, 429) },
      },
    },
    async (request, reply) => startOidc(request, reply),
  );

  app.get(
    OIDC_CALLBACK,
    {
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The provider’s answer: on to the code step, or back to the sign-in page',
        description:
          'The staff member is found by the verified e-mail address of the provider; nobody is made. The second factor is still asked for. Anyone unknown goes back to `/admin/login#sso-refused`.',
        response: {
          303: redirectAnswer(
            'To the code step (`/admin/login#second-factor`) or the sign-in page',
          ),
          ...problemAnswers(404, 429),
        },
      },
    },
    async (request, reply) => reply.redirect(await finishOidc(request, reply), 303),
  );

  app.get(
    `${ADMIN_API}/auth/methods`,
    {
      config: { staff: { access: 'public' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'How staff may sign in here: the password, and single sign-on when configured',
        response: {
          200: jsonAnswer(z.object({ sso: z.boolean() }), 'Sign-in methods'),
          ...problemAnswers(429),
        },
      },
    },
    async () => ({ sso: Boolean(app.config.staffOidc) }),
  );
}

/** Opening and completing an enrolment link. */
function registerEnrolmentRoutes(app: ZodApp) {
  app.post(
    `${ADMIN_API}/enrolment`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Opens an enrolment link: the person and the TOTP secret offered to them',
        description:
          'A POST so that the token stays out of URLs and logs. 400 naming `token` for an unknown, used or expired link.',
        security: XSRF_SECURITY,
        body: tokenBodySchema,
        response: {
          200: jsonAnswer(enrolmentSchema, 'The enrolment'),
          ...problemAnswers(400, 403, 413, 429),
        },
      },
    },
    async (request) => openEnrolment(app.db, request.body.token, mailKey(app)),
  );

  app.post(
    `${ADMIN_API}/enrolment/complete`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'public' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Completes an enrolment: password and authenticator set, signed in',
        description:
          'The code must come from the offered secret. Answers the ten recovery codes, shown this once.',
        security: XSRF_SECURITY,
        body: enrolCompleteSchema,
        response: {
          200: jsonAnswer(recoveryCodesSchema, 'Enrolled and signed in'),
          ...problemAnswers(400, 403, 413, 429),
        },
      },
    },
    async (request, reply) => ({
      recoveryCodes: await completeEnrolment(request, reply, request.body, mailKey(app)),
    }),
  );
}

/** The signed-in staff member’s own name, language, password, recovery codes and sites. */
function registerProfileRoutes(app: ZodApp, limits: LoginLimits) {
  app.post(
    `${ADMIN_API}/profile`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'signed-in' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Saves the signed-in staff member’s name and language',
        security: XSRF_SECURITY,
        body: profileSchema,
        response: {
          200: jsonAnswer(okSchema, 'Saved'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request) => {
      await updateProfile(request, request.body);
      return { ok: true as const };
    },
  );

  app.post(
    `${ADMIN_API}/profile/password`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: { access: 'signed-in' }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Changes the signed-in staff member’s password',
        description:
          'Needs the current password (400 naming `currentPassword`); other sessions end.',
        security: XSRF_SECURITY,
        body: passwordChangeSchema,
        response: {
          200: jsonAnswer(okSchema, 'Changed'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request) => {
      await changeOwnPassword(request, request.body, limits);
      return { ok: true as const };
    },
  );

  app.post(
    `${ADMIN_API}/profile/recovery-codes`,
    {
      config: { staff: { access: 'signed-in', reauth: true }, rateLimit: AUTH_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Ten new recovery codes (the old ones stop working); needs re-authentication',
        security: XSRF_SECURITY,
        response: {
          200: jsonAnswer(recoveryCodesSchema, 'The new codes, shown this once'),
          ...problemAnswers(401, 403, 429),
        },
      },
    },
    async (request) => ({ recoveryCodes: await newRecoveryCodes(request) }),
  );

  app.get(
    `${ADMIN_API}/sites`,
    {
      config: { staff: { access: 'signed-in' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The sites and languages the signed-in staff member’s grants reach',
        response: { 200: jsonAnswer(siteScopeSchema, 'Sites'), ...problemAnswers(401, 429) },
      },
    },
    async (request) => ({ sites: scopeOf(signedIn(request).grants) }),
  );
}

const manage = { permission: 'staff.manage' } as const;
const sensitive = { permission: 'staff.manage', reauth: true } as const;

/** The answer for a new enrolment link: what the staff member is sent. */
function enrolmentLinkAnswer(made: { id: string; enrolmentUrl: string; expiresAt: Date }) {
  return { id: made.id, enrolmentUrl: made.enrolmentUrl, expiresAt: made.expiresAt.toISOString() };
}

/** Staff accounts: listed, added, read, and their grants replaced. */
function registerStaffAccountRoutes(app: ZodApp) {
  app.get(
    `${ADMIN_API}/staff`,
    {
      config: { staff: manage, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Every staff account with its grants',
        response: { 200: jsonAnswer(staffListSchema, 'Staff'), ...problemAnswers(401, 403, 429) },
      },
    },
    async () => ({ staff: await listStaff(app.db) }),
  );

  app.post(
    `${ADMIN_API}/staff`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: sensitive, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Adds a staff member and mails them an enrolment link',
        description:
          'The link (72 hours) is also answered, to hand over in person. Needs re-authentication.',
        security: XSRF_SECURITY,
        body: staffCreateSchema,
        response: {
          200: jsonAnswer(enrolmentLinkSchema, 'Added'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request) => {
      const made = await createStaff(app.db, request.body, {
        actor: actorFor(request),
        adminUrl: adminUrlOf(request),
        mailKey: mailKey(app),
      });
      return enrolmentLinkAnswer(made);
    },
  );

  app.get(
    `${ADMIN_API}/staff/:id`,
    {
      config: { staff: manage, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'One staff account with its grants',
        params: idParamsSchema,
        response: {
          200: jsonAnswer(staffRowSchema, 'The staff member'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => getStaff(app.db, request.params.id),
  );

  app.put(
    `${ADMIN_API}/staff/:id/grants`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: sensitive, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Replaces a staff member’s grants; their sessions end',
        description: '409 when no active administrator for every site and language would remain.',
        security: XSRF_SECURITY,
        params: idParamsSchema,
        body: grantsSchema,
        response: {
          200: jsonAnswer(staffRowSchema, 'Saved'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request) => {
      await setGrants(request, request.params.id, request.body.grants);
      return getStaff(app.db, request.params.id);
    },
  );
}

/** Disabling and enabling a staff member, and a new enrolment link for one. */
function registerStaffStatusRoutes(app: ZodApp) {
  for (const [path, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    app.post(
      `${ADMIN_API}/staff/:id/${path}`,
      {
        config: { staff: sensitive, rateLimit: API_LIMIT },
        schema: {
          tags: [TAG],
          summary: disabled
            ? 'Disables a staff member; their sessions end'
            : 'Enables a disabled staff member again',
          security: XSRF_SECURITY,
          params: idParamsSchema,
          response: {
            200: jsonAnswer(staffRowSchema, 'Saved'),
            ...problemAnswers(400, 401, 403, 404, 409, 429),
          },
        },
      },
      async (request) => {
        await setDisabled(request, request.params.id, disabled);
        return getStaff(app.db, request.params.id);
      },
    );
  }

  app.post(
    `${ADMIN_API}/staff/:id/enrolment-link`,
    {
      config: { staff: sensitive, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'A new enrolment link (a lost authenticator); mailed and answered',
        security: XSRF_SECURITY,
        params: idParamsSchema,
        response: {
          200: jsonAnswer(enrolmentLinkSchema, 'The link'),
          ...problemAnswers(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => {
      const made = await newEnrolmentLink(app.db, request.params.id, {
        actor: actorFor(request),
        adminUrl: adminUrlOf(request),
        mailKey: mailKey(app),
      });
      if (!made) throw new NotFound('No such staff member.');
      return enrolmentLinkAnswer(made);
    },
  );
}

/** The roles with every permission there is: the answer of each roles route. */
async function rolesAnswer(app: ZodApp) {
  return { roles: await listRoles(app.db), permissions: [...PERMISSIONS] };
}

/** Roles: listed, created and changed. */
function registerRoleRoutes(app: ZodApp) {
  app.get(
    `${ADMIN_API}/roles`,
    {
      config: { staff: manage, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The roles and the permissions there are',
        response: { 200: jsonAnswer(rolesSchema, 'Roles'), ...problemAnswers(401, 403, 429) },
      },
    },
    async () => rolesAnswer(app),
  );

  app.post(
    `${ADMIN_API}/roles`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: sensitive, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Creates a role',
        security: XSRF_SECURITY,
        body: roleCreateSchema,
        response: {
          200: jsonAnswer(rolesSchema, 'Roles'),
          ...problemAnswers(400, 401, 403, 413, 429),
        },
      },
    },
    async (request) => {
      await createRole(request, request.body);
      return rolesAnswer(app);
    },
  );

  app.put(
    `${ADMIN_API}/roles/:key`,
    {
      bodyLimit: BODY_LIMIT,
      config: { staff: sensitive, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'Changes a role’s name and permissions (at once for everyone holding it)',
        security: XSRF_SECURITY,
        params: roleParamsSchema,
        body: roleSchema,
        response: {
          200: jsonAnswer(rolesSchema, 'Roles'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request) => {
      await updateRole(request, request.params.key, request.body);
      return rolesAnswer(app);
    },
  );
}

/** The audit log. */
function registerAuditRoutes(app: ZodApp) {
  app.get(
    `${ADMIN_API}/audit`,
    {
      config: { staff: { permission: 'audit.read' }, rateLimit: API_LIMIT },
      schema: {
        tags: [TAG],
        summary: 'The audit log, newest first, filtered; limited to the sites the grants reach',
        querystring: auditQuerySchema,
        response: {
          200: jsonAnswer(auditListSchema, 'Entries'),
          ...problemAnswers(400, 401, 403, 429),
        },
      },
    },
    async (request) => listAudit(app.db, signedIn(request).grants, request.query),
  );
}

function actorFor(request: FastifyRequest) {
  const staff = signedIn(request);
  return { staffId: staff.staffId, label: staff.email, ip: request.ip, requestId: request.id };
}
