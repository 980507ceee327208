import { describe, expect, it } from 'vitest';
import { autoplayTarget, directionOf, slideAtScroll, step, wrap } from './slides.ts';

describe('step', () => {
  it('wraps around at both ends', () => {
    expect(step(0, 4, 1)).toBe(1);
    expect(step(3, 4, 1)).toBe(0);
    expect(step(0, 4, -1)).toBe(3);
    expect(step(2, 4, -1)).toBe(1);
  });

  it('stays on the only slide', () => {
    expect(step(0, 1, 1)).toBe(0);
    expect(step(0, 1, -1)).toBe(0);
  });

  it('wraps any distance and an empty carousel to 0', () => {
    expect(wrap(9, 4)).toBe(1);
    expect(wrap(-6, 4)).toBe(2);
    expect(wrap(3, 0)).toBe(0);
  });
});

describe('autoplayTarget', () => {
  it('toggles between the first two slides only', () => {
    expect(autoplayTarget(0, 4)).toBe(1);
    expect(autoplayTarget(1, 4)).toBe(0);
    // From a slide reached by hand, autoplay goes back to the first.
    expect(autoplayTarget(2, 4)).toBe(0);
    expect(autoplayTarget(3, 4)).toBe(0);
    expect(autoplayTarget(1, 2)).toBe(0);
  });

  it('has nowhere to go with one slide', () => {
    expect(autoplayTarget(0, 1)).toBeNull();
    expect(autoplayTarget(0, 0)).toBeNull();
  });
});

describe('directionOf', () => {
  it('slides forwards to a later slide and backwards to an earlier one', () => {
    expect(directionOf(0, 2)).toBe('next');
    expect(directionOf(3, 1)).toBe('previous');
  });
});

describe('slideAtScroll', () => {
  it('picks the slide nearest the scroll position, within the slides', () => {
    expect(slideAtScroll(0, 1280, 4)).toBe(0);
    expect(slideAtScroll(1300, 1280, 4)).toBe(1);
    expect(slideAtScroll(1900, 1280, 4)).toBe(1);
    expect(slideAtScroll(2000, 1280, 4)).toBe(2);
    expect(slideAtScroll(99_999, 1280, 4)).toBe(3);
    expect(slideAtScroll(500, 0, 4)).toBe(0);
  });
});
