import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { serverT } from '../i18n/catalogues.ts';
import type { PageAssets } from './assets.ts';
import { Document } from './document.tsx';
import type { ResolvedIslands } from './island.server.tsx';
import { type PageContextValue, PageProvider } from './page-context.tsx';
import { sendHtml } from './send-html.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The island components pages render with (the app's registry, loaded at start). */
    islands: ResolvedIslands;
  }
}

/**
 * Wraps a page body in the site's layout. The app makes it (it knows the navigation feature) and
 * hands it to each feature that registers pages of its own.
 */
export type PageLayout = (request: FastifyRequest, body: ReactNode) => Promise<ReactNode>;

export interface PageOptions {
  /** The page's own title; the site name is added after it. Omitted on the home page. */
  title?: string;
  description?: string;
  status?: number;
  /** Extra elements for <head>: canonical and alternate links, Open Graph, JSON-LD. */
  head?: ReactNode;
  body: ReactNode;
  /** The page's scripts and styles, when not the client's (`AssetProvider.entry`). */
  assets?: PageAssets;
  /**
   * Gets the whole page before it is sent (then it is rendered whole, not streamed), and may give
   * back other bytes to send instead.
   */
  onHtml?: (html: Buffer) => Buffer | undefined;
}

export function pageContext(request: FastifyRequest): PageContextValue {
  const { site, locale } = request;
  return {
    site,
    lang: locale.lang,
    t: serverT(locale.lang),
    path: request.url.split('?', 1)[0] ?? '/',
    siteHref: (siteId) => siteHomeUrl(request, siteId),
  };
}

/** Renders a whole page of the request's site and language and streams it to the client. */
export function renderPage(request: FastifyRequest, reply: FastifyReply, page: PageOptions) {
  const context = pageContext(request);
  const { site, lang, t } = context;
  const title = page.title ? `${page.title}${t('document.titleSeparator')}${site.name}` : site.name;
  return sendHtml(
    reply,
    <Document
      site={site}
      lang={lang}
      title={title}
      description={page.description ?? site.tagline[lang]}
      assets={page.assets ?? request.server.assets.page()}
      islands={request.server.islands}
      head={page.head}
    >
      <PageProvider value={context}>{page.body}</PageProvider>
    </Document>,
    page.status,
    page.onHtml,
  );
}

/**
 * The home page of another site: its first configured host, or `<site>.localhost` on the port this
 * request came in on, so links between sites work out of the box on a developer's machine.
 */
export function siteHomeUrl(request: FastifyRequest, siteId: string): string {
  const configured = request.server.config.siteHosts[siteId]?.[0];
  if (configured) return `${request.protocol}://${configured}/`;
  return `${request.protocol}://${siteId}.localhost${portSuffix(request)}/`;
}

/**
 * Every origin a site answers on as the browser names it: each configured host, and
 * `<site>.localhost` on this request's port (as `siteHomeUrl` builds them). Cross-site messages
 * are checked against these.
 */
export function siteOrigins(request: FastifyRequest, siteId: string): string[] {
  const configured = request.server.config.siteHosts[siteId] ?? [];
  return [
    ...configured.map((host) => `${request.protocol}://${host}`),
    `${request.protocol}://${siteId}.localhost${portSuffix(request)}`,
  ];
}

function portSuffix(request: FastifyRequest): string {
  const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1];
  return port ? `:${port}` : '';
}
