import { useEffect, useRef } from 'react';
import { DRAG_MIN_DISTANCE_PX, DRAG_MIN_HOLD_MS } from './values.ts';

/** Where a dragged card was let go: a day (`data-drop-week`, `data-drop-day`) and a position. */
export interface DropPlace {
  week: number;
  day: string;
  index: number;
}

/** Whether a drag may move its card (spec §4, §9): further than 50 px, held over 200 ms. */
export function dragMoves(distance: number, heldMs: number): boolean {
  return distance > DRAG_MIN_DISTANCE_PX && heldMs > DRAG_MIN_HOLD_MS;
}

interface Gesture {
  uid: string;
  element: HTMLElement;
  pointerId: number;
  x: number;
  y: number;
  /** The window's scroll position when the card was pressed. */
  scrollX: number;
  scrollY: number;
  /** Where the pointer is now (it may stand still while the window scrolls under it). */
  pointerX: number;
  pointerY: number;
  start: number;
  active: boolean;
  target: HTMLElement | null;
  /** The frame of the scroll near the window's edge, while one is asked for. */
  frame: number;
}

/** How near the window's top or bottom edge the pointer makes the page scroll. */
export const EDGE_SCROLL_ZONE_PX = 64;
/** The most the page scrolls in one frame, with the pointer at the edge itself (or past it). */
export const EDGE_SCROLL_MAX_PX = 24;

/**
 * How far the window scrolls in a frame with a dragged card's pointer at `y`: towards the edge
 * the pointer is near, faster the nearer it is, nothing away from the edges. `top` is where the
 * window's free area begins (below a header that stays at the top).
 */
export function edgeScroll(y: number, top: number, bottom: number): number {
  const into = (depth: number) =>
    Math.ceil(EDGE_SCROLL_MAX_PX * Math.min(1, depth / EDGE_SCROLL_ZONE_PX));
  if (y > bottom - EDGE_SCROLL_ZONE_PX) return into(y - (bottom - EDGE_SCROLL_ZONE_PX));
  if (y < top + EDGE_SCROLL_ZONE_PX) return -into(top + EDGE_SCROLL_ZONE_PX - y);
  return 0;
}

/** The height of what stays at the top of the window, as the site header publishes it. */
function stickyTop(): number {
  const value = getComputedStyle(document.documentElement).getPropertyValue(
    '--sticky-header-height',
  );
  return Number.parseFloat(value) || 0;
}

/** The day list under a point, not the dragged card's own element. */
function dayAt(x: number, y: number, dragged: HTMLElement): HTMLElement | null {
  for (const element of document.elementsFromPoint(x, y)) {
    if (dragged.contains(element)) continue;
    const day = (element as HTMLElement).closest<HTMLElement>('[data-drop-day]');
    if (day) return day;
  }
  return null;
}

/** The place in a day list where a card let go at height `y` lands (the dragged card left out). */
function placeIn(day: HTMLElement, y: number, uid: string): DropPlace {
  const cards = [...day.querySelectorAll<HTMLElement>('[data-card]')].filter(
    (c) => c.dataset.card !== uid,
  );
  let index = cards.findIndex((c) => {
    const box = c.getBoundingClientRect();
    return y < box.top + box.height / 2;
  });
  if (index < 0) index = cards.length;
  return { week: Number(day.dataset.dropWeek), day: day.dataset.dropDay ?? '', index };
}

/**
 * Moving cards by pointer, by hand (this product's own behaviour, spec §4): a card follows the
 * pointer once it has gone further than 50 px and been held over 200 ms; let go then, over a
 * day, it moves there. A shorter or quicker drag does nothing. The day under the pointer gets
 * `dropClass`, the dragged card `draggingClass`. Held near the window's top or bottom edge, the
 * pointer scrolls the page (a card cannot be pressed and the page swiped at once on a phone), so
 * a day below or above the window can be reached; the card stays under the pointer.
 */
