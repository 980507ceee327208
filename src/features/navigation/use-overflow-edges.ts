import { type RefObject, useEffect, useState } from 'react';

/** Which ends of a row that scrolls sideways hold more than the row shows. */
export interface OverflowEdges {
  start: boolean;
  end: boolean;
}

const NONE: OverflowEdges = { start: false, end: false };

/**
 * Follows whether a sideways-scrolling element has more to show before its start or after its
 * end: on scroll, and when it or its items change size (a narrower window, larger text, a font
 * that arrives late). The header's row of bar links uses it to show that it scrolls.
 */
export function useOverflowEdges(ref: RefObject<HTMLElement | null>): OverflowEdges {
  const [edges, setEdges] = useState<OverflowEdges>(NONE);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      // A pixel of slack: scroll positions and widths are fractional at some zoom levels.
      const hidden = element.scrollWidth - element.clientWidth;
      const start = hidden > 1 && element.scrollLeft > 1;
      const end = hidden > 1 && element.scrollLeft < hidden - 1;
      setEdges((before) =>
        before.start === start && before.end === end ? before : { start, end },
      );
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    for (const item of element.children) observer.observe(item);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, [ref]);
  return edges;
}
