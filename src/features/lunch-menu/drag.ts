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
  start: number;
  active: boolean;
  target: HTMLElement | null;
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
 * `dropClass`, the dragged card `draggingClass`.
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
      g.element.style.transform = '';
      g.element.classList.remove(latest.current.draggingClass);
      mark(g, null);
      gesture.current = null;
    };
    const move = (event: PointerEvent) => {
      const g = gesture.current;
      if (!g || event.pointerId !== g.pointerId) return;
      const dx = event.clientX - g.x;
      const dy = event.clientY - g.y;
      if (!g.active && dragMoves(Math.hypot(dx, dy), event.timeStamp - g.start)) {
        g.active = true;
        g.element.classList.add(latest.current.draggingClass);
      }
      if (!g.active) return;
      event.preventDefault();
      g.element.style.transform = `translate(${dx}px, ${dy}px)`;
      mark(g, dayAt(event.clientX, event.clientY, g.element));
    };
    const up = (event: PointerEvent) => {
      const g = gesture.current;
      if (!g || event.pointerId !== g.pointerId) return;
      const distance = Math.hypot(event.clientX - g.x, event.clientY - g.y);
      const moves = dragMoves(distance, event.timeStamp - g.start);
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
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
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
      start: event.timeStamp,
      active: false,
      target: null,
    };
  };
}
