import { useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import type { ImageRef } from '../../../images/picture.tsx';
import styles from './carousel.module.css';
import { StepButton } from './icons.tsx';
import { SlideTrack } from './slide-track.tsx';
import { staticHeroSlide } from './static-slides.tsx';
import { useCarousel } from './use-carousel.ts';

export interface HeroCarouselSlide {
  image: ImageRef | null;
  /** Rich text, already sanitised by the server. */
  html: string;
  textAlignment: 'Center' | 'Left' | 'Right';
  darken: boolean;
  /** Extra class names the content gives the slide. */
  classes?: string;
  link?: string;
}

export interface HeroCarouselProps {
  slides: HeroCarouselSlide[];
}

const HeroSlide = staticHeroSlide.Part;

/**
 * The hero carousel (island `hero-carousel`): 600 px high, previous and next buttons, a 500 ms
 * slide that wraps around at both ends, arrow keys and swipe. The server HTML is a strip that
 * scrolls without script; the buttons appear over the slides, so nothing moves when they do. The
 * slides themselves stay the server's markup (decision 161).
 */
export function HeroCarousel(props: HeroCarouselProps) {
  const t = useT();
  const trackId = useId();
  const count = props.slides.length;
  const carousel = useCarousel(count);
  const labels = props.slides.map((_, i) => t('hero.slide', { index: i + 1, count }));
  return (
    <section
      className={styles.hero}
      aria-roledescription="carousel"
      aria-label={t('hero.label')}
      ref={carousel.regionRef}
    >
      {carousel.enhanced && count > 1 ? (
        <div className={styles.heroControls}>
          <StepButton
            direction="left"
            label={t('carousel.previous')}
            controls={trackId}
            className={`${styles.button} ${styles.iconButton}`}
            onPress={carousel.previous}
          />
          <StepButton
            direction="right"
            label={t('carousel.next')}
            controls={trackId}
            className={`${styles.button} ${styles.iconButton}`}
            onPress={carousel.next}
          />
        </div>
      ) : null}
      <SlideTrack
        id={trackId}
        carousel={carousel}
        labels={labels}
        live="polite"
        className={styles.heroTrack}
        slideClassName={(i) => {
          const slide = props.slides[i];
          return [styles.heroSlide, slide?.darken ? styles.heroDarken : '', slide?.classes ?? '']
            .filter(Boolean)
            .join(' ');
        }}
      >
        {props.slides.map((slide, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the slides never reorder
          <HeroSlide key={index} slide={slide} first={index === 0} />
        ))}
      </SlideTrack>
    </section>
  );
}
