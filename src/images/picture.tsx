import { preload } from 'react-dom';
import type { Lang } from '../sites/types.ts';
import { imageUrl, type PresetName, presetSize, presets, resolvePreset } from './presets.ts';

/** What markup needs of an image: its id, original size and alt text (per language or resolved). */
export interface ImageRef {
  id: number;
  width: number;
  height: number;
  alt: string | Partial<Record<Lang, string>>;
  /** Cosmetic part of the URL, e.g. the product's name. */
  slug?: string;
  /** The image's revision (decision 168): a new file or focus point gives new URLs. */
  revision?: number;
}

/** Presets that keep the whole picture at a width: they can stand in for each other in srcset. */
const widthPresets = (Object.keys(presets) as PresetName[]).filter(
  (name) => presets[name].fit === 'inside',
);

/**
 * An image in a preset with its width and height in the markup, so the page does not shift while
 * it loads. The server picks AVIF, WebP or JPEG for the URL. The alt text is the image's own in the
 * page's language; `decorative` images get an empty alt so screen readers skip them. With `sizes`,
 * a width preset (`default`, `small`) also lists the other width presets in `srcset`.
 */
export function Img(props: {
  image: ImageRef;
  preset: PresetName | (string & {});
  lang: Lang;
  decorative?: boolean;
  /** Above the fold (the first hero slide): load at once and with high priority. */
  eager?: boolean;
  className?: string;
  sizes?: string;
}) {
  const { image } = props;
  const preset = resolvePreset(props.preset);
  const size = presetSize(preset, image);
  const srcSet = props.sizes && widthPresets.includes(preset) ? srcSetOf(image) : undefined;
  return (
    <img
      src={imageUrl(image, preset)}
      {...(srcSet ? { srcSet, sizes: props.sizes } : {})}
      width={size.width}
      height={size.height}
      alt={props.decorative ? '' : altText(image.alt, props.lang)}
      loading={props.eager ? 'eager' : 'lazy'}
      decoding={props.eager ? 'sync' : 'async'}
      {...(props.eager ? { fetchPriority: 'high' as const } : {})}
      {...(props.className ? { className: props.className } : {})}
    />
  );
}

/** Where a picture's narrow crop applies (`NarrowCropImg`), and where its wide one does. */
export const NARROW_MEDIA = '(max-width: 40em)';
const WIDE_MEDIA = '(min-width: 40.0625em)';

/**
 * An image with a crop of its own for narrow screens, in a `<picture>` (art direction: the hero,
 * decision 061). React preloads no image inside a picture, so an eager one asks for both crops'
 * preloads itself, each for its own screens: a phone fetches only the narrow one.
 */
export function NarrowCropImg(props: Parameters<typeof Img>[0] & { narrowPreset: PresetName }) {
  const { narrowPreset, ...img } = props;
  const narrow = presetSize(narrowPreset, props.image);
  const narrowUrl = imageUrl(props.image, narrowPreset);
  if (props.eager) {
    preload(narrowUrl, { as: 'image', media: NARROW_MEDIA, fetchPriority: 'high' });
    preload(imageUrl(props.image, resolvePreset(props.preset)), {
      as: 'image',
      media: WIDE_MEDIA,
      fetchPriority: 'high',
    });
  }
  return (
    <picture>
      <source media={NARROW_MEDIA} srcSet={narrowUrl} width={narrow.width} height={narrow.height} />
      <Img {...img} />
    </picture>
  );
}

export function altText(alt: ImageRef['alt'], lang: Lang): string {
  return typeof alt === 'string' ? alt : (alt[lang] ?? '');
}

function srcSetOf(image: ImageRef): string {
  const seen = new Set<number>();
  const entries: string[] = [];
  for (const name of widthPresets) {
    const { width } = presetSize(name, image);
    if (seen.has(width)) continue;
    seen.add(width);
    entries.push(`${imageUrl(image, name)} ${width}w`);
  }
  return entries.join(', ');
}
