import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { sanitizeRichText } from '../../../render/rich-text.server.tsx';
import { langPrefix, localLink } from '../../../sites/resolve.ts';
import type { HeroSlide } from '../blocks.ts';
import type { HeroCarouselSlide } from '../carousel/hero-carousel.tsx';
import type { ImageDto } from '../image-dto.ts';

/**
 * The hero carousel block: the `hero-carousel` island with its slides' rich text sanitised here,
 * on the server. Its HTML works without script (a strip that scrolls); the first slide's image
 * loads eagerly, the others lazily.
 */
export function Hero(props: { slides: HeroSlide[]; images: Map<number, ImageDto> }) {
  const { site, lang } = usePage();
  // Stored links are paths inside the site without the language prefix (decision 007).
  const prefix = langPrefix(site, lang);
  const slides = props.slides.map(
    (slide): HeroCarouselSlide => ({
      image: props.images.get(slide.imageId) ?? null,
      html: sanitizeRichText(slide.text),
      textAlignment: slide.textAlignment,
      darken: slide.darken,
      ...(slide.classes ? { classes: slide.classes } : {}),
      ...(slide.link ? { link: localLink(slide.link, prefix) } : {}),
    }),
  );
  return <Island name="hero-carousel" props={{ slides }} lang={lang} />;
}
