import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PresetName } from './presets.ts';
import { renderVariant, variantKey } from './variants.server.ts';

/**
 * Cover crops are cut around the image's focus point (decision 168): a picture that is blue but
 * for a red square in its bottom right corner shows the square in every cover crop when the
 * focus point is on it, and not when the focus point is in the middle.
 */
let original: Buffer;
const size = { width: 1600, height: 1000 };

beforeAll(async () => {
  const red = await sharp({ create: { width: 240, height: 240, channels: 3, background: '#f00' } })
    .png()
    .toBuffer();
  original = await sharp({ create: { ...size, channels: 3, background: '#00f' } })
    .composite([{ input: red, left: size.width - 240, top: size.height - 240 }])
    .png()
    .toBuffer();
});

/** The share of a crop's pixels that are clearly red. */
async function redShare(image: Buffer): Promise<number> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if ((data[i] ?? 0) > 200 && (data[i + 2] ?? 255) < 60) red++;
  }
  return red / (info.width * info.height);
}

/** The cover presets that cut the wide picture's sides (the wide ones keep its whole width). */
const covers: PresetName[] = ['card-square', 'card-tall', 'card-xtra-tall', 'hero-narrow'];

describe('cover crops', () => {
  it.each(covers)(
    '%s holds the corner the focus point is on, and a centred one does not',
    async (preset) => {
      const centred = await renderVariant(
        original,
        { ...size, focusX: 0.5, focusY: 0.5 },
        preset,
        'webp',
      );
      const focused = await renderVariant(
        original,
        { ...size, focusX: 0.95, focusY: 0.95 },
        preset,
        'webp',
      );
      expect(await redShare(centred)).toBe(0);
      expect(await redShare(focused)).toBeGreaterThan(0.02);
    },
  );

  it('keeps a new revision’s crops apart from the first one’s', () => {
    expect(variantKey(7, 'third', 'avif')).toBe('images/cache/7/third.avif');
    expect(variantKey(7, 'third', 'avif', 3)).toBe('images/cache/7/r3/third.avif');
  });
});
