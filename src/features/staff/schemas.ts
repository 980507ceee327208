import { z } from 'zod';
import { PERMISSIONS } from './permissions.ts';

/**
 * The back office's identity API (`/api/admin/…`): request and answer schemas shared by the
 * server's routes and the /admin app. Error messages are keys of the admin catalogue
 * (`src/i18n/admin-fi.ts`).
 */

export const ADMIN_API = '/api/admin';

/** The same bounds as the customers' (decision 074); `password-rules.test.ts` keeps them equal. */
export const STAFF_PASSWORD_MIN = 12;
export const STAFF_PASSWORD_MAX = 128;

const REQUIRED = 'admin.error.required';
const LANGS = ['fi', 'sv', 'en'] as const;

export const staffLangSchema = z.enum(LANGS, { error: 'admin.error.invalid' });

export const staffEmailSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(254, 'admin.error.tooLong')
  .pipe(z.email({ error: 'admin.error.email' }));

export const newPasswordSchema = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .min(STAFF_PASSWORD_MIN, 'admin.error.passwordShort')
  .max(STAFF_PASSWORD_MAX, 'admin.error.passwordLong');

const givenPasswordSchema = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .max(STAFF_PASSWORD_MAX, 'admin.error.tooLong');

/** Six digits; spaces are allowed and dropped (apps show `123 456`). */
export const totpCodeSchema = z
  .string({ error: REQUIRED })
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, REQUIRED)
      .regex(/^\d{6}$/, 'admin.error.totpFormat'),
  );

/** A recovery code as shown: `xxxxx-xxxxx` of lower-case letters and digits; case and dashes free. */
export const recoveryCodeSchema = z
  .string({ error: REQUIRED })
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, REQUIRED)
      .regex(/^[a-z0-9]{10}$/, 'admin.error.recoveryFormat'),
  );

const tokenSchema = z
  .string({ error: 'admin.error.token' })
  .regex(/^[A-Za-z0-9_-]{43}$/, 'admin.error.token');

export const loginSchema = z
  .object({ email: staffEmailSchema, password: givenPasswordSchema })
  .strict()
  .describe('A staff member’s e-mail address and password');

export const totpSchema = z.object({ code: totpCodeSchema }).strict().describe('A TOTP code');

export const recoverySchema = z
  .object({ code: recoveryCodeSchema })
  .strict()
  .describe('A one-time recovery code');

export const reauthSchema = z
  .union([
    z.object({ password: givenPasswordSchema }).strict(),
    z.object({ code: totpCodeSchema }).strict(),
  ])
  .describe('The password or a TOTP code again');

export const tokenBodySchema = z.object({ token: tokenSchema }).strict();

export const enrolCompleteSchema = z
  .object({ token: tokenSchema, password: newPasswordSchema, code: totpCodeSchema })
  .strict()
  .describe('The enrolment: a new password and the first TOTP code of the new secret');

export const resetRequestSchema = z.object({ email: staffEmailSchema }).strict();

export const resetSchema = z
  .object({ token: tokenSchema, password: newPasswordSchema })
  .strict()
  .describe('A new password with the token of a mailed reset link');

export const passwordChangeSchema = z
  .object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema })
  .strict();

export const profileSchema = z
  .object({
    name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(120, 'admin.error.tooLong'),
    lang: staffLangSchema,
  })
  .strict();

export const permissionSchema = z.enum(PERMISSIONS);

const siteIdSchema = z.string().regex(/^[a-z0-9-]{1,40}$/, 'admin.error.invalid');

/**
 * The narrowing every admin list takes, to one site and one language (within the grants; the
 * grants' own limit comes from `scopeWhere`). Spread into a list's query schema.
 */
export const scopeFilterShape = {
  site: siteIdSchema.optional(),
  lang: z.enum(['fi', 'sv', 'en'], { error: 'admin.error.invalid' }).optional(),
};

/** A role for some sites and languages; null (or left out) is all of them. */
export const grantSchema = z
  .object({
    role: z.string({ error: REQUIRED }).regex(/^[a-z0-9-]{1,40}$/, 'admin.error.invalid'),
    sites: z.array(siteIdSchema).min(1, 'admin.error.sitesEmpty').max(50).nullable(),
    langs: z.array(staffLangSchema).min(1, 'admin.error.langsEmpty').max(3).nullable(),
  })
  .strict();
export type Grant = z.infer<typeof grantSchema>;

export const grantsSchema = z
  .object({ grants: z.array(grantSchema).max(20) })
  .strict()
  .describe('Every grant of the staff member (replaces the ones there are)');

