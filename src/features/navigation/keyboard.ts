/**
 * The index focus moves to among `count` items for a key: arrows step and wrap, Home and End
 * jump. `undefined` for any other key, so the caller leaves the event alone.
 */
export function moveIndex(
  current: number,
  count: number,
  key: string,
  axis: 'horizontal' | 'vertical',
): number | undefined {
  if (count === 0) return undefined;
  const [back, forward] =
    axis === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown'];
  if (key === forward) return current < 0 ? 0 : (current + 1) % count;
  if (key === back) return current < 0 ? count - 1 : (current - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return undefined;
}

/**
 * Where Tab leads inside a focus trap: from the last element forward to the first, from the
 * first backward to the last, from outside to the nearest end. `undefined` leaves the browser's
 * own move, which stays inside.
 */
export function trapIndex(current: number, count: number, backward: boolean): number | undefined {
  if (count === 0) return undefined;
  if (current < 0) return backward ? count - 1 : 0;
  if (backward && current === 0) return count - 1;
  if (!backward && current === count - 1) return 0;
  return undefined;
}

/** Calls `fn` once calls have stopped for `ms` (spec §9: the header re-checks its mode 100 ms after a resize). */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
): ((...args: A) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}
