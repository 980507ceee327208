import type { Lang } from '../src/sites/types.ts';

/** Friendly-URL segment: lower case ASCII letters, digits and single hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[äåà]/g, 'a')
    .replace(/[öø]/g, 'o')
    .replace(/[éèê]/g, 'e')
    .replace(/ü/g, 'u')
    .replace(/&/g, ' ')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function capitalize(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

export function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase() + text.slice(1);
}

/** '400 g', '1 kg', '2,5 kg' (a decimal point in English). */
export function formatWeight(lang: Lang, grams: number): string {
  if (grams < 1000) return `${grams} g`;
  const kg = String(Math.round(grams / 100) / 10);
  return `${lang === 'en' ? kg : kg.replace('.', ',')} kg`;
}

/** A number with the language's decimal separator. */
export function formatNumber(lang: Lang, value: number): string {
  const text = String(value);
  return lang === 'en' ? text : text.replace('.', ',');
}

/** The EAN-13 check digit of twelve digits: weights 1 and 3 from the left. */
export function eanCheckDigit(twelve: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(twelve[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

/** A valid EAN-13 from a GS1 country prefix (64 Finland, 73 Sweden) and a running number. */
export function gtin13(prefix: string, company: string, item: number): string {
  const twelve = `${prefix}${company}${String(item).padStart(12 - prefix.length - company.length, '0')}`;
  if (twelve.length !== 12) throw new Error(`GTIN body must be 12 digits: ${twelve}`);
  return `${twelve}${eanCheckDigit(twelve)}`;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function paragraphs(texts: readonly string[]): string {
  return texts.map((t) => `<p>${escapeHtml(t)}</p>`).join('');
}

export function list(items: readonly string[]): string {
  return `<ul>${items.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>`;
}
