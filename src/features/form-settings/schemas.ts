import { z } from 'zod';
import { formIds } from '../forms/index.ts';

/**
 * The forms' settings in the back office (decision 170): per site and form, who gets the
 * notification mail and, per language, where a visitor goes after sending it. What staff have not
 * set is the environment's default (`FORM_RECIPIENTS`, `FORM_DEFAULT_RECIPIENT`,
 * `FORM_SUCCESS_PAGES`).
 */
export const FORM_SETTINGS_API = '/api/admin/forms/settings';

const INVALID = 'admin.error.invalid';
const REQUIRED = 'admin.error.required';
const TOO_LONG = 'admin.error.tooLong';
const EMAIL = 'admin.error.email';
/** Said of a success page no page of the site's language version has. */
export const NO_SUCH_PAGE = 'admin.error.noSuchPage';
export const TOO_MANY_RECIPIENTS = 'admin.error.tooManyRecipients';

export const SETTINGS_LANGS = ['fi', 'sv', 'en'] as const;
export type SettingsLang = (typeof SETTINGS_LANGS)[number];
/** Addresses one form's mail may go to (the table's check says the same). */
export const RECIPIENTS_MAX = 10;
export const ADDRESS_MAX = 254;
export const PATH_MAX = 300;

export const formSettingsSiteParamsSchema = z.object({
  site: z.string({ error: INVALID }).regex(/^[a-z0-9-]{1,40}$/, INVALID),
});

export const formSettingsParamsSchema = formSettingsSiteParamsSchema.extend({
  form: z.enum(formIds, { error: INVALID }),
});

const address = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(ADDRESS_MAX, TOO_LONG)
  .pipe(z.email({ error: EMAIL }));

/**
 * A page's path inside a language version of the site (`/ota-yhteytta/kiitos`): no host, query or
 * fragment. Whether a page lives there is checked against the site's content.
 */
const pagePath = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(PATH_MAX, TOO_LONG)
  .regex(/^\/(?!\/)[^\s?#\\]*$/, INVALID);

export const formSettingsUpdateSchema = z
  .object({
    /** The version the staff member saw (0: none set yet); 409 when it moved on. */
    version: z.number({ error: REQUIRED }).int(INVALID).min(0, INVALID),
    /** The addresses; null: back to the default; absent: unchanged. */
    recipients: z
      .array(address, { error: INVALID })
      .min(1, REQUIRED)
      .max(RECIPIENTS_MAX, TOO_MANY_RECIPIENTS)
      .nullable()
      .optional(),
    /** Per language the page's path; null: back to the default; a language absent: unchanged. */
    successPages: z
      .partialRecord(z.enum(SETTINGS_LANGS, { error: INVALID }), pagePath.nullable())
      .optional(),
  })
  .strict();
export type FormSettingsUpdate = z.infer<typeof formSettingsUpdateSchema>;

const successPageSchema = z.object({
  lang: z.enum(SETTINGS_LANGS),
  /** The path as set (inside the language version), or the default as configured; null: none. */
  path: z.string().nullable(),
  /** Where a visitor is sent (with the language's prefix); null: the form shows its text. */
  url: z.string().nullable(),
  isDefault: z.boolean(),
  /** Where the default sends a visitor (what an empty field means); null: the form's text. */
  defaultUrl: z.string().nullable(),
});

export const formSettingsRowSchema = z.object({
  form: z.enum(formIds),
  /** 0 while nothing is set (every value the default). */
  version: z.number().int(),
  updatedAt: z.string().nullable(),
  recipients: z.object({
    addresses: z.array(z.string()),
    isDefault: z.boolean(),
    /** The environment's addresses (what an empty field means). */
    defaults: z.array(z.string()),
    /** Whether the staff member may change them (their grants reach every language of the site). */
    editable: z.boolean(),
  }),
  successPages: z.array(successPageSchema),
});
export type FormSettingsRow = z.infer<typeof formSettingsRowSchema>;

export const formSettingsSiteSchema = z.object({
  site: z.object({ id: z.string(), name: z.string(), langs: z.array(z.enum(SETTINGS_LANGS)) }),
  forms: z.array(formSettingsRowSchema),
});
export type FormSettingsSite = z.infer<typeof formSettingsSiteSchema>;

export const formSettingsSitesSchema = z.object({
  sites: z.array(
    z.object({ id: z.string(), name: z.string(), langs: z.array(z.enum(SETTINGS_LANGS)) }),
  ),
});
export type FormSettingsSites = z.infer<typeof formSettingsSitesSchema>;
