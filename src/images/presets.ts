/**
 * Image presets: the sizes `/images/…?preset=` serves. Browser-safe (no Node imports), so markup
 * and widgets compute the same width and height the server will send.
 *
 * - `cover`: exactly width × height, cropped around the image's focus point (enlarged if the
 *   original is smaller, so the layout always gets the size it reserved).
 * - `inside`: the whole image within width (× height), never enlarged.
 * - `contain`: the whole image within width × height, padded with `background` to exactly that
 *   size (product packs on white).
 */
export interface Preset {
  width: number;
  height?: number;
  fit: 'cover' | 'inside' | 'contain';
  background?: string;
}

export const presets = {
  default: { width: 1200, fit: 'inside' },
  /**
   * Not in the spec's list: the step between `small` and `default` in a width preset's srcset, so
   * a phone (a ~400 px column at 1.75–2 device pixels per CSS pixel) gets 800 px, not 1200.
   */
  medium: { width: 800, fit: 'inside' },
  small: { width: 400, fit: 'inside' },
  third: { width: 600, height: 400, fit: 'cover' },
  'three-by-two-crop': { width: 900, height: 600, fit: 'cover' },
  'thumbnail-medium': { width: 160, height: 160, fit: 'cover' },
  'product-thumbnail-medium': { width: 160, height: 160, fit: 'contain', background: '#ffffff' },
  hero: { width: 1920, height: 800, fit: 'cover' },
  /**
   * Not in the spec's list: the hero's crop for narrow screens (decision 061). The hero is 600 px
   * high at any width, so a phone shows a tall slice of the wide picture, enlarged; this is that
   * slice (3:4 around the focus point), a fraction of the wide picture's bytes.
   */
  'hero-narrow': { width: 720, height: 960, fit: 'cover' },
  'card-square': { width: 600, height: 600, fit: 'cover' },
  'card-tall': { width: 600, height: 800, fit: 'cover' },
  'card-wide': { width: 800, height: 450, fit: 'cover' },
  'card-xtra-tall': { width: 600, height: 1000, fit: 'cover' },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof presets;

export const presetNames = Object.keys(presets) as PresetName[];

export function isPresetName(name: string): name is PresetName {
  return Object.hasOwn(presets, name);
}

/**
 * The preset a name stands for. Cards may name their own preset in content; a name this table
 * does not know falls back to `default`, so markup never points at a URL that answers 400.
 */
export function resolvePreset(name: string): PresetName {
  return isPresetName(name) ? name : 'default';
}

/** The width and height the server sends for an original of the given size in a preset. */
export function presetSize(
  preset: PresetName | (string & {}),
  original: { width: number; height: number },
): { width: number; height: number } {
  const p: Preset = presets[resolvePreset(preset)];
  if (p.fit === 'inside') {
    const scale = Math.min(
      1,
      p.width / original.width,
      p.height === undefined ? 1 : p.height / original.height,
    );
    return {
      width: Math.max(1, Math.round(original.width * scale)),
      height: Math.max(1, Math.round(original.height * scale)),
    };
  }
  return { width: p.width, height: p.height ?? p.width };
}

/**
 * The URL of an image in a preset: `/images/<id>/<slug>.jpg?preset=<name>`, and `&v=<revision>`
 * from the image's second revision on (decision 168: a replaced file or a moved focus point is a
 * new revision). An id and revision never point at other pixels, so the answer may be cached for
 * a year. The slug is only for people reading the URL; the server negotiates the format (AVIF,
 * WebP, JPEG) whatever the extension says.
 */
export function imageUrl(
  image: { id: number; slug?: string; revision?: number | undefined },
  preset: PresetName | (string & {}),
): string {
  const revision = image.revision && image.revision > 1 ? `&v=${image.revision}` : '';
  return `/images/${image.id}/${slugify(image.slug ?? '') || 'image'}.jpg?preset=${resolvePreset(preset)}${revision}`;
}

/** Lower-case ASCII letters, digits and single hyphens: `Grillimakkara 400 g` → `grillimakkara-400-g`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
