import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  HomePage,
  loadPage,
  movedPath,
  PREVIEW_PATH,
  resolvePath,
  resolvePreview,
} from '../features/content/index.server.ts';
import { loadLunchMenuWidget } from '../features/lunch-menu/index.server.ts';
import {
  loadLayoutData,
  loadPageVisitor,
  SiteLayout,
} from '../features/navigation/index.server.ts';
import { loadSearchWidget } from '../features/search/index.server.ts';
import {
  loadShopPageWidget,
  loadShopProductReviews,
  loadShopProductWidget,
} from '../features/shop/index.server.ts';
import { serverT } from '../i18n/catalogues.ts';
import { type PageLayout, renderPage } from '../render/render-page.tsx';
import { NotFound } from '../server/errors.ts';
import { queryOfTarget, requestPath, sameSitePath } from '../server/request-path.ts';
import { ErrorPage } from './error-page.tsx';
import { faviconPng, faviconSvg } from './favicon.ts';
import { PreviewMark } from './preview-mark.tsx';

/** What other features put on content pages. */
const widgets = {
  search: loadSearchWidget,
  shopProduct: loadShopProductWidget,
  shopProductReviews: loadShopProductReviews,
  shopPage: loadShopPageWidget,
  lunchMenu: loadLunchMenuWidget,
};

/** The site's layout, for the features that register pages of their own (shop, subscriptions). */
export const siteLayout: PageLayout = async (request, body) => (
  <SiteLayout layout={await loadLayoutData(request)}>{body}</SiteLayout>
);

const errorTitles = {
  400: 'error.badRequest.title',
  404: 'error.notFound.title',
  500: 'error.server.title',
  503: 'error.unavailable.title',
} as const;

/**
 * The pages: every path no route above claims is a content page of the request's site and
 * language, in the site's layout; the error pages and the favicon go with them.
 */
export async function pageRoutes(app: FastifyInstance) {
  app.errorPage.render = async (request, reply, status) =>
    renderPage(request, reply, {
      title: serverT(request.locale.lang)(errorTitles[status]),
      status,
      body: (
        // While the database is unavailable (503) the frame asks nothing of it (decision 140).
        <SiteLayout layout={await loadLayoutData(request, { offline: status === 503 })}>
          <ErrorPage status={status} />
        </SiteLayout>
      ),
    });

  app.get('/favicon.svg', { config: { session: false } }, async (request, reply) =>
    reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(faviconSvg(request.site)),
  );
  // `/favicon.ico` is what a browser asks for on a document that names no icon (the JSON of
  // `/health`, a PDF): the same PNG answers it, which every browser takes, instead of a 404.
  for (const url of ['/favicon.png', '/favicon.ico'])
    app.get(url, { config: { session: false } }, async (request, reply) =>
      reply
        .type('image/png')
        .header('cache-control', 'public, max-age=86400')
        .send(await faviconPng(request.site)),
    );

  previewRoutes(app);

  app.get('/*', async (request, reply) => {
    const { locale } = request;
    if (locale.prefix && requestPath(request) === locale.prefix) {
      return reply.redirect(`${locale.prefix}/`, 301);
    }
    if (locale.rest.length > 1 && locale.rest.endsWith('/')) {
      // The path came from the visitor: `//evil.example/` must not send them to another host.
      const path = sameSitePath(`${locale.prefix}${locale.rest.replace(/\/+$/, '')}`);
      return reply.redirect(`${path}${queryOfTarget(request.url)}`, 301);
    }
    // Visitors share the page (decision 033): answered from the cache, or made and kept; while
    // the database is unavailable, from the last good copy (decision 140). The page is made as a
    // guest sees it; what it shows of a shopper or a customer is filled into its holes (decision
    // 157).
    const cache = request.server.pageCache;
    cache.offer(request);
    const key = await cache.keyOf(request);
    const visitor = await loadPageVisitor(request);
    if (key && cache.serve(key, request, reply, visitor)) return reply;
    // A page that is the visitor's own (the cart page) may answer them again for a moment
    // (decision 163).
    const own = await cache.ownKeyOf(request);
    if (own && cache.serveOwn(own, request, reply)) return reply;
    const made = cache.made();
    const keep = (shareable: boolean) =>
      key || own || visitor.variant !== ''
        ? (html: Buffer) => {
            if (key) cache.store(key, made, request, reply, { status: 200, html, shareable });
            const filled = cache.fillFor(html, visitor);
            if (own) cache.storeOwn(own, made, request, reply, { status: 200, html: filled });
            return filled;
          }
        : undefined;
    const layout = () => loadLayoutData(request, { shared: true });
    const resolved = await resolvePath(
      request.server.db,
      request.site.id,
      locale.lang,
      locale.rest,
    );
    if (!resolved) {
      if (locale.rest !== '/') {
        // A published path that moved answers with its new place (decision 165).
        const moved = await movedPath(request.server.db, request.site.id, locale.lang, locale.rest);
        if (moved === undefined) throw new NotFound();
        const target = sameSitePath(`${locale.prefix}${moved}`);
        return reply.redirect(`${target}${queryOfTarget(request.url)}`, 301);
      }
      // A site without content still has its home page.
      return renderPage(request, reply, {
        body: (
          <SiteLayout layout={await layout()}>
            <HomePage />
          </SiteLayout>
        ),
        onHtml: keep(true),
      });
    }
    const page = await loadPage(request, resolved, widgets);
    return renderPage(request, reply, {
      ...(page.title ? { title: page.title } : {}),
      ...(page.description ? { description: page.description } : {}),
      head: page.head,
      body: <SiteLayout layout={await layout()}>{page.body}</SiteLayout>,
      onHtml: keep(page.shareable),
    });
  });
}

/**
 * A draft's preview (decision 162): the real renderer and theme, at the site's own address,
 * never from or into the page cache (a route of its own), never stored by a browser or proxy,
 * never indexed.
 */
function previewRoutes(app: FastifyInstance) {
  const preview = async (request: FastifyRequest, reply: FastifyReply) => {
    const { token } = request.params as { token?: unknown };
    const found =
      typeof token === 'string' &&
      token.length <= 1000 &&
      requestPath(request) === `${request.locale.prefix}${PREVIEW_PATH}/${token}`
        ? await resolvePreview(request, token)
        : undefined;
    if (!found) throw new NotFound('The preview link is not valid or has expired.');
    const page = await loadPage(request, found.resolved, widgets);
    return renderPage(request, reply, {
      ...(page.title ? { title: page.title } : {}),
      ...(page.description ? { description: page.description } : {}),
      head: (
        <>
          <meta name="robots" content="noindex, nofollow" />
          {page.head}
        </>
      ),
      body: (
        <>
          <PreviewMark version={found.version} />
          <SiteLayout layout={await loadLayoutData(request)}>{page.body}</SiteLayout>
        </>
      ),
    });
  };
  const noStore = {
    onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      reply.header('cache-control', 'no-store');
      reply.header('x-robots-tag', 'noindex, nofollow');
      return payload;
    },
  };
  app.get(`${PREVIEW_PATH}/:token`, noStore, preview);
  app.get(`/:lang${PREVIEW_PATH}/:token`, noStore, preview);
}
