import { z } from 'zod';

/** Browser-safe parts of the marketing lists: endpoints, payload schemas, limits (spec §5, §7). */

export const NEWSLETTER_API = '/api/newsletter/subscribe';
export const CAMPAIGN_API = '/api/campaign/participate';
export const NEWS_CATEGORIES_API = '/api/cision/subscribe/categories';
export const NEWS_SUBSCRIBE_API = '/api/cision-liana/subscribe';
/** The pages the mailed links open (plain HTML forms: a mail scanner's GET changes nothing). */
export const CONFIRM_PAGE = '/tilaus/vahvista';
export const UNSUBSCRIBE_PAGE = '/tilaus/peruuta';

/**
 * An address as a mailbox can have it, stricter than RFC 5322 on purpose: no spaces, quotes,
 * angle brackets or control characters, a dotted domain ending in letters.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}$/;

/** 'Syötä sähköpostiosoite.' for an empty or invalid address (spec §5). */
export const EMAIL_ERROR = 'subscribe.error.email';
/** 'Tämä kenttä on pakollinen' (spec §5). */
export const REQUIRED_ERROR = 'subscribe.error.required';
/** 'Valitse vähintään yksi uutiskirje' (spec §5). */
export const CHOOSE_ONE_ERROR = 'subscribe.error.chooseOne';

export const emailSchema = z
  .string({ error: EMAIL_ERROR })
  .trim()
  .min(1, EMAIL_ERROR)
  .max(254, EMAIL_ERROR)
  .regex(EMAIL_PATTERN, EMAIL_ERROR);

/** Where a newsletter subscription came from (stored with the consent). */
export const newsletterSources = ['newsletter-modal', 'overlay'] as const;

export const newsletterSchema = z.strictObject({
  email: emailSchema,
  /** Not in the spec's payload; the overlay says it is the overlay. */
  source: z.enum(newsletterSources).optional(),
});
export type NewsletterInput = z.infer<typeof newsletterSchema>;

/** 'true' or 'false' as text (spec §7: the campaign's booleans travel as text). */
const textBoolean = z.enum(['true', 'false'], { error: REQUIRED_ERROR });

export const campaignSchema = z.strictObject({
  email: emailSchema,
  join: z.string({ error: 'validation.required' }).trim().min(1).max(64),
  isAdult: textBoolean.refine((v) => v === 'true', REQUIRED_ERROR),
  subscribeToCinCinVinoNewsletter: textBoolean,
  /** The rules box (spec §5); the block sends it; when sent it must be 'true'. */
  acceptRules: textBoolean.refine((v) => v === 'true', REQUIRED_ERROR).optional(),
});
export type CampaignInput = z.infer<typeof campaignSchema>;

/** A category id as Cision names them: letters, digits, `_` and `-`. */
export const informationTypeSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, 'validation.invalid');

export const newsSubscribeSchema = z
  .strictObject({
    email: emailSchema,
    /** Sent empty (spec §7); there is no reCAPTCHA: the per-client and per-address limits hold. */
    recaptchaToken: z.string().max(4096).optional(),
    informationTypes: z.array(informationTypeSchema).max(50).default([]),
    subscribeToUutiskirje: z
      .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
      .default(false),
  })
  .refine((v) => v.informationTypes.length > 0 || v.subscribeToUutiskirje, {
    path: ['informationTypes'],
    message: CHOOSE_ONE_ERROR,
  });
export type NewsSubscribeInput = z.infer<typeof newsSubscribeSchema>;

export const categorySchema = z.object({ name: z.string(), informationType: z.string() });
export type NewsCategory = z.infer<typeof categorySchema>;

export const successSchema = z.object({ success: z.literal(true) });
