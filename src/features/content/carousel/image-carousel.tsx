import { type FocusEvent, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import type { ImageRef } from '../../../images/picture.tsx';
import styles from './carousel.module.css';
import { PlayPauseButton } from './icons.tsx';
import { SlideTrack } from './slide-track.tsx';
import { AUTOPLAY_SECONDS, autoplayTarget } from './slides.ts';
import { staticGallerySlide } from './static-slides.tsx';
import { useCarousel } from './use-carousel.ts';

export interface ImageCarouselSlide {
  image: ImageRef | null;
  imgText: string;
}

const GallerySlide = staticGallerySlide.Part;

export interface ImageCarouselProps {
  slides: ImageCarouselSlide[];
  autoplaySeconds?: number;
}

/**
 * The third brand's image carousel (island `image-carousel`): dots, arrow keys, swipe, and
 * autoplay every 5 s that, as the spec has it, toggles between the first two images only. Autoplay
 * pauses while the pointer is over the carousel or focus is inside it and resumes when they leave;
 * the visible pause button stops it until pressed again (WCAG 2.2.2). Visitors who ask for reduced
 * motion get it paused from the start.
 */
export function ImageCarousel(props: ImageCarouselProps) {
  const t = useT();
  const trackId = useId();
  const count = props.slides.length;
  const carousel = useCarousel(count);
  const seconds = props.autoplaySeconds ?? AUTOPLAY_SECONDS;
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const rotationButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) setPlaying(false);
  }, []);

  // The pointer over the carousel, heard on the region itself: over a slide, which stays the
  // server's markup (decision 161), React would hold the events back.
  const { regionRef } = carousel;
  useEffect(() => {
    const region = regionRef.current;
    if (!region) return;
    const enter = () => setHovered(true);
    const leave = () => setHovered(false);
    region.addEventListener('mouseenter', enter);
    region.addEventListener('mouseleave', leave);
    return () => {
      region.removeEventListener('mouseenter', enter);
      region.removeEventListener('mouseleave', leave);
    };
  }, [regionRef]);

  const canPlay = carousel.enhanced && autoplayTarget(0, count) !== null;
  const rotating = canPlay && playing && !hovered && !focused;
  const { index, autoplay } = carousel;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `index` restarts the timer after every move
  useEffect(() => {
    if (!rotating) return;
    // Restarted by every move, so a slide chosen by hand also stays its full time.
    const timer = window.setTimeout(autoplay, seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [rotating, index, autoplay, seconds]);

  // Focus on the rotation button itself does not pause, so 'Jatka' takes effect at once.
  const onFocus = (event: FocusEvent) =>
    setFocused(!rotationButton.current?.contains(event.target as Node));
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  const labels = props.slides.map((_, i) => t('hero.slide', { index: i + 1, count }));
  return (
    <section
      className={styles.gallery}
      aria-roledescription="carousel"
      aria-label={t('carousel.images')}
      ref={carousel.regionRef}
      onFocus={onFocus}
      onBlur={onBlur}
      data-rotating={rotating ? '' : undefined}
    >
      <div className={styles.galleryControls}>
        {canPlay ? (
          <PlayPauseButton
            playing={playing}
            controls={trackId}
            className={styles.button}
            buttonRef={rotationButton}
            onPress={() => setPlaying((p) => !p)}
          />
        ) : null}
        {carousel.enhanced && count > 1 ? (
          <div className={styles.dots}>
            {props.slides.map((_, i) => (
              <button
                // biome-ignore lint/suspicious/noArrayIndexKey: the slides never reorder
                key={i}
                type="button"
                className={styles.dot}
                aria-controls={trackId}
                aria-current={i === index ? 'true' : undefined}
                aria-label={t('carousel.goTo', { index: i + 1, count })}
                onClick={() => carousel.goTo(i)}
              />
            ))}
          </div>
        ) : null}
      </div>
      <SlideTrack
        id={trackId}
        carousel={carousel}
        labels={labels}
        live={rotating ? 'off' : 'polite'}
        className={styles.galleryTrack}
      >
        {props.slides.map((slide, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the slides never reorder
          <GallerySlide key={i} slide={slide} />
        ))}
      </SlideTrack>
    </section>
  );
}
