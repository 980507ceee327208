import sharp from 'sharp';
import { initialGlyph, LETTER_STROKE } from '../features/navigation/index.ts';
import { FAVICON_SIZE } from '../render/document.tsx';
import type { Site } from '../sites/types.ts';

const xml = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The site's emblem as a small SVG icon in its brand colours, the initial drawn as the logo draws
 * it (strokes, `letter-glyphs.ts`): no text, so no font is needed to draw it anywhere.
 */
export function faviconSvg(site: Site): string {
  const glyph = initialGlyph(site.name);
  const letter = glyph
    ? `<path d="${glyph}" transform="scale(0.8)" fill="none" stroke="${xml(site.theme.onBrand)}" stroke-width="${LETTER_STROKE}" stroke-linecap="round" stroke-linejoin="round"/>`
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${xml(site.theme.brand)}"/>${letter}</svg>`;
}

const pngs = new Map<string, Promise<Buffer>>();

/**
 * The icon the pages link to, as a PNG made once per site. A browser draws an SVG icon through a
 * document of its own on the page's main thread, 20–60 ms of it while the page loads (issue 14,
 * decision 061); a PNG is only decoded.
 */
export function faviconPng(site: Site): Promise<Buffer> {
  let png = pngs.get(site.id);
  if (!png) {
    png = sharp(Buffer.from(faviconSvg(site)), { density: (72 * FAVICON_SIZE) / 32 })
      .resize(FAVICON_SIZE, FAVICON_SIZE)
      .png({ compressionLevel: 9, palette: true })
      .toBuffer();
    // A failure is not kept: the next request tries again.
    png.catch(() => pngs.delete(site.id));
    pngs.set(site.id, png);
  }
  return png;
}
