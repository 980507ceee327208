import { useId } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { type ImageRef, Img } from '../../../images/picture.tsx';
import { PRODUCT_IMAGE_SIZES } from '../image-dto.ts';
import styles from './carousel.module.css';
import { StepButton } from './icons.tsx';
import { SlideTrack } from './slide-track.tsx';
import { useCarousel } from './use-carousel.ts';

export interface ProductGalleryProps {
  images: ImageRef[];
}

/**
 * The pictures of a product page with more than one (island `product-gallery`, shop spec §4
 * "Carousel: cycles images with wraparound; arrow keys move"). Previous and next buttons over the
 * picture wrap around at both ends; Left and Right move while focus is inside; the counter 'Kuva
 * 2 / 3' is a polite live region, so the move is announced once. No autoplay, so no pause button.
 * The server HTML is the scroll-snapping strip of `SlideTrack` with the first picture in view.
 */
export function ProductGallery(props: ProductGalleryProps) {
  const t = useT();
  const lang = useLang();
  const trackId = useId();
  const count = props.images.length;
  const carousel = useCarousel(count);
  const labels = props.images.map((_, i) => t('product.gallery.slide', { index: i + 1, count }));
  const controls = carousel.enhanced && count > 1;
  return (
    <section
      className={styles.productGallery}
      aria-roledescription="carousel"
      aria-label={t('product.gallery.label')}
      ref={carousel.regionRef}
    >
      <SlideTrack
        id={trackId}
        carousel={carousel}
        labels={labels}
        // The counter below announces the move; the slide's own change would say it twice.
        live="off"
        className={styles.productGalleryTrack}
      >
        {props.images.map((image, index) => (
          <Img
            // biome-ignore lint/suspicious/noArrayIndexKey: the pictures never reorder
            key={index}
            lang={lang}
            image={image}
            preset="default"
            sizes={PRODUCT_IMAGE_SIZES}
            className={styles.productGalleryImage}
            eager={index === 0}
          />
        ))}
      </SlideTrack>
      {controls ? (
        <>
          <StepButton
            direction="left"
            label={t('product.gallery.previous')}
            controls={trackId}
            className={`${styles.button} ${styles.iconButton} ${styles.productGalleryPrevious}`}
            onPress={carousel.previous}
          />
          <StepButton
            direction="right"
            label={t('product.gallery.next')}
            controls={trackId}
            className={`${styles.button} ${styles.iconButton} ${styles.productGalleryNext}`}
            onPress={carousel.next}
          />
        </>
      ) : null}
      <p className={styles.productGalleryCounter} aria-live="polite" aria-atomic="true">
        {controls ? labels[carousel.index] : ''}
      </p>
    </section>
  );
}
