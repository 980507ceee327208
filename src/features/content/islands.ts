/**
 * The content's islands: the carousels and the card grid. Name → lazy import of the component, for the
 * app's island registry: each becomes its own chunk, fetched only when a page has the island
 * and its trigger fires.
 */
export const contentIslands = {
  'hero-carousel': () => import('./carousel/hero-carousel.tsx').then((m) => m.HeroCarousel),
  'image-carousel': () => import('./carousel/image-carousel.tsx').then((m) => m.ImageCarousel),
  'product-gallery': () => import('./carousel/product-gallery.tsx').then((m) => m.ProductGallery),
  'card-carousel': () => import('./carousel/card-carousel.tsx').then((m) => m.CardCarousel),
  'brand-logo-carousel': () =>
    import('./carousel/brand-logo-carousel.tsx').then((m) => m.BrandLogoCarousel),
  'recipe-banner': () => import('./recipe-banner/recipe-banner.tsx').then((m) => m.RecipeBanner),
  'like-button': () => import('./likes/like-button.tsx').then((m) => m.LikeButton),
  'card-grid': () => import('./card-grid/card-grid-island.tsx').then((m) => m.CardGridIsland),
  'portion-calculator': () =>
    import('./widgets/portion-calculator.tsx').then((m) => m.PortionCalculator),
  timeline: () => import('./widgets/timeline.tsx').then((m) => m.Timeline),
  'expandable-list': () => import('./widgets/expandable-list.tsx').then((m) => m.ExpandableList),
  'region-map': () => import('./widgets/region-map.tsx').then((m) => m.RegionMap),
  'hero-video': () => import('./widgets/media.tsx').then((m) => m.HeroVideo),
  'video-modal': () => import('./widgets/media.tsx').then((m) => m.VideoModal),
  'number-animation': () => import('./widgets/media.tsx').then((m) => m.NumberAnimation),
  'flip-card': () => import('./widgets/school.tsx').then((m) => m.FlipCard),
  slider: () => import('./widgets/school.tsx').then((m) => m.Slider),
  'school-vote': () => import('./widgets/school.tsx').then((m) => m.SchoolVote),
};

/**
 * Parts the app joins with the shop's buy control (`shopIslandParts.cardBuyPart`): the card
 * carousel and the card-grid island when their `lkProductCard`s offer buying, in chunks of their
 * own, so the plain carousel and grid stay without the shop's code.
 */
export const contentIslandParts = {
  productCardCarousel: () =>
    import('./carousel/product-card-carousel.tsx').then((m) => m.cardCarouselWith),
  productCardGrid: () => import('./card-grid/product-card-grid.tsx').then((m) => m.cardGridWith),
};

/**
 * The code of the parts that islands keep as the server rendered them: the cards of grids and
 * carousels (decision 160), the slides of the hero and image carousels (decision 161). The server
 * loads it before it renders islands (`loadIslands`).
 */
export const loadStaticParts = () =>
  Promise.all([
    import('./components/card-view.tsx').then((m) => m.staticCard.load()),
    import('./carousel/static-slides.tsx').then((m) => m.loadStaticSlides()),
  ]).then(() => undefined);
