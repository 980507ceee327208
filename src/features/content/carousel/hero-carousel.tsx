import { Fragment, useId } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { type ImageRef, NarrowCropImg } from '../../../images/picture.tsx';
import styles from './carousel.module.css';
import { StepButton } from './icons.tsx';
import { SlideTrack } from './slide-track.tsx';
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

const alignment = {
  Center: styles.alignCenter,
  Left: styles.alignLeft,
  Right: styles.alignRight,
} as const;

/**
 * The hero carousel (island `hero-carousel`): 600 px high, previous and next buttons, a 500 ms
 * slide that wraps around at both ends, arrow keys and swipe. The server HTML is a strip that
 * scrolls without script; the buttons appear over the slides, so nothing moves when they do.
 */
export function HeroCarousel(props: HeroCarouselProps) {
  const t = useT();
  const lang = useLang();
  const trackId = useId();
  const count = props.slides.length;
  const carousel = useCarousel(count);
  const labels = props.slides.map((_, i) => t('hero.slide', { index: i + 1, count }));
  return (
    <section
      className={styles.hero}
      aria-roledescription="carousel"
      aria-label={t('hero.label')}
      onKeyDown={carousel.enhanced ? carousel.onKeyDown : undefined}
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
          <Fragment key={index}>
            {slide.image ? (
              <NarrowCropImg
                lang={lang}
                image={slide.image}
                preset="hero"
                narrowPreset="hero-narrow"
                className={styles.heroImage}
                eager={index === 0}
                decorative
              />
            ) : null}
            <div className={`${styles.heroText} ${alignment[slide.textAlignment]}`}>
              <div className={styles.heroBox}>
                <div
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (hero.tsx)
                  dangerouslySetInnerHTML={{ __html: slide.html }}
                />
                {slide.link ? (
                  <a className={styles.heroLink} href={slide.link}>
                    {t('carousel.readMore')}
                  </a>
                ) : null}
              </div>
            </div>
          </Fragment>
        ))}
      </SlideTrack>
    </section>
  );
}
