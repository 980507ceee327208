/** Browser-safe parts of the navigation. */
export type { LayoutData } from './header-props.ts';
export { languageLinks } from './language-links.ts';
export { initialGlyph, LETTER_STROKE } from './letter-glyphs.ts';
export { SiteLogo } from './site-logo.tsx';
