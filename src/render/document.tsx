import type { ReactNode } from 'react';
import type { Lang, Site } from '../sites/types.ts';
import type { PageAssets } from './assets.ts';
import { IslandScope, type ResolvedIslands } from './island.server.tsx';
import { themeCss } from './theme.ts';

/** The favicon's size in pixels (`/favicon.png`): a multiple of 48, as search engines ask. */
export const FAVICON_SIZE = 96;

export interface DocumentProps {
  site: Site;
  lang: Lang;
  title: string;
  description?: string;
  assets: PageAssets;
  /** The island components the page renders with. */
  islands: Partial<ResolvedIslands>;
  head?: ReactNode;
  children: ReactNode;
}

/** The id of the page's main content, right after the header (the skip link's target). */
export const MAIN_ID = 'main';

/** The whole HTML document of a page. */
export function Document(props: DocumentProps) {
  const { site, lang, assets } = props;
  return (
    <html lang={lang} data-site={site.id}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        {props.description ? <meta name="description" content={props.description} /> : null}
        <meta name="theme-color" content={site.theme.brand} />
        <link
          rel="icon"
          href="/favicon.png"
          type="image/png"
          sizes={`${FAVICON_SIZE}x${FAVICON_SIZE}`}
        />
        {/* No first paint before the whole header is parsed: a paint of half a header (the
            parser yields mid-document on a slow connection or device) would shift it when the
            rest arrives. The layout's <main id="main"> follows the header. */}
        <link rel="expect" href={`#${MAIN_ID}`} {...{ blocking: 'render' }} />
        {props.head}
        <style
          // biome-ignore lint/security/noDangerouslySetInnerHtml: theme tokens from the site registry
          dangerouslySetInnerHTML={{ __html: themeCss(site.theme) }}
        />
        {assets.styles.map((href) => (
          <link key={href} rel="stylesheet" href={href} />
        ))}
        {assets.modulePreloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} />
        ))}
        {assets.scripts.map((src) => (
          <script key={src} type="module" src={src} />
        ))}
      </head>
      <body>
        <IslandScope
          components={props.islands}
          textsUrl={assets.islandTexts}
          codeUrls={assets.islandCode}
        >
          {props.children}
        </IslandScope>
      </body>
    </html>
  );
}
