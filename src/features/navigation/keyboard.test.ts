import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce, moveIndex, trapIndex } from './keyboard.ts';

describe('moveIndex', () => {
  it('steps with the arrows of its axis and wraps around', () => {
    expect(moveIndex(0, 3, 'ArrowRight', 'horizontal')).toBe(1);
    expect(moveIndex(2, 3, 'ArrowRight', 'horizontal')).toBe(0);
    expect(moveIndex(0, 3, 'ArrowLeft', 'horizontal')).toBe(2);
    expect(moveIndex(1, 3, 'ArrowDown', 'vertical')).toBe(2);
    expect(moveIndex(0, 3, 'ArrowUp', 'vertical')).toBe(2);
  });

  it('jumps with Home and End, and enters from outside at the nearest end', () => {
    expect(moveIndex(1, 4, 'Home', 'vertical')).toBe(0);
    expect(moveIndex(1, 4, 'End', 'horizontal')).toBe(3);
    expect(moveIndex(-1, 4, 'ArrowDown', 'vertical')).toBe(0);
    expect(moveIndex(-1, 4, 'ArrowUp', 'vertical')).toBe(3);
  });

  it('leaves other keys, the other axis and empty lists alone', () => {
    expect(moveIndex(0, 3, 'ArrowDown', 'horizontal')).toBeUndefined();
    expect(moveIndex(0, 3, 'ArrowRight', 'vertical')).toBeUndefined();
    expect(moveIndex(0, 3, 'Enter', 'vertical')).toBeUndefined();
    expect(moveIndex(-1, 0, 'ArrowDown', 'vertical')).toBeUndefined();
  });
});

describe('trapIndex', () => {
  it('wraps from the last element to the first and back', () => {
    expect(trapIndex(4, 5, false)).toBe(0);
    expect(trapIndex(0, 5, true)).toBe(4);
  });

  it('lets the browser move inside the trap', () => {
    expect(trapIndex(1, 5, false)).toBeUndefined();
    expect(trapIndex(3, 5, true)).toBeUndefined();
  });

  it('brings focus from outside to the nearest end', () => {
    expect(trapIndex(-1, 5, false)).toBe(0);
    expect(trapIndex(-1, 5, true)).toBe(4);
    expect(trapIndex(-1, 0, false)).toBeUndefined();
  });
});

describe('debounce', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls once, with the last arguments, after calls stop for the delay', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const debounced = debounce(fn, 100);
    debounced(1);
    vi.advanceTimersByTime(60);
    debounced(2);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
  });

  it('can be cancelled', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const debounced = debounce(fn, 100);
    debounced();
    debounced.cancel();
    vi.advanceTimersByTime(500);
    expect(fn).not.toHaveBeenCalled();
  });
});
