import { z } from 'zod';
import type { MessageKey } from '../../../i18n/fi.ts';

/**
 * The shop customer's contract (shop spec §3 "Customer", "Customer address form", §5 "Address
 * modal", §7 `/api/lk/customer`) and the account calls around it (decision 025). Error messages
 * are message keys of the i18n catalogue.
 */

export const CUSTOMER_API = '/api/lk/customer';
export const ACCOUNT_API = '/api/lk/account';

const REQUIRED = 'validation.required';
const INVALID = 'validation.invalid';

/** Text the visitor types: trimmed, required, bounded. */
const required = (max: number) =>
  z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(max, 'form.error.tooLong');

/**
 * A password a customer sets (decision 074, OWASP ASVS 4.0 2.1.1–2.1.2): at least 12 characters,
 * long passphrases welcome, more than 128 refused (argon2 hashes any length; the bound keeps one
 * request from costing much). zod counts characters, so an emoji is one. No composition rules;
 * the server also refuses the common and breached passwords of its list (`password-policy.server.ts`).
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string({ error: REQUIRED })
  .trim()
  .min(1, REQUIRED)
  .max(254, 'form.error.tooLong')
  .pipe(z.email({ error: 'account.error.email' }));

const newPasswordSchema = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .min(PASSWORD_MIN, 'account.error.passwordShort')
  .max(PASSWORD_MAX, 'account.error.passwordLong');

/** A password to check: any non-empty string within the bound (a short one is simply wrong). */
const givenPasswordSchema = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .max(PASSWORD_MAX, 'form.error.tooLong');

export const registerSchema = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
  })
  .describe('A new customer account');

export const registerConfirmSchema = z
  .object({ token: z.string({ error: INVALID }).regex(/^[A-Za-z0-9_-]{43}$/, INVALID) })
  .describe('The token of a registration confirmation link');

export const loginSchema = z
  .object({ email: emailSchema, password: givenPasswordSchema })
  .describe('Email address and password');

export const passwordChangeSchema = z
  .object({ currentPassword: givenPasswordSchema, newPassword: newPasswordSchema })
  .describe('The current password and the new one');

export const resetRequestSchema = z
  .object({ email: emailSchema })
  .describe('The address to send a password reset link to');

/** base64url of 32 random bytes. */
export const RESET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const resetSchema = z
  .object({
    token: z.string({ error: INVALID }).regex(RESET_TOKEN_PATTERN, INVALID),
    password: newPasswordSchema,
  })
  .describe('A reset token from the mail and the new password');

/** `POST /api/lk/account/email-verification/confirm`: the token of a verification link. */
export const verifyEmailSchema = z
  .object({ token: z.string({ error: INVALID }).regex(RESET_TOKEN_PATTERN, INVALID) })
  .describe('A verification token from the mail');

export const addressSchema = z
  .object({
    firstName: z.string(),
    lastName: z.string(),
    streetAddress: z.string(),
    postalCode: z.string(),
    city: z.string(),
  })
  .describe('A name and postal address');

export type Address = z.infer<typeof addressSchema>;

/**
 * A Finnish phone number as the address modal takes it (spec §5, example 50123123): digits with
 * optional spaces or hyphens, the trunk 0 optional, 5–12 digits after it. Stored without the
 * separators and the trunk 0, to go after the country code.
 */
export const FINNISH_PHONE = /^0?[1-9]\d{4,11}$/;

export function normalisePhone(value: string): string {
  return value.replace(/[\s-]/g, '').replace(/^0/, '');
}

/** A checkbox as JSON sends it (true) or as a form does ('on', 'true'). */
const ticked = z.preprocess(
  (value) => (value === 'on' || value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: REQUIRED }).refine((v) => v, REQUIRED),
);

/** The address form (spec §3 "Customer address form"); every field required (spec §5). */
export const addressFormSchema = z
  .object({
    firstName: required(100),
    lastName: required(100),
    streetAddress: required(200),
    postalCode: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .regex(/^\d{5}$/, 'account.error.postalCode'),
    city: required(100),
    phoneCountryCode: z
      .string({ error: INVALID })
      .trim()
      .regex(/^\+\d{1,3}$/, INVALID)
      .default('+358'),
    phoneNumber: z
      .string({ error: REQUIRED })
      .trim()
      .min(1, REQUIRED)
      .max(40, 'account.error.phone')
      .transform(normalisePhone)
      .refine((v) => FINNISH_PHONE.test(v), 'account.error.phone'),
    isPrivateCustomer: ticked.describe('The private-customer box: must be ticked'),
  })
  .describe('The customer address form');

export type AddressForm = z.infer<typeof addressFormSchema>;

/**
 * The address form's text fields in their order, with their labels and autocomplete tokens: the
 * same form in the address modal (spec §5) and on 'Oma tili'.
 */
export const ADDRESS_FIELDS: readonly {
  name: Exclude<keyof AddressForm, 'isPrivateCustomer'>;
  label: MessageKey;
  autoComplete: string;
  type?: string;
}[] = [
  { name: 'firstName', label: 'account.field.firstName', autoComplete: 'given-name' },
  { name: 'lastName', label: 'account.field.lastName', autoComplete: 'family-name' },
  { name: 'streetAddress', label: 'account.field.streetAddress', autoComplete: 'street-address' },
  { name: 'postalCode', label: 'account.field.postalCode', autoComplete: 'postal-code' },
  { name: 'city', label: 'account.field.city', autoComplete: 'address-level2' },
  {
    name: 'phoneCountryCode',
    label: 'account.field.phoneCountryCode',
    autoComplete: 'tel-country-code',
  },
  {
    name: 'phoneNumber',
    label: 'account.field.phoneNumber',
    autoComplete: 'tel-national',
    type: 'tel',
  },
];

/** `GET /api/lk/customer` (spec §3 "Customer"): empty fields and `loggedIn: false` for visitors. */
export const customerSchema = z
  .object({
    loggedIn: z.boolean(),
    loading: z.boolean(),
    email: z.string(),
    deliveryAddress: addressSchema,
    billingAddress: addressSchema,
    phoneCountryCode: z.string(),
    phoneNumber: z.string(),
    isPrivateCustomer: z.boolean(),
    additionalInformation: z.string(),
  })
  .describe('The customer of the session');

export type Customer = z.infer<typeof customerSchema>;

export const okSchema = z.object({ ok: z.literal(true) }).describe('Done');
