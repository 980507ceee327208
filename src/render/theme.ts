import type { ThemeTokens } from '../sites/types.ts';

const names: Record<keyof ThemeTokens, string> = {
  brand: '--color-brand',
  onBrand: '--color-on-brand',
  accent: '--color-accent',
  surface: '--color-surface',
  raised: '--color-raised',
  text: '--color-text',
  link: '--color-link',
  focus: '--color-focus',
  focusHalo: '--color-focus-halo',
  headingFont: '--font-heading',
  bodyFont: '--font-body',
};

/** A site's theme as CSS custom properties on :root. */
export function themeCss(tokens: ThemeTokens): string {
  const declarations = (Object.keys(names) as (keyof ThemeTokens)[])
    .map((key) => `${names[key]}:${tokens[key]}`)
    .join(';');
  // Tokens are code, not input; '<' is still refused so the text can never close its element.
  return `:root{${declarations}}`.replaceAll('<', '');
}
