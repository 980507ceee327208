import { useLang } from '../../../i18n/react.tsx';
import { Img } from '../../../images/picture.tsx';
import styles from './carousel.module.css';
import type { ImageCarouselSlide } from './image-carousel.tsx';

/** One slide of the image carousel: its picture and its caption. */
export function GallerySlide(props: { slide: ImageCarouselSlide }) {
  const lang = useLang();
  const { slide } = props;
  return (
    <figure className={styles.galleryFigure}>
      {slide.image ? (
        <Img
          lang={lang}
          image={slide.image}
          preset="three-by-two-crop"
          className={styles.galleryImage}
        />
      ) : null}
      {slide.imgText ? (
        <figcaption className={styles.galleryCaption}>{slide.imgText}</figcaption>
      ) : null}
    </figure>
  );
}
