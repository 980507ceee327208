import type { Lang } from '../../../sites/types.ts';

export interface SeoImage {
  /** Absolute URL. */
  url: string;
  width: number;
  height: number;
  alt: string;
}

export interface SeoHeadProps {
  /** Absolute URL of this page. */
  canonical: string;
  /** Every language version, this one included; empty for content in one language only. */
  alternates: { lang: Lang; href: string }[];
  /** The version for languages the site does not have: the default language's. */
  xDefault?: string;
  /** The page's own title, without the site name (og:site_name carries it). */
  title: string;
  description?: string;
  image?: SeoImage;
  type: 'website' | 'article' | 'product';
  siteName: string;
  /** Open Graph locale of this version (`fi_FI`). */
  locale: string;
  /** Open Graph locales of the other language versions. */
  alternateLocales?: string[];
  /** For `type: 'article'`: ISO 8601 times. */
  article?: { publishedTime: string; modifiedTime?: string };
  /** schema.org objects, one script element each. */
  jsonLd: object[];
  /** `<meta name="robots">`, e.g. `noindex` for a search page's paging (decision 050). */
  robots?: string;
}

/**
 * What a page adds to `<head>` for search engines and link previews: canonical and hreflang links,
 * Open Graph and Twitter card tags, and JSON-LD. Pass it as `PageOptions.head`.
 *
 * The JSON-LD goes into `<script type="application/ld+json">` although the CSP allows no inline
 * script: a script element whose type is not a JavaScript MIME type (or `module`/`importmap`) is a
 * data block. HTML's "prepare the script element" stops at the type check, before it asks CSP
 * whether inline script may run, so `script-src` neither blocks nor reports it, and nothing in it is
 * ever executed. What still matters is the HTML parser: `</script` or `<!--` inside the text would
 * end or confuse the element, so `jsonLdText` escapes every `<` (and `>`, `&`, U+2028/U+2029).
 */
export function SeoHead(props: SeoHeadProps) {
  const { image } = props;
  return (
    <>
      {props.robots ? <meta name="robots" content={props.robots} /> : null}
      <link rel="canonical" href={props.canonical} />
      {props.alternates.map((a) => (
        <link key={a.lang} rel="alternate" hrefLang={a.lang} href={a.href} />
      ))}
      {props.xDefault ? <link rel="alternate" hrefLang="x-default" href={props.xDefault} /> : null}
      <meta property="og:type" content={props.type} />
      <meta property="og:title" content={props.title} />
      {props.description ? <meta property="og:description" content={props.description} /> : null}
      <meta property="og:url" content={props.canonical} />
      <meta property="og:site_name" content={props.siteName} />
      <meta property="og:locale" content={props.locale} />
      {(props.alternateLocales ?? []).map((locale) => (
        <meta key={locale} property="og:locale:alternate" content={locale} />
      ))}
      {image ? (
        <>
          <meta property="og:image" content={image.url} />
          <meta property="og:image:width" content={String(image.width)} />
          <meta property="og:image:height" content={String(image.height)} />
          {image.alt ? <meta property="og:image:alt" content={image.alt} /> : null}
        </>
      ) : null}
      {props.type === 'article' && props.article ? (
        <>
          <meta property="article:published_time" content={props.article.publishedTime} />
          {props.article.modifiedTime ? (
            <meta property="article:modified_time" content={props.article.modifiedTime} />
          ) : null}
        </>
      ) : null}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      {props.jsonLd.map((data, i) => (
        <script
          // biome-ignore lint/suspicious/noArrayIndexKey: the list is built once per render, never reordered
          key={i}
          type="application/ld+json"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a data block, never executed; jsonLdText escapes < so the text cannot end the element
          dangerouslySetInnerHTML={{ __html: jsonLdText(data) }}
        />
      ))}
    </>
  );
}

const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * JSON for a `<script>` element: `<` (so neither `</script>` nor `<!--` can appear), `>` and `&`
 * as `\u003c`, `\u003e`, `\u0026`, and the line separators U+2028/U+2029 that older JavaScript
 * parsers took for line ends. Still valid JSON that parses to the same value.
 */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(
    UNSAFE_IN_SCRIPT,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
