import { z } from 'zod';

/**
 * One zod schema per form: the widget validates with it (react-hook-form's zod resolver) and the
 * server parses every request with it (`.strict()`: an unknown field is refused). Messages are
 * i18n keys, so the widget shows them with `t()` and the API names them per field.
 */

export const MESSAGE_MAX = 2000;
export const EXPORT_MESSAGE_MAX = 1000;
export const TEXTAREA_ROWS = 6;
export const FILE_MAX_BYTES = 15 * 1024 * 1024;
/** Typing filters the product select only from this many characters on. */
export const PRODUCT_FILTER_MIN = 3;

/**
 * Digits, Latin letters with the Nordic and accented ones, whitespace, quotes and
 * ! ? % € / . , : ; + - ( ).
 */
export const MESSAGE_CHARACTERS =
  /^[0-9A-Za-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\s"'\u2018\u2019\u201C\u201D\u201E\u00AB\u00BB!?%€/.,:;+\-()]*$/u;

/** A numeric code (spec navigation §5): 7 to 12 characters, all digits. */
export const NUMERIC_CODE = /^\d{7,12}$/;
export const NUMERIC_CODE_MAX = 12;

/** Text, @, text, a dot and 2 to 3 letters. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[A-Za-z]{2,3}$/;

const REQUIRED = 'validation.required';

/** A required text field (text inputs are required by default). */
function text(max = 200, required: string = REQUIRED) {
  return z.string({ error: required }).trim().min(1, required).max(max, 'form.error.tooLong');
}

/** An optional text field: missing, empty or text. */
function optionalText(max = 200) {
  return z.string().trim().max(max, 'form.error.tooLong').optional();
}

function message(
  charactersKey: string,
  options: { max?: number; required?: string; optional?: boolean } = {},
) {
  const { max = MESSAGE_MAX, required = REQUIRED } = options;
  const base = z
    .string({ error: required })
    .trim()
    .max(max, 'form.message.tooLong')
    .regex(MESSAGE_CHARACTERS, charactersKey);
  return options.optional ? base.optional() : base.min(1, required);
}

function email(required: string = REQUIRED, invalid = 'form.email.invalid') {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(254)
    .regex(EMAIL_PATTERN, invalid);
}

/** A code the visitor may type (a customer number): empty, or a numeric code. */
function optionalCode(invalid = 'form.customerId.invalid') {
  return z
    .string()
    .trim()
    .refine((v) => v === '' || NUMERIC_CODE.test(v), invalid)
    .optional();
}

/** An e-mail field required only under a condition: empty, or a valid address. */
function optionalEmail(invalid = 'form.email.invalid') {
  return z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === '' || EMAIL_PATTERN.test(v), invalid)
    .optional();
}

/** `YYYY-MM-DD`, optionally with a time: the ISO string the date picker sends. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export function isIsoDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, unlike Date.UTC, takes years below 100 as they are (not as 19xx).
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function date(required: string = REQUIRED) {
  return z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(40)
    .refine(isIsoDate, 'form.date.invalid');
}

function optionalDate() {
  return z
    .string()
    .trim()
    .max(40)
    .refine((v) => v === '' || isIsoDate(v), 'form.date.invalid')
    .optional();
}

// ---------------------------------------------------------------------------------------------
// Files: data URLs. Count and size are checked here; the server also checks the real type from
// the bytes (`files.server.ts`).
// ---------------------------------------------------------------------------------------------

const DATA_URL = /^data:[\w.+-]*(\/[\w.+-]+)?(;[\w=.+-]+)*;base64,/;

/** Bytes a base64 data URL decodes to, computed from its length. */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const length = dataUrl.length - comma - 1;
  const padding = dataUrl.endsWith('==') ? 2 : dataUrl.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

export const fileSchema = z
  .object({
    Name: z.string({ error: REQUIRED }).trim().min(1, REQUIRED).max(255, 'form.error.tooLong'),
    Data: z
      .string({ error: 'form.file.unreadable' })
      .regex(DATA_URL, 'form.file.unreadable')
      .refine((v) => dataUrlBytes(v) > 0, 'form.file.unreadable')
      .refine((v) => dataUrlBytes(v) <= FILE_MAX_BYTES, 'form.file.tooLarge'),
  })
  .strict();
export type UploadedFile = z.infer<typeof fileSchema>;

function files(max: number) {
  return z.array(fileSchema).max(max, 'form.file.tooMany');
}

/** What each form accepts: count and real types (`image/*` means any image type). */
export interface FileRule {
  max: number;
  accept: readonly string[];
}

