/**
 * The marketing lists' islands (decision 038). Name → lazy import of the component, for the app's
 * island registry: each its own chunk, fetched only when a page has the island and its trigger
 * fires.
 */
export const subscriptionIslands = {
  'newsletter-modal': () => import('./widgets/newsletter-modal.tsx').then((m) => m.NewsletterModal),
  'news-releases-modal': () =>
    import('./widgets/news-releases-modal.tsx').then((m) => m.NewsReleasesModal),
  'campaign-form': () => import('./widgets/campaign-form.tsx').then((m) => m.CampaignForm),
};

/** Parts the app joins with other features' (`floating-overlay` with the expert question form). */
export const subscriptionIslandParts = {
  floatingOverlay: () => import('./widgets/floating-overlay.tsx').then((m) => m.withQuestionForm),
};
