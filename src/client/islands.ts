import type { ComponentType } from 'react';

/**
 * Every island the pages may use: name → lazy import of its component. Each entry becomes its
 * own chunk, fetched only when a page has that island and its trigger fires.
 */
export const islands = {
  'site-header': () => import('../features/navigation/site-header.tsx').then((m) => m.SiteHeader),
  'form-retail-contact': () =>
    import('../features/forms/widgets/retail-forms.tsx').then((m) => m.RetailContact),
  'form-complaint': () =>
    import('../features/forms/widgets/retail-forms.tsx').then((m) => m.ComplaintForm),
  'form-feedback': () =>
    import('../features/forms/widgets/retail-forms.tsx').then((m) => m.FeedbackForm),
  'form-sponsorship': () =>
    import('../features/forms/widgets/sponsorship-form.tsx').then((m) => m.SponsorshipForm),
  'form-question': () =>
    import('../features/forms/widgets/question-form.tsx').then((m) => m.QuestionForm),
  'form-promotional-photo': () =>
    import('../features/forms/widgets/promotional-photo-form.tsx').then(
      (m) => m.PromotionalPhotoForm,
    ),
  'form-brand-contact': () =>
    import('../features/forms/widgets/brand-contact-form.tsx').then((m) => m.BrandContactForm),
  'form-expert-question': () =>
    import('../features/forms/widgets/expert-question-form.tsx').then((m) => m.ExpertQuestionForm),
  'form-export-contact': () =>
    import('../features/forms/widgets/export-contact-form.tsx').then((m) => m.ExportContactForm),
  'form-sales': () => import('../features/forms/widgets/sales-form.tsx').then((m) => m.SalesForm),
  'form-school-material': () =>
    import('../features/forms/widgets/school-material-form.tsx').then((m) => m.SchoolMaterialForm),
  'hero-carousel': () =>
    import('../features/content/carousel/hero-carousel.tsx').then((m) => m.HeroCarousel),
  'image-carousel': () =>
    import('../features/content/carousel/image-carousel.tsx').then((m) => m.ImageCarousel),
  'card-grid': () =>
    import('../features/content/card-grid/card-grid-island.tsx').then((m) => m.CardGridIsland),
  'site-search': () => import('../features/search/search-page.tsx').then((m) => m.SiteSearch),
  'facet-search': () => import('../features/search/facet-search.tsx').then((m) => m.FacetSearch),
} satisfies Record<string, () => Promise<ComponentType<never>>>;

export type IslandName = keyof typeof islands;