export function useCardDrag(options: {
  onDrop: (uid: string, place: DropPlace) => void;
  draggingClass: string;
  dropClass: string;
}) {
  const gesture = useRef<Gesture | null>(null);
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const mark = (g: Gesture, target: HTMLElement | null) => {
      if (g.target === target) return;
      g.target?.classList.remove(latest.current.dropClass);
      target?.classList.add(latest.current.dropClass);
      g.target = target;
    };
    const end = (g: Gesture) => {
      if (g.frame) cancelAnimationFrame(g.frame);
      g.element.style.transform = '';
      g.element.classList.remove(latest.current.draggingClass);
      mark(g, null);
      gesture.current = null;
    };
    /**
     * The card under the pointer and the day under it marked. The card's own box moves with the
     * page, so what the window has scrolled since the press is added to what the pointer moved.
     */
    const follow = (g: Gesture) => {
      const dx = g.pointerX - g.x + (window.scrollX - g.scrollX);
      const dy = g.pointerY - g.y + (window.scrollY - g.scrollY);
      g.element.style.transform = `translate(${dx}px, ${dy}px)`;
      mark(g, dayAt(g.pointerX, g.pointerY, g.element));
    };
    /** Scrolls a frame's worth while the pointer stays near an edge, then asks for the next. */
    const edge = (g: Gesture) => {
      g.frame = 0;
      if (gesture.current !== g || !g.active) return;
      const step = edgeScroll(g.pointerY, stickyTop(), window.innerHeight);
      if (step === 0) return;
      const before = window.scrollY;
      window.scrollBy(0, step);
      if (window.scrollY === before) return;
      follow(g);
      g.frame = requestAnimationFrame(() => edge(g));
    };
    const move = (event: PointerEvent) => {
      const g = gesture.current;
      if (!g || event.pointerId !== g.pointerId) return;
      g.pointerX = event.clientX;
      g.pointerY = event.clientY;
      if (
        !g.active &&
        dragMoves(Math.hypot(event.clientX - g.x, event.clientY - g.y), event.timeStamp - g.start)
      ) {
        g.active = true;
        g.element.classList.add(latest.current.draggingClass);
      }
      if (!g.active) return;
      event.preventDefault();
      follow(g);
      if (!g.frame) g.frame = requestAnimationFrame(() => edge(g));
    };
    /** The page scrolled some other way (a wheel) during a drag: the card keeps to the pointer. */
    const scrolled = () => {
      const g = gesture.current;
      if (g?.active) follow(g);
    };
    const up = (event: PointerEvent) => {
      const g = gesture.current;
      if (!g || event.pointerId !== g.pointerId) return;
      const distance = Math.hypot(event.clientX - g.x, event.clientY - g.y);
      // A card that follows the pointer has passed the thresholds, wherever it is let go.
      const moves = g.active || dragMoves(distance, event.timeStamp - g.start);
      const day = moves ? dayAt(event.clientX, event.clientY, g.element) : null;
      const uid = g.uid;
      end(g);
      if (day) latest.current.onDrop(uid, placeIn(day, event.clientY, uid));
    };
    const cancel = (event: PointerEvent) => {
      const g = gesture.current;
      if (g && event.pointerId === g.pointerId) end(g);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('scroll', scrolled, { passive: true });
    return () => {
      if (gesture.current) end(gesture.current);
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('scroll', scrolled);
    };
  }, []);

  /** The card's `onPointerDown`: a gesture starts, unless it began on one of the card's buttons. */
  return (uid: string) => (event: React.PointerEvent<HTMLElement>) => {
    if (event.button !== 0 || gesture.current) return;
    if ((event.target as HTMLElement).closest('button, a[href], input, textarea')) return;
    event.preventDefault();
    gesture.current = {
      uid,
      element: event.currentTarget,
      pointerId: event.pointerId,
      x: event.clientX,
      y: event.clientY,
      scrollX: window.scrollX,
      scrollY: window.scrollY,
      pointerX: event.clientX,
      pointerY: event.clientY,
      start: event.timeStamp,
      active: false,
      target: null,
      frame: 0,
    };
  };
}
