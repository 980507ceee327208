import { deferredPart } from '../../../render/deferred-part.tsx';

/**
 * The slides of the hero and image carousels as the server rendered them (decision 161): a
 * slide is a picture, text and a link, nothing for script to do, so the browser keeps the
 * server's markup and never loads the slides' code (the picture's presets among it). The
 * carousels' own code moves, shows and hides the slides around them. The server loads the code
 * before it renders (`loadStaticParts` of the content's islands; the load starts when this module
 * loads).
 */
export const staticHeroSlide = deferredPart(() =>
  import('./hero-slide.tsx').then((m) => m.HeroSlide),
);
export const staticGallerySlide = deferredPart(() =>
  import('./gallery-slide.tsx').then((m) => m.GallerySlide),
);

if (typeof window === 'undefined') void loadStaticSlides();

/** Loads the slides' code: the server does before it renders a carousel. */
export function loadStaticSlides(): Promise<void> {
  return Promise.all([staticHeroSlide.load(), staticGallerySlide.load()]).then(() => undefined);
}