export const staffCreateSchema = z
  .object({
    email: staffEmailSchema,
    name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(120, 'admin.error.tooLong'),
    lang: staffLangSchema,
    grants: z.array(grantSchema).min(1, 'admin.error.grantsEmpty').max(20),
  })
  .strict()
  .describe('A new staff member and what they may do');

export const roleSchema = z
  .object({
    name: z
      .object({
        fi: z.string().trim().min(1, REQUIRED).max(80, 'admin.error.tooLong'),
        sv: z.string().trim().min(1, REQUIRED).max(80, 'admin.error.tooLong'),
        en: z.string().trim().min(1, REQUIRED).max(80, 'admin.error.tooLong'),
      })
      .strict(),
    permissions: z.array(permissionSchema).max(PERMISSIONS.length),
  })
  .strict()
  .describe('A role: its name per language and its permissions');

export const roleCreateSchema = roleSchema
  .extend({ key: z.string().regex(/^[a-z][a-z0-9-]{1,39}$/, 'admin.error.roleKey') })
  .strict();

export const idParamsSchema = z.object({ id: z.uuid({ error: 'admin.error.invalid' }) });
/** A passkey's credential id: base64url, as the authenticator made it. */
export const passkeyParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,1024}$/, 'admin.error.invalid'),
});
export const roleParamsSchema = z.object({ key: z.string().regex(/^[a-z0-9-]{1,40}$/) });

export const auditQuerySchema = z
  .object({
    staff: z.uuid().optional(),
    action: z.string().max(60).optional(),
    site: siteIdSchema.optional(),
    lang: staffLangSchema.optional(),
    subject: z.string().max(120).optional(),
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
    before: z.coerce.number().int().positive().optional(),
  })
  .strict();

export const scopeQuerySchema = z
  .object({ site: siteIdSchema.optional(), lang: staffLangSchema.optional() })
  .strict();

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

export const okSchema = z.object({ ok: z.literal(true) });

export const grantAnswerSchema = z.object({
  role: z.string(),
  sites: z.array(z.string()).nullable(),
  langs: z.array(staffLangSchema).nullable(),
});

export const meSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    lang: staffLangSchema,
    permissions: z.array(permissionSchema),
    grants: z.array(
      grantAnswerSchema.extend({
        roleName: z.object({ fi: z.string(), sv: z.string(), en: z.string() }),
        permissions: z.array(permissionSchema),
      }),
    ),
    recoveryCodesLeft: z.number().int(),
    /** Until when sensitive actions need no password or code again (ISO time), or null. */
    verifiedUntil: z.string().nullable(),
  })
  .meta({ id: 'StaffMe' });
export type Me = z.infer<typeof meSchema>;

export const loginAnswerSchema = z.object({
  next: z.literal('second-factor'),
  methods: z.array(z.enum(['totp', 'recovery', 'passkey'])),
});

export const enrolmentSchema = z.object({
  email: z.string(),
  name: z.string(),
  /** The person's language: the enrolment page speaks it. */
  lang: staffLangSchema,
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth address as a QR code: an SVG document. */
  qrSvg: z.string(),
});

export const recoveryCodesSchema = z.object({
  recoveryCodes: z.array(z.string()).length(10),
});

export const staffRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  lang: staffLangSchema,
  enrolled: z.boolean(),
  disabled: z.boolean(),
  grants: z.array(grantAnswerSchema),
  createdAt: z.string(),
});
export type StaffRow = z.infer<typeof staffRowSchema>;

export const staffListSchema = z.object({ staff: z.array(staffRowSchema) });

export const enrolmentLinkSchema = z.object({
  id: z.string(),
  enrolmentUrl: z.string(),
  expiresAt: z.string(),
});

export const roleAnswerSchema = z.object({
  key: z.string(),
  name: z.object({ fi: z.string(), sv: z.string(), en: z.string() }),
  permissions: z.array(permissionSchema),
  grantCount: z.number().int(),
});
export type RoleAnswer = z.infer<typeof roleAnswerSchema>;
export const rolesSchema = z.object({
  roles: z.array(roleAnswerSchema),
  permissions: z.array(permissionSchema),
});

export const auditRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  staffId: z.string().nullable(),
  actor: z.string(),
  action: z.string(),
  subjectType: z.string().nullable(),
  subjectId: z.string().nullable(),
  siteId: z.string().nullable(),
  lang: z.string().nullable(),
  ip: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() }).partial()),
});
export type AuditRow = z.infer<typeof auditRowSchema>;
export const auditListSchema = z.object({
  entries: z.array(auditRowSchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  next: z.number().int().nullable(),
});

export const siteScopeSchema = z.object({
  sites: z.array(z.object({ id: z.string(), name: z.string(), langs: z.array(staffLangSchema) })),
});
