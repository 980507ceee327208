import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import type { ImageCarouselBlock as Block } from '../blocks.ts';
import type { ImageDto } from '../image-dto.ts';
import type { ImageCarouselSlide } from './image-carousel.tsx';

/** The image carousel block: the `image-carousel` island, hydrated when it scrolls into view. */
export function ImageCarouselBlock(props: { block: Block; images: Map<number, ImageDto> }) {
  const { lang } = usePage();
  const slides = props.block.slides.map(
    (slide): ImageCarouselSlide => ({
      image: props.images.get(slide.imageId) ?? null,
      imgText: slide.imgText,
    }),
  );
  return (
    <div className="container">
      <Island
        name="image-carousel"
        props={{ slides, autoplaySeconds: props.block.autoplaySeconds }}
        lang={lang}
        hydrate="visible"
      />
    </div>
  );
}
