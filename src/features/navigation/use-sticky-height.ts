import { type RefObject, useEffect } from 'react';
import type { HeaderMode } from './use-header-mode.ts';

/** The custom property `global.css` adds to the page's scroll padding. */
export const STICKY_HEIGHT_PROPERTY = '--sticky-header-height';

/**
 * Publishes the height of what the header keeps at the top of the window on the document: at the
 * mobile width the whole header (it is sticky), at the desktop width its bottom row (fixed once
 * the page is scrolled past the threshold; nothing when the site has none). The page's scroll
 * padding includes it, so a focused element or a followed link's target (an error summary's
 * field) stops below the bar instead of under it (WCAG 2.4.11). It follows the bar's size, which
 * grows with larger text. A header that is not shown (`shown` false: the shop in a frame) keeps
 * nothing clear.
 */
export function useStickyHeight(
  header: RefObject<HTMLElement | null>,
  mode: HeaderMode | null,
  shown: boolean,
) {
  useEffect(() => {
    if (mode === null) return;
    const root = document.documentElement;
    const element = shown ? header.current : null;
    const sticky =
      mode === 'mobile'
        ? element
        : element?.querySelector<HTMLElement>('[data-header-row="bottom"]');
    const publish = () =>
      root.style.setProperty(STICKY_HEIGHT_PROPERTY, `${Math.ceil(sticky?.offsetHeight ?? 0)}px`);
    publish();
    const observer = sticky ? new ResizeObserver(publish) : undefined;
    if (sticky) observer?.observe(sticky);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(STICKY_HEIGHT_PROPERTY);
    };
  }, [header, mode, shown]);
}
