/**
 * The card and brand-logo carousels' arithmetic (spec §4 and §9), apart from React so it can be
 * tested on its own. The breakpoints are those of `card-carousel.module.css`; keep them in step.
 */

/** Cards per view on large screens when the block names none (spec §4: default 4). */
export const DEFAULT_CARDS_PER_VIEW = 4;
/** Cards per view when the block's value cannot be used (spec §4: fallback 5). */
export const FALLBACK_CARDS_PER_VIEW = 5;
/** Below this width one card shows; below `LARGE_FROM` three (spec §4: small 1, medium 3). */
export const MEDIUM_FROM = 768;
export const LARGE_FROM = 1024;

/** The brand-logo carousel repeats its cards until it has at least this many (spec §9). */
export const MIN_BRAND_LOGOS = 21;
/** Width of a brand logo in pixels (spec §9), and the space between two. */
export const BRAND_LOGO_PX = 130;
export const BRAND_LOGO_GAP_PX = 16;

/** Cards a card carousel shows at a viewport width, with the block's configured count. */
export function cardsPerView(width: number, configured?: number): number {
  if (width < MEDIUM_FROM) return 1;
  if (width < LARGE_FROM) return 3;
  if (configured === undefined) return DEFAULT_CARDS_PER_VIEW;
  return Number.isInteger(configured) && configured >= 1 ? configured : FALLBACK_CARDS_PER_VIEW;
}

/** Logos that fit in a row `width` pixels wide (at least one). */
export function logosPerView(width: number): number {
  return Math.max(1, Math.floor((width + BRAND_LOGO_GAP_PX) / (BRAND_LOGO_PX + BRAND_LOGO_GAP_PX)));
}

/** The list repeated whole until it holds at least `min` items (empty stays empty). */
export function repeatToAtLeast<T>(items: readonly T[], min: number): T[] {
  if (items.length === 0) return [];
  const out: T[] = [];
  while (out.length < min) out.push(...items);
  return out;
}

/** First index of the group after `first`: one group on, the last group kept full. */
export function nextFirst(first: number, perView: number, count: number): number {
  const last = Math.max(0, count - perView);
  return Math.min(first + perView, last);
}

/** First index of the group before `first`. */
export function previousFirst(first: number, perView: number): number {
  return Math.max(0, first - perView);
}

/** Whether the left arrow shows (moved from the start) and the right one (more cards remain). */
export function arrows(first: number, perView: number, count: number) {
  return { previous: first > 0, next: first + perView < count };
}
