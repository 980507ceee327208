import {
  type AnimationEvent,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useEventsWithin } from '../../../render/events-within.ts';
import {
  autoplayTarget,
  type Direction,
  directionOf,
  slideAtScroll,
  step,
  wrap,
} from './slides.ts';

interface State {
  index: number;
  /** The slide sliding out while `moving`. */
  leaving: number | null;
  direction: Direction;
  moving: boolean;
}

/** A horizontal swipe shorter than this (px) is not a swipe. */
const SWIPE_PX = 40;

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface Carousel {
  index: number;
  leaving: number | null;
  direction: Direction;
  moving: boolean;
  /** False in the server HTML and the first render in the browser; true once script runs. */
  enhanced: boolean;
  /** The carousel's region: arrow keys pressed in it move it. */
  regionRef: React.RefObject<HTMLElement | null>;
  trackRef: React.RefObject<HTMLDivElement | null>;
  next(): void;
  previous(): void;
  goTo(index: number): void;
  /** One autoplay step: between the first two slides only. */
  autoplay(): void;
  onAnimationEnd(event: AnimationEvent, slide: number): void;
}

/**
 * State of a carousel of `count` slides. The first render matches the server's HTML (a strip that
 * scrolls and snaps without script); after hydration the carousel takes over, starting from the
 * slide the strip was scrolled to: the arrow keys pressed in its region (`regionRef`) and a swipe
 * on its track (`trackRef`) move it. They are heard on the document (`useEventsWithin`): the
 * slides stay the server's markup, whose events React holds back (decision 161).
 */
export function useCarousel(count: number): Carousel {
  const [state, setState] = useState<State>({
    index: 0,
    leaving: null,
    direction: 'next',
    moving: false,
  });
  const [enhanced, setEnhanced] = useState(false);
  const regionRef = useRef<HTMLElement>(null);
  const trackRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const track = trackRef.current;
    const start = track ? slideAtScroll(track.scrollLeft, track.clientWidth, count) : 0;
    setState({ index: start, leaving: null, direction: 'next', moving: false });
    setEnhanced(true);
  }, [count]);

  const go = useCallback(
    (
      target: (index: number) => number | null,
      direction: (from: number, to: number) => Direction,
    ) =>
      setState((s) => {
        const raw = target(s.index);
        if (raw === null) return s;
        const to = wrap(raw, count);
        if (to === s.index) return s;
        const animate = !reducedMotion();
        return {
          index: to,
          leaving: animate ? s.index : null,
          direction: direction(s.index, to),
          moving: animate,
        };
      }),
    [count],
  );

  const next = useCallback(
    () =>
      go(
        (i) => step(i, count, 1),
        () => 'next',
      ),
    [go, count],
  );
  const previous = useCallback(
    () =>
      go(
        (i) => step(i, count, -1),
        () => 'previous',
      ),
    [go, count],
  );
  const goTo = useCallback((index: number) => go(() => index, directionOf), [go]);
  const autoplay = useCallback(
    () =>
      go(
        (i) => autoplayTarget(i, count),
        () => 'next',
      ),
    [go, count],
  );

  useEventsWithin(
    regionRef,
    'keydown',
    (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      event.preventDefault();
      if (event.key === 'ArrowRight') next();
      else previous();
    },
    enhanced,
  );

  const onAnimationEnd = useCallback((event: AnimationEvent, slide: number) => {
    if (event.target !== event.currentTarget) return;
    setState((s) => (s.index === slide && s.moving ? { ...s, moving: false, leaving: null } : s));
  }, []);

  useSwipe(trackRef, enhanced, next, previous);

  return {
    ...state,
    enhanced,
    regionRef,
    trackRef,
    next,
    previous,
    goTo,
    autoplay,
    onAnimationEnd,
  };
}

/** A swipe on the track (a touch or a pen, not a mouse) longer than SWIPE_PX moves the carousel. */
function useSwipe(
  trackRef: RefObject<HTMLDivElement | null>,
  enhanced: boolean,
  next: () => void,
  previous: () => void,
) {
  const swipe = useRef<{ x: number; y: number } | null>(null);
  useEventsWithin(
    trackRef,
    'pointerdown',
    (event) => {
      swipe.current = event.pointerType === 'mouse' ? null : { x: event.clientX, y: event.clientY };
    },
    enhanced,
  );
  useEventsWithin(
    trackRef,
    'pointerup',
    (event) => {
      const start = swipe.current;
      swipe.current = null;
      if (!start) return;
      const dx = event.clientX - start.x;
      const dy = event.clientY - start.y;
      if (Math.abs(dx) < SWIPE_PX || Math.abs(dx) < Math.abs(dy)) return;
      if (dx < 0) next();
      else previous();
    },
    enhanced,
  );
}
