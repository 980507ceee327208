import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { HomePage, loadPage, resolvePath } from '../features/content/index.server.ts';
import { loadLunchMenuWidget } from '../features/lunch-menu/index.server.ts';
import { loadLayoutData, SiteLayout } from '../features/navigation/index.server.ts';
import { loadSearchWidget } from '../features/search/index.server.ts';
import {
  accountPageRoutes,
  checkoutPageRoutes,
  handoverPageRoutes,
  loadShopPageWidget,
  loadShopProductReviews,
  loadShopProductWidget,
  orderPaymentPageRoutes,
  testBankPageRoutes,
} from '../features/shop/index.server.ts';
import { subscriptionPageRoutes } from '../features/subscriptions/index.server.ts';
import { serverT } from '../i18n/catalogues.ts';
import { renderPage } from '../render/render-page.tsx';
import { NotFound } from '../server/errors.ts';
import { queryOfTarget, requestPath, sameSitePath } from '../server/request-path.ts';
import { ErrorPage } from './error-page.tsx';
import { faviconPng, faviconSvg } from './favicon.ts';

/** What other features put on content pages. */
const widgets = {
  search: loadSearchWidget,
  shopProduct: loadShopProductWidget,
  shopProductReviews: loadShopProductReviews,
  shopPage: loadShopPageWidget,
  lunchMenu: loadLunchMenuWidget,
};

const errorTitles = {
  400: 'error.badRequest.title',
  404: 'error.notFound.title',
  500: 'error.server.title',
  503: 'error.unavailable.title',
} as const;

/** A feature's page body in the site's layout. */
async function inSiteLayout(request: FastifyRequest, body: ReactNode) {
  return <SiteLayout layout={await loadLayoutData(request)}>{body}</SiteLayout>;
}

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

  // Pages of the features, in the site's layout: the shop's cart hand-over page (decision 021),
  // the built-in test bank's page while it is the payment provider (decision 024), the payment's
  // return page and the order confirmation (decision 028), the shop's account pages (decision
  // 025) and checkout page (decision 029), and the pages the subscription mails link to
  // (decision 038).
  await app.register(handoverPageRoutes(inSiteLayout));
  await app.register(testBankPageRoutes(inSiteLayout));
  await app.register(orderPaymentPageRoutes(inSiteLayout));
  await app.register(accountPageRoutes(inSiteLayout));
  await app.register(checkoutPageRoutes(inSiteLayout));
  await app.register(subscriptionPageRoutes(inSiteLayout));

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
    // Anonymous visitors share the page (decision 033): answered from the cache, or made and kept;
    // while the database is unavailable, from the last good copy (decision 140).
    const cache = request.server.pageCache;
    cache.offer(request);
    const key = await cache.keyOf(request);
    if (key && cache.serve(key, request, reply)) return reply;
    const made = { version: request.server.database.contentVersion.current, at: Date.now() };
    const keep = (shareable: boolean) =>
      key
        ? (html: Buffer) => cache.store(key, made, request, reply, { status: 200, html, shareable })
        : undefined;
    const resolved = await resolvePath(
      request.server.db,
      request.site.id,
      locale.lang,
      locale.rest,
    );
    if (!resolved) {
      if (locale.rest !== '/') throw new NotFound();
      // A site without content still has its home page.
      return renderPage(request, reply, {
        body: (
          <SiteLayout layout={await loadLayoutData(request)}>
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
      body: <SiteLayout layout={await loadLayoutData(request)}>{page.body}</SiteLayout>,
      onHtml: keep(page.shareable),
    });
  });
}
