import { useEffect, useState } from 'react';
import { debounce } from './keyboard.ts';

/** Spec §2 and §9: wider than 1024 px is the desktop header; the CSS uses the same query. */
export const DESKTOP_QUERY = '(min-width: 1024.02px)';
export type HeaderMode = 'desktop' | 'mobile';

/**
 * The header's mode, re-read 100 ms after the last resize. `null` until the island has mounted:
 * the markup never depends on it (CSS lays the header out at every width), only behaviour does.
 */
export function useHeaderMode(): HeaderMode | null {
  const [mode, setMode] = useState<HeaderMode | null>(null);
  useEffect(() => {
    const read = () => setMode(window.matchMedia(DESKTOP_QUERY).matches ? 'desktop' : 'mobile');
    read();
    const onResize = debounce(read, 100);
    window.addEventListener('resize', onResize);
    return () => {
      onResize.cancel();
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return mode;
}

/**
 * Whether the page is scrolled at all and whether it is at or past the sticky threshold, read
 * once per frame while scrolling.
 */
export function useScrollState(threshold: number): { scrolled: boolean; sticky: boolean } {
  const [state, setState] = useState({ scrolled: false, sticky: false });
  useEffect(() => {
    let frame = 0;
    const read = () => {
      frame = 0;
      const y = window.scrollY;
      const scrolled = y > 0;
      const sticky = y >= threshold;
      setState((s) => (s.scrolled === scrolled && s.sticky === sticky ? s : { scrolled, sticky }));
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [threshold]);
  return state;
}
