import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';

/**
 * The back office's tables (decisions 130–133): staff accounts apart from shop customers, their
 * second factors, sessions, roles and scoped grants, and the append-only audit log. None shows
 * on a public page (`src/db/content-changes.ts` lists them as private).
 */

/** A staff member. No password until the enrolment link is used; no login without TOTP. */
export const staffMembers = pgTable(
  'staff_members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** The back office's language for this person, and of the mails they get. */
    lang: text('lang').notNull().default('fi'),
    passwordHash: text('password_hash'),
    /** The TOTP secret (RFC 6238), sealed with the server's key (AES-256-GCM). */
    totpSecretSealed: text('totp_secret_sealed'),
    /** The last 30-second step a code was accepted for: a code is used once. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('staff_members_email_idx').on(sql`lower(${t.email})`),
    check('staff_members_lang_check', sql`${t.lang} in ('fi', 'sv', 'en')`),
  ],
);

/** Ten one-time recovery codes per staff member, stored as SHA-256 of the code. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    staffId: belongsTo(uuid('staff_id'), () => staffMembers.id),
    codeHash: text('code_hash').notNull().unique(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('staff_recovery_codes_staff_idx').on(t.staffId)],
);

/**
 * One-time links: enrolment (set a password and TOTP) and password reset. Only the SHA-256 of the
 * token is kept; the TOTP secret offered at enrolment waits here, sealed, until a code confirms it.
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    staffId: belongsTo(uuid('staff_id'), () => staffMembers.id),
    purpose: text('purpose').notNull(),
    totpSecretSealed: text('totp_secret_sealed'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('staff_tokens_staff_idx').on(t.staffId),
    check('staff_tokens_purpose_check', sql`${t.purpose} in ('enrol', 'reset')`),
  ],
);

/**
 * Staff sessions, apart from the visitors' `sessions`: keyed by the SHA-256 of the cookie's token.
 * `second-factor` rows exist between the password and the code (five minutes at most); `full`
 * rows are signed in, 30 minutes idle and 12 hours at most (`expires_at`).
 */
export const staffSessions = pgTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    staffId: belongsTo(uuid('staff_id'), () => staffMembers.id),
    stage: text('stage').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When the password or a code was last given: sensitive actions need it within 5 minutes. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
  },
  (t) => [
    index('staff_sessions_staff_idx').on(t.staffId),
    index('staff_sessions_expires_idx').on(t.expiresAt),
    check('staff_sessions_stage_check', sql`${t.stage} in ('second-factor', 'full')`),
  ],
);

/** Roles: a named set of permissions (the permissions themselves are named in code). */
export const staffRoles = pgTable('staff_roles', {
  key: text('key').primaryKey(),
  /** The role's name per language. */
  name: jsonb('name').$type<Record<'fi' | 'sv' | 'en', string>>().notNull(),
  permissions: text('permissions').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A role given to a staff member for some sites and languages (null: all of them). */
export const staffGrants = pgTable(
  'staff_grants',
  {
    id: serial('id').primaryKey(),
    staffId: belongsTo(uuid('staff_id'), () => staffMembers.id),
    roleKey: text('role_key')
      .notNull()
      .references(() => staffRoles.key),
    sites: text('sites').array(),
    langs: text('langs').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('staff_grants_staff_idx').on(t.staffId)],
);

/**
 * Who did what, when, from where, and the fields it changed (before and after). Written in the
 * transaction of the change; a trigger refuses UPDATE, DELETE and TRUNCATE (decision 132). No
 * foreign key: the row outlives whatever it names.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    staffId: uuid('staff_id'),
    /** The actor as a person reads it: the staff member's address, or `command line`. */
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    siteId: text('site_id'),
    lang: text('lang'),
    ip: text('ip'),
    requestId: text('request_id'),
    changes: jsonb('changes')
      .$type<Record<string, { before?: unknown; after?: unknown }>>()
      .notNull()
      .default({}),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_staff_idx').on(t.staffId, t.at),
    index('audit_log_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

/** Passkeys (WebAuthn credentials) a staff member may give as the second factor instead of a code. */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    /** The credential's id, base64url. */
    id: text('id').primaryKey(),
    staffId: belongsTo(uuid('staff_id'), () => staffMembers.id),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('staff_passkeys_staff_idx').on(t.staffId)],
);
