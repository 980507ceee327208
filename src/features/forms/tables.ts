import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { belongsTo } from '../../db/columns.ts';

/**
 * The forms feature's tables (decision 126): submissions (personal data sealed with AES-256-GCM),
 * their files, the mail outbox, the captcha tokens already spent, and the school materials the
 * order form offers.
 */

/** One form sent by a visitor: which form, where and in which language, and its sealed data. */
export const formSubmissions = pgTable(
  'form_submissions',
  {
    id: text('id').primaryKey(),
    /** complaint, feedback, sponsorship, … (`src/features/forms/forms.ts`). */
    form: text('form').notNull(),
    siteId: text('site_id').notNull(),
    lang: text('lang').notNull(),
    /** The submitted Data as JSON, sealed with the forms key (`v1.<iv>.<tag>.<ciphertext>`). */
    sealedData: text('sealed_data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The retention job deletes the submission, its files and its mails after this. */
    deleteAfter: timestamp('delete_after', { withTimezone: true }).notNull(),
    /**
     * The keyed hash of the submitter's address (`src/server/email-hash.ts`, decision 159), so a
     * personal-data request finds the sealed row; null when the form asked for no address.
     */
    emailHash: text('email_hash'),
  },
  (t) => [
    index('form_submissions_delete_after_idx').on(t.deleteAfter),
    index('form_submissions_form_idx').on(t.form, t.createdAt),
    index('form_submissions_email_hash_idx').on(t.emailHash),
  ],
);

export const formSubmissionFiles = pgTable(
  'form_submission_files',
  {
    id: serial('id').primaryKey(),
    submissionId: belongsTo(text('submission_id'), () => formSubmissions.id),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** The type found from the file's bytes, not the one the browser claimed. */
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    /** Key in the file store; the bytes there are sealed like the data. */
    storageKey: text('storage_key').notNull().unique(),
  },
  (t) => [index('form_submission_files_submission_idx').on(t.submissionId)],
);

/** Notification mails, written in the submission's transaction and sent by the outbox worker. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    submissionId: text('submission_id').references(() => formSubmissions.id, {
      onDelete: 'cascade',
    }),
    recipients: text('recipients').notNull(),
    subject: text('subject').notNull(),
    /** The plain-text body, sealed (it repeats the submission's personal data). */
    sealedBody: text('sealed_body').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Set when the worker gives up after its last attempt. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The keyed hash of the address of the person the mail is about (decision 159): the
     * recipient, or the shopper or submitter a mail to the company names.
     */
    emailHash: text('email_hash'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt),
    index('mail_outbox_email_hash_idx').on(t.emailHash),
  ],
);

/** Captcha tokens already accepted, kept until they would have expired anyway. */
export const usedCaptchaTokens = pgTable(
  'used_captcha_tokens',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_captcha_tokens_expires_idx').on(t.expiresAt)],
);

export const schoolMaterials = pgTable('school_materials', {
  id: serial('id').primaryKey(),
  siteId: text('site_id').notNull(),
  lang: text('lang').notNull(),
  material: text('material').notNull(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** Grade band or subject, for grouping on the order page. */
  topic: text('topic').notNull().default(''),
  sortOrder: integer('sort_order').notNull().default(0),
  /** When the material was last published from the back office (decision 171), or seeded. */
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Form settings per site (decision 170): who gets a form's mail and where a visitor goes after
// sending it, set by staff with `forms.settings`. A missing row, or a null in it, means the
// environment's default (`FORM_RECIPIENTS`, `FORM_DEFAULT_RECIPIENT`, `FORM_SUCCESS_PAGES`).
// ---------------------------------------------------------------------------------------------

export const formSettings = pgTable(
  'form_settings',
  {
    siteId: text('site_id').notNull(),
    /** complaint, feedback, … (`src/features/forms/forms.ts`). */
    form: text('form').notNull(),
    /** Addresses the form's notification mail goes to; null: the environment's default. */
    recipients: text('recipients').array(),
    /**
     * Language → the path of the page a visitor goes to after a successful submit, inside that
     * language version of the site (no `/sv` prefix, as content stores paths). A language not
     * named here: the environment's default.
     */
    successPages: jsonb('success_pages').$type<Record<string, string>>().notNull().default({}),
    /** Grows with every change: an edit names the version it saw (409 when it moved on). */
    version: integer('version').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.siteId, t.form] }),
    check(
      'form_settings_recipients_ck',
      sql`${t.recipients} is null or cardinality(${t.recipients}) between 1 and 10`,
    ),
  ],
);
