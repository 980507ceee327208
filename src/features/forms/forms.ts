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

export const forms: Record<FormId, FormDefinition> = {
  complaint: {
    path: '/api/contact/retail/reclamation',
    schema: complaintSchema,
    captchaField: 'MTCaptchaToken',
    files: fileRules.complaint,
    event: { event: 'reklamaatio_form_submit' },
    // Product complaints may be needed for product-liability questions.
    retentionDays: 730,
  },
  feedback: {
    path: '/api/contact/retail/feedback',
    schema: feedbackSchema,
    captchaField: 'MTCaptchaToken',
    event: { event: 'palaute_form_submit' },
    retentionDays: 365,
  },
  sponsorship: {
    path: '/api/contact/retail/sponsor',
    schema: sponsorshipSchema,
    captchaField: 'MTCaptchaToken',
    files: fileRules.sponsorship,
    event: { event: 'sponsorointi_form_submit' },
    retentionDays: 365,
  },
  question: {
    path: '/api/contact/retail/question',
    schema: questionSchema,
    captchaField: 'MTCaptchaToken',
    event: { event: 'kysymys_form_submit' },
    retentionDays: 365,
  },
  'promotional-photo': {
    path: '/api/contact/promotionalphoto',
    schema: promotionalPhotoSchema,
    captchaField: 'MTCaptchaToken',
    files: fileRules['promotional-photo'],
    event: { event: 'promotional_photo_form_submit' },
    retentionDays: 180,
  },
  'brand-contact': {
    path: '/api/contact/mfcontact',
    schema: brandContactSchema,
    captchaField: 'MTCaptchaToken',
    files: fileRules['brand-contact'],
    event: { event: 'contact_form_submit', formName: 'mfcontact' },
    retentionDays: 365,
  },
  'expert-question': {
    path: '/api/contact/expert/question',
    schema: expertQuestionSchema,
    captchaField: 'MTCaptchaToken',
    event: { event: 'expert_question_form_submit', formName: 'kysy_asiantuntijalta' },
    retentionDays: 365,
  },
  'export-contact': {
    path: '/api/contact/business/requestcontact',
    schema: exportContactSchema,
    captchaField: 'MTCaptchaToken',
    files: fileRules['export-contact'],
    event: { event: 'export_contact_form_submit', formName: 'export_contact' },
    retentionDays: 365,
  },
  sales: {
    path: '/api/fs/salesform',
    schema: salesSchema,
    captchaField: 'captchaToken',
    event: { event: 'contact_request_form_submit', formName: 'kontaktipyynto' },
    retentionDays: 365,
  },
  'school-material': {
    path: '/api/contact/school-material/request',
    schema: schoolMaterialSchema,
    captchaField: 'MTCaptchaToken',
    event: { event: 'school_material_form_submit', formName: 'koulumateriaali' },
    retentionDays: 180,
  },
};

export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';
export const PRODUCTS_PATH = '/api/search/all-products';
export const SCHOOL_MATERIALS_PATH = '/api/contact/school-material/materials';
