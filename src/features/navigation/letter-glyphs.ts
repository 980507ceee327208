/**
 * Capital letters drawn as strokes for the logo's emblem (a 40 × 40 box, the letter 16 high and
 * centred): the emblem's initial is a shape, not text, so the logo's one text stays its name
 * (WCAG 2.5.3), and drawing it costs the browser no SVG document of its own, which a picture of
 * the letter (`<image href="data:image/svg+xml,…">`) did: about 80 ms of the main thread on the
 * first page a visitor opens (issue 14, decision 061).
 *
 * A path is its centre line, drawn with a round, bold stroke (`LETTER_STROKE`). A letter not here
 * leaves the emblem whole.
 */
export const LETTER_STROKE = 3.6;

const A = 'M13 28 20 12 27 28M15.6 22.2H24.4';
const O = 'M12 20a8 8 0 1 0 16 0a8 8 0 1 0-16 0';

const GLYPHS: Readonly<Record<string, string>> = {
  A,
  B: 'M14 28V12h6.5a4 4 0 0 1 0 8H14m6.5 0h.5a4 4 0 0 1 0 8h-7',
  C: 'M26.5 15.4A8 8 0 1 0 26.5 24.6',
  D: 'M14 12v16h4a8 8 0 0 0 0-16Z',
  E: 'M26 12H14v16h12M14 20h9',
  F: 'M26 12H14v16M14 20h9',
  G: 'M26.5 15.4A8 8 0 1 0 28 20h-7',
  H: 'M14 12v16M26 12v16M14 20h12',
  I: 'M20 12v16',
  J: 'M25 12v11a5 5 0 0 1-10 0',
  K: 'M14 12v16M26 12 14 23M18.5 19.3 26 28',
  L: 'M15 12v16h11',
  M: 'M12 28V12l8 11 8-11v16',
  N: 'M14 28V12l12 16V12',
  O,
  P: 'M14 28V12h7a4.5 4.5 0 0 1 0 9h-7',
  Q: `${O}M22.5 24.5 28 30`,
  R: 'M14 28V12h7a4.5 4.5 0 0 1 0 9h-7m6 0 6 7',
  S: 'M26 14.5C24.5 12.5 22 12 20 12c-3.5 0-6 1.8-6 4.3 0 5.7 12 3.3 12 7.9 0 2.5-2.5 3.8-6 3.8-2.5 0-5-1-6.5-3',
  T: 'M13 12h14M20 12v16',
  U: 'M14 12v10a6 6 0 0 0 12 0V12',
  V: 'M13 12l7 16 7-16',
  W: 'M11 12l4 16 5-12 5 12 4-16',
  X: 'M14 12l12 16M26 12 14 28',
  Y: 'M13 12l7 8.5 7-8.5M20 20.5V28',
  Z: 'M14 12h12L14 28h12',
  Å: `${A}M20 5.9a1.7 1.7 0 1 0 0.01 0`,
  Ä: `${A}M16.2 7.6h.01M23.8 7.6h.01`,
  Ö: `${O}M16.4 7.6h.01M23.6 7.6h.01`,
};

/** The centre line of a capital letter, or undefined for a letter not drawn here. */
export function letterGlyph(letter: string): string | undefined {
  return Object.hasOwn(GLYPHS, letter) ? GLYPHS[letter] : undefined;
}

/** The stroke of a name's initial (its first letter, in capitals), or undefined when not drawn. */
export function initialGlyph(name: string): string | undefined {
  return letterGlyph(
    name
      .replace(/[^\p{L}]/gu, '')
      .charAt(0)
      .toUpperCase(),
  );
}