export const fileRules = {
  complaint: { max: 3, accept: ['image/jpeg', 'image/png'] },
  sponsorship: { max: 1, accept: ['application/pdf'] },
  'promotional-photo': { max: 1, accept: ['image/*'] },
  'brand-contact': { max: 1, accept: ['image/*'] },
  'export-contact': {
    max: 1,
    accept: [
      'application/pdf',
      'image/jpeg',
      'image/png',
      'image/gif',
      'image/webp',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ],
  },
} as const satisfies Record<string, FileRule>;

export function accepts(rule: FileRule, mime: string): boolean {
  return rule.accept.some((a) => (a.endsWith('/*') ? mime.startsWith(a.slice(0, -1)) : a === mime));
}

const captcha = z.string({ error: REQUIRED }).min(1, REQUIRED).max(20_000);

// ---------------------------------------------------------------------------------------------
// The retail forms: complaint and feedback share the person, address and contact fields.
// ---------------------------------------------------------------------------------------------

const retailPerson = {
  Firstname: text(100),
  Lastname: text(100),
  StreetAddress: text(200),
  PostalCode: text(20),
  City: text(100),
  Phone: z.string().trim().max(40, 'form.error.tooLong').optional(),
  Email: optionalEmail(),
  ContactByEmail: z.boolean(),
  ContactByPhone: z.boolean(),
  NoContact: z.boolean(),
  HealthDataProcessingConsent: z.boolean(),
};

interface ContactFields {
  Email?: string | undefined;
  Phone?: string | undefined;
  ContactByEmail: boolean;
  ContactByPhone: boolean;
  NoContact: boolean;
}

/** One contact method must be chosen; the chosen one's field is then required. */
function checkContact(data: ContactFields, ctx: z.RefinementCtx) {
  const chosen = [data.ContactByEmail, data.ContactByPhone, data.NoContact].filter(Boolean).length;
  if (chosen !== 1) ctx.addIssue({ code: 'custom', path: ['ContactMethod'], message: REQUIRED });
  if (data.ContactByEmail && !data.Email) {
    ctx.addIssue({ code: 'custom', path: ['Email'], message: REQUIRED });
  }
  if (data.ContactByPhone && !data.Phone) {
    ctx.addIssue({ code: 'custom', path: ['Phone'], message: REQUIRED });
  }
}

export const complaintSchema = z
  .object({
    Data: z
      .object({
        ...retailPerson,
        Message: message('form.message.characters'),
        ProductId: z.number().int().min(0),
        ProductName: text(200, 'form.product.required'),
        BatchNumber: optionalText(60),
        ExpirationDate: date(),
        PlaceOfPurchase: text(200),
      })
      .strict()
      .superRefine(checkContact),
    Files: files(fileRules.complaint.max),
    MTCaptchaToken: captcha,
  })
  .strict();

export const feedbackSchema = z
  .object({
    Data: z
      .object({
        ...retailPerson,
        Message: message('form.message.characters'),
        ProductId: z.number().int().min(0),
        ProductName: optionalText(200),
      })
      .strict()
      .superRefine(checkContact),
    Files: z.null(),
    MTCaptchaToken: captcha,
  })
  .strict();

export const sponsorshipSubjects = ['youth-sports', 'factory-town-teams', 'schools'] as const;

export const sponsorshipSchema = z
  .object({
    Data: z
      .object({
        Subject: z.enum(sponsorshipSubjects, { error: REQUIRED }),
        Groupname: text(200),
        EventDate: optionalDate(),
        Message: message('form.message.characters'),
        Firstname: text(100),
        Lastname: text(100),
        Email: email(),
        Phone: text(40),
      })
      .strict(),
    Files: files(fileRules.sponsorship.max),
    MTCaptchaToken: captcha,
  })
  .strict();

export const questionSchema = z
  .object({
    Data: z.object({ Message: message('form.message.charactersQuestion') }).strict(),
    MTCaptchaToken: captcha,
  })
  .strict();

const promotionalPhotoData = z
  .object({
    Email: email(),
    FirstName: text(100),
    LastName: text(100),
    Phone: text(40),
    MethodOfContact: z.enum(['email', 'phone'], { error: REQUIRED }),
  })
  .strict();

/** The raffle's payload as the spec gives it (§3): the rules box is not part of it. */
export const promotionalPhotoSchema = z
  .object({
    Data: promotionalPhotoData,
    Files: files(fileRules['promotional-photo'].max),
    MTCaptchaToken: captcha,
  })
  .strict();

/**
 * What the raffle form checks: the payload and the raffle rules box, which must be ticked
 * (§5.1) but is not sent.
 */
export const promotionalPhotoFormSchema = promotionalPhotoSchema.extend({
  Data: promotionalPhotoData.extend({ AcceptRules: z.literal(true, { error: REQUIRED }) }),
});

/** The payload of a checked raffle form: everything but the rules box. */
export function promotionalPhotoPayload(values: z.output<typeof promotionalPhotoFormSchema>) {
  const { AcceptRules: _accepted, ...data } = values.Data;
  return { ...values, Data: data } satisfies z.input<typeof promotionalPhotoSchema>;
}

