import type { Lang } from '../../../sites/types.ts';

/**
 * Sitemaps (sitemaps.org protocol) with hreflang alternates as Google reads them: every URL lists
 * all its language versions, itself included, as `xhtml:link` elements.
 */

export interface SitemapEntry {
  /** Absolute URL. */
  loc: string;
  lastmod: Date;
  /** Language versions including this one; empty when there is only this one. */
  alternates: readonly { hreflang: Lang | 'x-default'; href: string }[];
}

/**
 * URLs per sitemap file. The protocol allows 50 000 (and 50 MB); with three language alternates
 * per URL a file of 10 000 stays near 5 MB, which crawlers fetch and parse without trouble.
 */
export const SITEMAP_PART_SIZE = 10_000;
export const SITEMAP_MAX_URLS = 50_000;

/** A site fits in one file, or `/sitemap.xml` becomes an index of `/sitemap-<n>.xml` parts. */
export function sitemapPartCount(entries: number, partSize: number): number {
  const size = Math.min(Math.max(1, Math.floor(partSize)), SITEMAP_MAX_URLS);
  return entries <= size ? 1 : Math.ceil(entries / size);
}

/** The entries of part `n` (1-based). */
export function sitemapPart<T>(entries: readonly T[], partSize: number, n: number): T[] {
  const size = Math.min(Math.max(1, Math.floor(partSize)), SITEMAP_MAX_URLS);
  return entries.slice((n - 1) * size, n * size);
}

export function urlsetXml(entries: readonly SitemapEntry[]): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n',
  ];
  for (const entry of entries) {
    out.push(`<url><loc>${escapeXml(entry.loc)}</loc><lastmod>${w3cDate(entry.lastmod)}</lastmod>`);
    for (const a of entry.alternates) {
      out.push(
        `<xhtml:link rel="alternate" hreflang="${escapeXml(a.hreflang)}" href="${escapeXml(a.href)}"/>`,
      );
    }
    out.push('</url>\n');
  }
  out.push('</urlset>\n');
  return out.join('');
}

export function sitemapIndexXml(
  parts: readonly { loc: string; lastmod: Date | undefined }[],
): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (const part of parts) {
    out.push(`<sitemap><loc>${escapeXml(part.loc)}</loc>`);
    if (part.lastmod) out.push(`<lastmod>${w3cDate(part.lastmod)}</lastmod>`);
    out.push('</sitemap>\n');
  }
  out.push('</sitemapindex>\n');
  return out.join('');
}

/** The latest `lastmod` of some entries. */
export function latest(entries: readonly SitemapEntry[]): Date | undefined {
  let max: Date | undefined;
  for (const e of entries) if (!max || e.lastmod > max) max = e.lastmod;
  return max;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * Text for XML content and attributes. Characters XML 1.0 cannot carry at all (most C0 controls,
 * lone surrogates, U+FFFE/U+FFFF) are dropped, or the whole file would fail to parse.
 */
export function escapeXml(text: string): string {
  return text
    .replace(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML forbids is the point
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    )
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);
}

function w3cDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
