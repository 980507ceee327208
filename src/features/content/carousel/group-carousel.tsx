import {
  type CSSProperties,
  type HTMLAttributes,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useT } from '../../../i18n/react.tsx';
import { useEventsWithin } from '../../../render/events-within.ts';
import styles from './group-carousel.module.css';
import { arrows, nextFirst, previousFirst } from './groups.ts';
import { StepButton } from './icons.tsx';
import { SLIDE_MS } from './slides.ts';

// Before hydration there is no layout to measure; in the browser, measure before paint.
export const useBrowserLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

/** Where focus goes after a move whose control, or focused card, left the view. */
type FocusAfter = 'previous' | 'next' | 'cards' | null;

/**
 * The moving part the two carousels share: the first visible item, how many show, and the moves
 * by one group. `perView` measures the viewport. Until hydration (and without script) the items
 * are a list that scrolls sideways; `enhanced` then turns it into groups with arrows.
 */
export function useGroups(
  count: number,
  perViewOf: (viewport: HTMLElement) => number,
  wrap: boolean,
) {
  const [first, setFirst] = useState(0);
  const [perView, setPerView] = useState(1);
  const [enhanced, setEnhanced] = useState(false);
  const viewportRef = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<FocusAfter>(null);
  const regionRef = useRef<HTMLElement>(null);

  useBrowserLayoutEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    const measure = () => setPerView(perViewOf(viewport));
    measure();
    setEnhanced(true);
    const observer = new ResizeObserver(measure);
    observer.observe(viewport);
    return () => observer.disconnect();
  }, [perViewOf]);

  // A narrower screen shows fewer: the first visible item stays in view.
  const shown = Math.min(first, Math.max(0, count - perView));
  const can = arrows(shown, perView, count);

  const move = useCallback(
    (direction: 'previous' | 'next', focus: FocusAfter) => {
      focusAfter.current = focus;
      setFirst((f) => {
        const current = Math.min(f, Math.max(0, count - perView));
        if (direction === 'next') {
          if (current + perView < count) return nextFirst(current, perView, count);
          return wrap ? 0 : current;
        }
        if (current > 0) return previousFirst(current, perView);
        return wrap ? Math.max(0, count - perView) : current;
      });
    },
    [count, perView, wrap],
  );

  // Focus never falls into a hidden (inert) item or off a vanished arrow: after a move it goes to
  // the same arrow if it still shows, else the other one, else the first visible item.
  useEffect(() => {
    const want = focusAfter.current;
    focusAfter.current = null;
    const region = regionRef.current;
    if (!want || !region) return;
    const button = (which: string) =>
      region.querySelector<HTMLElement>(`[data-carousel-step="${which}"] button`);
    const firstItem = () =>
      region.querySelector<HTMLElement>('li:not([inert]) a, li:not([inert]) button');
    const other = want === 'next' ? 'previous' : 'next';
    const target = want === 'cards' ? firstItem() : (button(want) ?? button(other) ?? firstItem());
    target?.focus();
  });

  // The arrow keys, pressed anywhere in the carousel: on a card's link too, which stays the
  // server's markup (decision 161).
  useEventsWithin(
    regionRef,
    'keydown',
    (event, target) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      // In a field (a product card's quantity) the arrows move the caret, not the carousel.
      if (target.closest('input, textarea, select')) return;
      // Focus stays on the arrow that has it (or the other one, when it goes).
      const step = target.closest('[data-carousel-step]')?.getAttribute('data-carousel-step');
      event.preventDefault();
      const direction = event.key === 'ArrowRight' ? 'next' : 'previous';
      move(direction, step === 'next' || step === 'previous' ? step : 'cards');
    },
    enhanced,
  );

  return { first: shown, perView, enhanced, can, move, viewportRef, regionRef };
}

/**
 * The carousels' region: a section announced as a carousel, named by its heading when it has one,
 * else by `label`.
 */
export function CarouselSection(
  props: {
    groups: ReturnType<typeof useGroups>;
    header?: string | undefined;
    label: string;
    children: ReactNode;
  } & Omit<HTMLAttributes<HTMLElement>, 'children'>,
) {
  const { groups, header, label, children, ...rest } = props;
  const headingId = useId();
  return (
    <section
      {...rest}
      ref={groups.regionRef}
      className={`container ${styles.carousel}`}
      aria-roledescription="carousel"
      aria-labelledby={header ? headingId : undefined}
      aria-label={header ? undefined : label}
    >
      {header ? (
        <h2 id={headingId} className={styles.header}>
          {header}
        </h2>
      ) : null}
      {children}
    </section>
  );
}

export function Arrows(props: {
  groups: ReturnType<typeof useGroups>;
  trackId: string;
  always?: boolean;
}) {
  const t = useT();
  const { groups } = props;
  // Before hydration the row is held empty, so the arrows take no room from what follows.
  if (!groups.enhanced) return <div className={styles.arrows} />;
  return (
    <div className={styles.arrows}>
      {groups.can.previous || props.always ? (
        <span data-carousel-step="previous" className={styles.previous}>
          <StepButton
            direction="left"
            label={t('carousel.previous')}
            controls={props.trackId}
            className={`${styles.arrow}`}
            onPress={() => groups.move('previous', 'previous')}
          />
        </span>
      ) : null}
      {groups.can.next || props.always ? (
        <span data-carousel-step="next" className={styles.next}>
          <StepButton
            direction="right"
            label={t('carousel.next')}
            controls={props.trackId}
            className={`${styles.arrow}`}
            onPress={() => groups.move('next', 'next')}
          />
        </span>
      ) : null}
    </div>
  );
}

export function Track(props: {
  id: string;
  groups: ReturnType<typeof useGroups>;
  className: string;
  label: string;
  style: CSSProperties;
  items: ReactNode[];
}) {
  const { groups } = props;
  const style = {
    ...props.style,
    '--first': groups.first,
    '--slide-ms': `${SLIDE_MS}ms`,
  } as CSSProperties;
  return (
    <div ref={groups.viewportRef} className={styles.viewport}>
      <ul
        id={props.id}
        className={`${styles.track} ${props.className}`}
        style={style}
        aria-label={props.label}
        data-enhanced={groups.enhanced ? '' : undefined}
        // Without script the list scrolls: focusable, so the keyboard can scroll it too.
        tabIndex={groups.enhanced ? undefined : 0}
      >
        {props.items.map((item, index) => {
          const hidden =
            groups.enhanced && (index < groups.first || index >= groups.first + groups.perView);
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the items never reorder (logos repeat)
              key={index}
              className={styles.item}
              inert={hidden}
              data-hidden={hidden || undefined}
            >
              {item}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
