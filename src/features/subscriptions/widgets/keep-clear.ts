import { type RefObject, useEffect, useState } from 'react';

/**
 * What a floating bar must never cover, as the page marks it: its forms, and any element with
 * `data-keep-clear` (the weekly lunch menu, where cards are dragged to Friday at the right edge).
 * Forms in dialogs are over the bar anyway, and the bar's own are its own.
 */
const WORK_AREAS = 'main form, [data-keep-clear]';

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return (
    b.width > 0 &&
    b.height > 0 &&
    b.bottom > a.top &&
    b.top < a.bottom &&
    b.right > a.left &&
    b.left < a.right
  );
}

/**
 * Whether a fixed bar should step aside: while the place it takes in the window lies over a
 * form, a `data-keep-clear` area or the element that has the focus. Checked once a frame while
 * the page scrolls or changes size and when the focus moves; never while the focus is in the bar
 * itself (a keyboard visitor who reached it keeps it), nor while `active` is false.
 */
export function useKeepClear(bar: RefObject<HTMLElement | null>, active: boolean): boolean {
  const [clear, setClear] = useState(false);
  useEffect(() => {
    const element = bar.current;
    if (!active || !element) {
      setClear(false);
      return;
    }
    let frame = 0;
    const check = () => {
      frame = 0;
      if (element.contains(document.activeElement)) {
        setClear(false);
        return;
      }
      // Hidden by visibility only, the bar keeps its place: its box is where it would show.
      const place = element.getBoundingClientRect();
      const focused = document.activeElement;
      const areas = [...document.querySelectorAll(WORK_AREAS)].filter(
        (area) => !element.contains(area) && !area.closest('[role="dialog"]'),
      );
      if (focused && focused !== document.body) areas.push(focused);
      setClear(areas.some((area) => overlaps(place, area.getBoundingClientRect())));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(check);
    };
    check();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    document.addEventListener('focusin', schedule);
    document.addEventListener('focusout', schedule);
    // A form that grows (its error summary) or a menu that changes moves what lies under the bar.
    const observer = new ResizeObserver(schedule);
    observer.observe(document.body);
    observer.observe(element);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      document.removeEventListener('focusin', schedule);
      document.removeEventListener('focusout', schedule);
      observer.disconnect();
    };
  }, [bar, active]);
  return clear;
}
