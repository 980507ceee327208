import type { z } from 'zod';
import {
  brandContactSchema,
  complaintSchema,
  expertQuestionSchema,
  exportContactSchema,
  type FileRule,
  feedbackSchema,
  fileRules,
  promotionalPhotoSchema,
  questionSchema,
  salesSchema,
  schoolMaterialSchema,
  sponsorshipSchema,
} from './schemas.ts';

/** The forms, each with its endpoint, schema, file rule and analytics event. */
export const formIds = [
  'complaint',
  'feedback',
  'sponsorship',
  'question',
  'promotional-photo',
  'brand-contact',
  'expert-question',
  'export-contact',
  'sales',
  'school-material',
] as const;
export type FormId = (typeof formIds)[number];

/** What a page's form block may show: a form, or the retail contact page's complaint/feedback switch. */
export const blockFormIds = ['retail-contact', ...formIds] as const;
export type BlockFormId = (typeof blockFormIds)[number];

export interface FormDefinition {
  path: string;
  schema: z.ZodType;
  /** Where the captcha token travels in the payload. */
  captchaField: 'MTCaptchaToken' | 'captchaToken';
  files?: FileRule;
  /** Pushed to `window.dataLayer` on success. */
  event: { event: string; formName?: string };
  /** Days a submission is kept unless FORM_RETENTION_DAYS says otherwise. */
  retentionDays: number;
}

/** Most forms take the captcha token in `MTCaptchaToken` and are kept for a year. */
function form(
  definition: Omit<FormDefinition, 'captchaField' | 'retentionDays'> &
    Partial<Pick<FormDefinition, 'captchaField' | 'retentionDays'>>,
): FormDefinition {
  return { captchaField: 'MTCaptchaToken', retentionDays: 365, ...definition };
}

export const forms: Record<FormId, FormDefinition> = {
  complaint: form({
    path: '/api/contact/retail/reclamation',
    schema: complaintSchema,
    files: fileRules.complaint,
    event: { event: 'reklamaatio_form_submit' },
    // Product complaints may be needed for product-liability questions.
    retentionDays: 730,
  }),
  feedback: form({
    path: '/api/contact/retail/feedback',
    schema: feedbackSchema,
    event: { event: 'palaute_form_submit' },
  }),
  sponsorship: form({
    path: '/api/contact/retail/sponsor',
    schema: sponsorshipSchema,
    files: fileRules.sponsorship,
    event: { event: 'sponsorointi_form_submit' },
  }),
  question: form({
    path: '/api/contact/retail/question',
    schema: questionSchema,
    event: { event: 'kysymys_form_submit' },
  }),
  'promotional-photo': form({
    path: '/api/contact/promotionalphoto',
    schema: promotionalPhotoSchema,
    files: fileRules['promotional-photo'],
    event: { event: 'promotional_photo_form_submit' },
    retentionDays: 180,
  }),
  'brand-contact': form({
    path: '/api/contact/mfcontact',
    schema: brandContactSchema,
    files: fileRules['brand-contact'],
    event: { event: 'contact_form_submit', formName: 'mfcontact' },
  }),
  'expert-question': form({
    path: '/api/contact/expert/question',
    schema: expertQuestionSchema,
    event: { event: 'expert_question_form_submit', formName: 'kysy_asiantuntijalta' },
  }),
  'export-contact': form({
    path: '/api/contact/business/requestcontact',
    schema: exportContactSchema,
    files: fileRules['export-contact'],
    event: { event: 'export_contact_form_submit', formName: 'export_contact' },
  }),
  sales: form({
    path: '/api/fs/salesform',
    schema: salesSchema,
    captchaField: 'captchaToken',
    event: { event: 'contact_request_form_submit', formName: 'kontaktipyynto' },
  }),
  'school-material': form({
    path: '/api/contact/school-material/request',
    schema: schoolMaterialSchema,
    event: { event: 'school_material_form_submit', formName: 'koulumateriaali' },
    retentionDays: 180,
  }),
};

export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';
export const PRODUCTS_PATH = '/api/search/all-products';
export const SCHOOL_MATERIALS_PATH = '/api/contact/school-material/materials';
