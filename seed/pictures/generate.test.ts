import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawImage, generateImage, imageKinds, imageSizes } from './generate.ts';

describe('generateImage', () => {
  it.each(imageKinds)('draws a %s JPEG of its kind’s size', async (kind) => {
    const image = await generateImage({ kind, seed: 'size-check', title: 'Grillimakkara 400 g' });
    const meta = await sharp(image.data).metadata();
    expect(meta.format).toBe('jpeg');
    expect({ width: meta.width, height: meta.height }).toEqual(imageSizes[kind]);
    expect({ width: image.width, height: image.height }).toEqual(imageSizes[kind]);
    expect(image.mime).toBe('image/jpeg');
    expect(image.focus.x).toBeGreaterThanOrEqual(0);
    expect(image.focus.x).toBeLessThanOrEqual(1);
  });

  it('gives byte-identical output for the same seed, and another picture for another seed', async () => {
    const spec = { kind: 'product' as const, seed: 'same', title: 'Broilerin rintafilee 400 g' };
    const [a, b] = await Promise.all([generateImage(spec), generateImage(spec)]);
    expect(a.data.equals(b.data)).toBe(true);
    const other = await generateImage({ ...spec, seed: 'other' });
    expect(other.data.equals(a.data)).toBe(false);
  });

  it('prints the product’s title on the pack, escaped', () => {
    const { svg } = drawImage({ kind: 'product', seed: 'x', title: 'Nakit <&> "Wienin" 300 g' });
    expect(svg).toContain('>Nakit &lt;&amp;&gt;');
    expect(svg).toContain('&quot;Wienin&quot; 300 g<');
    expect(svg).not.toContain('<&>');
  });

  it('draws a scene from the seed alone: the title changes only the pack text', () => {
    const a = drawImage({ kind: 'recipe', seed: 'r1', title: 'A' }).svg;
    const b = drawImage({ kind: 'recipe', seed: 'r1', title: 'B' }).svg;
    expect(a).toBe(b);
  });
});
