/**
 * The rules both carousels share, kept apart from React so they can be tested on their own.
 * Spec navigation-and-search §2, §4 and §9.
 */

/** Slide animation of the hero carousel (and the image carousel), in milliseconds. */
export const SLIDE_MS = 500;
/** Height of the hero carousel in pixels. */
export const HERO_HEIGHT_PX = 600;
/** Seconds between autoplay steps of the image carousel unless the block says otherwise. */
export const AUTOPLAY_SECONDS = 5;

export type Direction = 'next' | 'previous';

/** An index brought into 0 … count - 1, wrapping around at both ends. */
export function wrap(index: number, count: number): number {
  if (count <= 0) return 0;
  return ((index % count) + count) % count;
}

/** The slide `delta` steps from `index`: next on the last is the first, previous on the first the last. */
export function step(index: number, count: number, delta: number): number {
  return wrap(index + delta, count);
}

/**
 * Where autoplay goes from `index`. The spec's third-brand carousel toggles between the first two
 * images only: from the first it goes to the second, from anywhere else back to the first. With
 * fewer than two slides there is nowhere to go (`null`).
 */
export function autoplayTarget(index: number, count: number): number | null {
  if (count < 2) return null;
  return index === 0 ? 1 : 0;
}

/** Which way a jump to `target` slides: forwards when it lies after the current slide. */
export function directionOf(from: number, target: number): Direction {
  return target >= from ? 'next' : 'previous';
}

/** The slide a scrolled strip shows (before script, the carousel is a scroll-snapping strip). */
export function slideAtScroll(scrollLeft: number, slideWidth: number, count: number): number {
  if (slideWidth <= 0) return 0;
  return Math.min(Math.max(Math.round(scrollLeft / slideWidth), 0), Math.max(count - 1, 0));
}
