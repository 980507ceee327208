import type { Site } from '../sites/types.ts';

/** The site's emblem as a small SVG icon in its brand colours. */
export function faviconSvg(site: Site): string {
  const initial = site.name
    .replace(/[^\p{L}]/gu, '')
    .charAt(0)
    .toUpperCase();
  const xml = (s: string) => s.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="${xml(site.theme.brand)}"/><text x="16" y="22" text-anchor="middle" font-family="system-ui,sans-serif" font-size="18" font-weight="700" fill="${xml(site.theme.onBrand)}">${xml(initial)}</text></svg>`;
}