export const brandContactSchema = z
  .object({
    Data: z
      .object({
        Email: email(),
        FirstName: text(100),
        LastName: text(100),
        Phone: text(40),
        Message: message('form.message.characters'),
        City: optionalText(100),
        StreetAddress: optionalText(200),
        PostalCode: optionalText(20),
      })
      .strict(),
    Files: files(fileRules['brand-contact'].max),
    MTCaptchaToken: captcha,
  })
  .strict();

export const expertQuestionSchema = z
  .object({
    Data: z
      .object({
        Subject: optionalText(200),
        FullName: text(200),
        Company: optionalText(200),
        Message: message('form.message.charactersExpert'),
        Email: email(),
        Phone: optionalText(40),
        CustomerId: optionalCode(),
      })
      .strict(),
    Files: z.array(fileSchema).max(0, 'form.file.tooMany').nullable().optional(),
    MTCaptchaToken: captcha,
  })
  .strict();

const EXPORT_REQUIRED = 'form.export.required';

export const exportContactSchema = z
  .object({
    Data: z
      .object({
        Subject: optionalText(200),
        FullName: text(200, EXPORT_REQUIRED),
        Company: text(200, EXPORT_REQUIRED),
        Message: message('form.message.charactersExport', {
          max: EXPORT_MESSAGE_MAX,
          required: EXPORT_REQUIRED,
        }),
        Email: email(EXPORT_REQUIRED, 'form.export.emailInvalid'),
        Phone: text(40, EXPORT_REQUIRED),
        ContentId: z.union([z.number().int().min(0), z.string().max(40)]).optional(),
        CustomerId: optionalCode(),
      })
      .strict(),
    Files: files(fileRules['export-contact'].max).nullable(),
    MTCaptchaToken: captcha,
  })
  .strict();

const SALES_REQUIRED = 'form.sales.required';
const SALES_EMAIL_INVALID = 'form.sales.emailInvalid';
export const salesFormTypes = ['Feedback', 'Other'] as const;
export const salesContactRequests = ['Email', 'Phone', 'None'] as const;

export const salesSchema = z
  .object({
    firstName: text(100, SALES_REQUIRED),
    lastName: text(100, SALES_REQUIRED),
    email: optionalEmail(SALES_EMAIL_INVALID),
    phone: z.string().trim().max(40, 'form.error.tooLong').optional(),
    organization: optionalText(200),
    product: z
      .object({ productId: z.number().int().min(0), title: z.string().max(200) })
      .strict()
      .nullable()
      .optional(),
    message: message('form.message.characters', { required: SALES_REQUIRED }),
    customerNumber: optionalCode(),
    formType: z.enum(salesFormTypes, { error: SALES_REQUIRED }),
    contactRequest: z.enum(salesContactRequests, { error: SALES_REQUIRED }),
    captchaToken: captcha,
  })
  .strict()
  .superRefine((data, ctx) => {
    if (data.contactRequest === 'Email' && !data.email) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: SALES_REQUIRED });
    }
    if (data.contactRequest === 'Phone' && !data.phone) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: SALES_REQUIRED });
    }
  });

export const schoolMaterialSchema = z
  .object({
    Data: z
      .object({
        FirstName: text(100),
        LastName: text(100),
        School: optionalText(200),
        Region: optionalText(100),
        Email: email(),
        Materials: z
          .array(z.string().min(1).max(200), { error: 'form.school.materials' })
          .min(1, 'form.school.materials')
          .max(50),
        Links: z.array(z.string().max(500)).max(50).optional(),
        Message: message('form.message.characters', { optional: true }),
        Subject: optionalText(200),
      })
      .strict(),
    MTCaptchaToken: captcha,
  })
  .strict();

export type ComplaintInput = z.input<typeof complaintSchema>;
export type FeedbackInput = z.input<typeof feedbackSchema>;
export type SponsorshipInput = z.input<typeof sponsorshipSchema>;
export type QuestionInput = z.input<typeof questionSchema>;
export type PromotionalPhotoInput = z.input<typeof promotionalPhotoSchema>;
export type BrandContactInput = z.input<typeof brandContactSchema>;
export type ExpertQuestionInput = z.input<typeof expertQuestionSchema>;
export type ExportContactInput = z.input<typeof exportContactSchema>;
export type SalesInput = z.input<typeof salesSchema>;
export type SchoolMaterialInput = z.input<typeof schoolMaterialSchema>;

/** The product list of the product select: `GET /api/search/all-products?language=fi`. */
export const productListItem = z.object({ productId: z.number().int(), title: z.string() });
export type ProductListItem = z.infer<typeof productListItem>;
