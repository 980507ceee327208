import type { CSSProperties, ReactNode } from 'react';
import styles from './carousel.module.css';
import { SLIDE_MS } from './slides.ts';
import type { Carousel } from './use-carousel.ts';

/**
 * The slides of a carousel. In the server HTML (and without script) they form a strip that
 * scrolls and snaps, every slide reachable; once the carousel is enhanced they lie on top of each
 * other, only the current one shown, and a move slides the new one in while the old one slides out
 * (CSS animations of `SLIDE_MS`). Hidden slides are inert, so focus and screen readers skip them.
 */
export function SlideTrack(props: {
  id: string;
  carousel: Carousel;
  /** Accessible name of each slide ('2 / 4'). */
  labels: string[];
  /** `polite` announces the new slide; `off` while autoplay runs (carousel pattern). */
  live: 'off' | 'polite';
  className?: string;
  slideClassName?: (index: number) => string;
  children: ReactNode[];
}) {
  const { carousel } = props;
  const { enhanced } = carousel;
  const style = { '--slide-ms': `${SLIDE_MS}ms` } as CSSProperties;
  return (
    <div
      ref={carousel.trackRef}
      id={props.id}
      className={`${styles.track} ${props.className ?? ''}`}
      style={style}
      aria-live={props.live}
      // Without script the strip scrolls: focusable, so the keyboard can scroll it too.
      tabIndex={enhanced ? undefined : 0}
      data-enhanced={enhanced ? '' : undefined}
      data-moving={carousel.moving ? '' : undefined}
      data-direction={carousel.direction}
    >
      {props.children.map((child, index) => {
        const state = !enhanced
          ? undefined
          : index === carousel.index
            ? 'current'
            : index === carousel.leaving
              ? 'leaving'
              : undefined;
        return (
          // biome-ignore lint/a11y/useSemanticElements: the carousel pattern's slide is a group, not a form's fieldset
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: the slides never reorder
            key={index}
            role="group"
            aria-roledescription="slide"
            aria-label={props.labels[index]}
            className={`${styles.slide} ${props.slideClassName?.(index) ?? ''}`}
            data-state={state}
            inert={enhanced && index !== carousel.index}
            onAnimationEnd={(event) => carousel.onAnimationEnd(event, index)}
          >
            {child}
          </div>
        );
      })}
    </div>
  );
}
