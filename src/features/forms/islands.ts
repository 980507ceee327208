/**
 * The forms' islands: one per form a page can hold. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const formsIslands = {
  'form-retail-contact': () => import('./widgets/retail-forms.tsx').then((m) => m.RetailContact),
  'form-complaint': () => import('./widgets/retail-forms.tsx').then((m) => m.ComplaintForm),
  'form-feedback': () => import('./widgets/retail-forms.tsx').then((m) => m.FeedbackForm),
  'form-sponsorship': () => import('./widgets/sponsorship-form.tsx').then((m) => m.SponsorshipForm),
  'form-question': () => import('./widgets/question-form.tsx').then((m) => m.QuestionForm),
  'form-promotional-photo': () =>
    import('./widgets/promotional-photo-form.tsx').then((m) => m.PromotionalPhotoForm),
  'form-brand-contact': () =>
    import('./widgets/brand-contact-form.tsx').then((m) => m.BrandContactForm),
  'form-expert-question': () =>
    import('./widgets/expert-question-form.tsx').then((m) => m.ExpertQuestionForm),
  'form-export-contact': () =>
    import('./widgets/export-contact-form.tsx').then((m) => m.ExportContactForm),
  'form-sales': () => import('./widgets/sales-form.tsx').then((m) => m.SalesForm),
  'form-school-material': () =>
    import('./widgets/school-material-form.tsx').then((m) => m.SchoolMaterialForm),
};

/** Parts the app joins with other features' islands (the floating overlay's question form). */
export const formsIslandParts = {
  expertQuestion: () => import('./widgets/expert-question-form.tsx').then((m) => m.ExpertQuestion),
};
