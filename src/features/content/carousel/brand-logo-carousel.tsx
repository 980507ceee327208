import { type FocusEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import { type ImageRef, Img } from '../../../images/picture.tsx';
import styles from './group-carousel.module.css';
import {
  Arrows,
  CarouselSection,
  Track,
  useBrowserLayoutEffect,
  useGroups,
} from './group-carousel.tsx';
import { logosPerView, MIN_BRAND_LOGOS, repeatToAtLeast } from './groups.ts';
import { PlayPauseButton } from './icons.tsx';

export interface BrandLogo {
  link: string;
  header: string;
  image?: ImageRef;
}

export interface BrandLogoCarouselProps {
  header?: string;
  logos: BrandLogo[];
  /** Seconds between automatic moves; the carousel pauses on hover, focus and its pause button. */
  autoplaySeconds?: number;
}

/** Seconds between the brand-logo carousel's moves unless the block says otherwise. */
export const BRAND_AUTOPLAY_SECONDS = 4;

/**
 * The brand-logo carousel (island `brand-logo-carousel`, spec §4 and §9): logos 130 px wide, the
 * list repeated until it holds at least 21 so it can keep going round; it moves a group by itself
 * every few seconds, wrapping at the end, and stops on hover, on focus inside and by its pause
 * button (WCAG 2.2.2); reduced motion starts it paused. Arrows and arrow keys move it by hand.
 * Before hydration it is the brands once, as a list that scrolls sideways.
 */
export function BrandLogoCarousel(props: BrandLogoCarouselProps) {
  const t = useT();
  const lang = useLang();
  const trackId = useId();
  const perViewOf = useCallback((viewport: HTMLElement) => logosPerView(viewport.clientWidth), []);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const pauseButton = useRef<HTMLButtonElement>(null);
  const [repeat, setRepeat] = useState(false);
  const logos = repeat ? repeatToAtLeast(props.logos, MIN_BRAND_LOGOS) : props.logos;
  const groups = useGroups(logos.length, perViewOf, true);
  const seconds = props.autoplaySeconds ?? BRAND_AUTOPLAY_SECONDS;

  // Before paint, in the same task as hydration: the list never shows shorter, then grows.
  useBrowserLayoutEffect(() => {
    setRepeat(true);
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) setPlaying(false);
  }, []);

  const canMove = groups.enhanced && logos.length > groups.perView;
  const rotating = canMove && playing && !hovered && !focused;
  const { first, move } = groups;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `first` restarts the timer after every move
  useEffect(() => {
    if (!rotating) return;
    const timer = window.setTimeout(() => move('next', null), seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [rotating, first, move, seconds]);

  // Focus on the pause button itself does not pause, so 'Jatka' takes effect at once.
  const onFocus = (event: FocusEvent) =>
    setFocused(!pauseButton.current?.contains(event.target as Node));
  const onBlur = (event: FocusEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    <CarouselSection
      groups={groups}
      header={props.header}
      label={t('cardCarousel.brands')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
      data-brand-carousel=""
      data-rotating={rotating ? '' : undefined}
    >
      {canMove ? (
        <PlayPauseButton
          playing={playing}
          controls={trackId}
          className={styles.pause}
          buttonRef={pauseButton}
          onPress={() => setPlaying((p) => !p)}
        />
      ) : null}
      <Track
        id={trackId}
        groups={groups}
        className={`${styles.logos}`}
        label={t('cardCarousel.brandList', { count: props.logos.length })}
        style={{}}
        items={logos.map((logo) => (
          <a key={logo.link} href={logo.link} className={styles.logo}>
            {logo.image ? (
              <Img
                lang={lang}
                image={logo.image}
                preset="thumbnail-medium"
                className={styles.logoImage}
                decorative
              />
            ) : null}
            <span className={styles.logoName}>{logo.header}</span>
          </a>
        ))}
      />
      {canMove ? <Arrows groups={groups} trackId={trackId} always /> : null}
    </CarouselSection>
  );
}
