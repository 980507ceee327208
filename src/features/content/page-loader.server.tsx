import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { serverT } from '../../i18n/catalogues.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Card } from './blocks.ts';
import { blockImageIds } from './components/blocks.tsx';
import type { Crumb } from './components/breadcrumbs.tsx';
import {
  ancestors,
  childPages,
  latestNews,
  loadImages,
  type PageDto,
  productsUnder,
  type Resolved,
  recipesUnder,
} from './content.server.ts';
import { HomePage } from './home-page.tsx';
import { ContentPage } from './pages/content-page.tsx';
import { ListingPage } from './pages/listing-page.tsx';
import { NewsPage } from './pages/news-page.tsx';
import { ProductPage } from './pages/product-page.tsx';
import { RecipePage } from './pages/recipe-page.tsx';

const LISTING_PAGE_SIZE = 24;
const listingQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

export interface LoadedPage {
  title: string | undefined;
  description: string | undefined;
  body: ReactNode;
}

/** Loads what a resolved path needs and builds its page. */
export async function loadPage(request: FastifyRequest, resolved: Resolved): Promise<LoadedPage> {
  const { db } = request.server;
  const { site, locale } = request;
  const lang = locale.lang;
  const t = serverT(lang);
  const prefix = langPrefix(site, lang);
  const linkOf = (path: string) => (path === '/' ? `${prefix}/` : `${prefix}${path}`);
  const crumbsFor = async (path: string, name: string): Promise<Crumb[]> => {
    const chain = await ancestors(db, site.id, lang, path);
    return [
      ...chain.map((p) => ({
        name: p.path === '/' ? t('content.home') : p.navLabel,
        href: linkOf(p.path),
      })),
      { name, href: linkOf(path) },
    ];
  };

  switch (resolved.kind) {
    case 'product': {
      const { product } = resolved;
      const [crumbs, images] = await Promise.all([
        crumbsFor(product.path, product.name),
        loadImages(db, product.imageIds, lang),
      ]);
      return {
        title: product.name,
        description: product.teaser || undefined,
        body: (
          <ProductPage
            product={product}
            crumbs={crumbs}
            images={product.imageIds.map((id) => images.get(id)).filter((i) => i !== undefined)}
          />
        ),
      };
    }
    case 'recipe': {
      const { recipe } = resolved;
      const [crumbs, images] = await Promise.all([
        crumbsFor(recipe.path, recipe.title),
        loadImages(db, [recipe.imageId], lang),
      ]);
      return {
        title: recipe.title,
        description: recipe.teaser || undefined,
        body: (
          <RecipePage
            recipe={recipe}
            crumbs={crumbs}
            image={recipe.imageId ? images.get(recipe.imageId) : undefined}
          />
        ),
      };
    }
    case 'news': {
      const { news } = resolved;
      const [crumbs, images] = await Promise.all([
        crumbsFor(news.path, news.title),
        loadImages(db, [news.imageId], lang),
      ]);
      return {
        title: news.title,
        description: news.teaser || undefined,
        body: (
          <NewsPage
            news={news}
            crumbs={crumbs}
            image={news.imageId ? images.get(news.imageId) : undefined}
          />
        ),
      };
    }
    case 'page':
      return loadContentPage(request, resolved.page, { linkOf, crumbsFor });
  }
}

async function loadContentPage(
  request: FastifyRequest,
  page: PageDto,
  helpers: {
    linkOf: (path: string) => string;
    crumbsFor: (path: string, name: string) => Promise<Crumb[]>;
  },
): Promise<LoadedPage> {
  const { db } = request.server;
  const lang = request.locale.lang;
  const t = serverT(lang);
  const title = page.path === '/' ? undefined : (page.seoTitle ?? page.title);
  const description = page.seoDescription ?? (page.teaser || undefined);

  if (page.type === 'home') {
    const images = await loadImages(db, blockImageIds(page.blocks), lang);
    return { title, description, body: <HomePage page={page} images={images} /> };
  }

  const listing = await loadListing(request, page, helpers.linkOf);
  if (listing) {
    const crumbs = await helpers.crumbsFor(page.path, page.navLabel);
    const images = await loadImages(
      db,
      [...blockImageIds(page.blocks), ...listing.cards.map((c) => c.imageId)],
      lang,
    );
    const pages = Math.max(1, Math.ceil(listing.total / LISTING_PAGE_SIZE));
    return {
      title,
      description,
      body: (
        <ListingPage
          page={page}
          crumbs={crumbs}
          cards={listing.cards}
          images={images}
          pageNumber={Math.min(listing.pageNumber, pages)}
          pages={pages}
          basePath={helpers.linkOf(page.path)}
          emptyText={t('content.empty')}
          countText={t('content.itemCount', { count: listing.total })}
        />
      ),
    };
  }

  const [crumbs, children] = await Promise.all([
    helpers.crumbsFor(page.path, page.navLabel),
    childPages(db, page.id),
  ]);
  const images = await loadImages(
    db,
    [...blockImageIds(page.blocks), ...children.map((c) => c.teaserImageId)],
    lang,
  );
  return {
    title,
    description,
    body: (
      <ContentPage
        page={page}
        crumbs={crumbs}
        images={images}
        childPages={children}
        sectionLabel={t('content.inThisSection')}
        linkOf={helpers.linkOf}
      />
    ),
  };
}

async function loadListing(
  request: FastifyRequest,
  page: PageDto,
  linkOf: (path: string) => string,
): Promise<{ cards: Card[]; total: number; pageNumber: number } | undefined> {
  const { db } = request.server;
  const { site, locale } = request;
  const { page: pageNumber } = listingQuery.parse(request.query ?? {});
  const offset = (pageNumber - 1) * LISTING_PAGE_SIZE;
  const prefix = page.path === '/' ? '' : page.path;
  switch (page.type) {
    case 'product-list': {
      const { items, total } = await productsUnder(
        db,
        site.id,
        locale.lang,
        prefix,
        LISTING_PAGE_SIZE,
        offset,
      );
      const cards = items.map(
        (p): Card => ({
          type: 'headerImageSquare',
          link: linkOf(p.path),
          header: p.name,
          productCode: p.code,
          imagePreset: 'card-square',
          ...(p.imageIds[0] ? { imageId: p.imageIds[0] } : {}),
        }),
      );
      return { cards, total, pageNumber };
    }
    case 'recipe-list': {
      const { items, total } = await recipesUnder(
        db,
        site.id,
        locale.lang,
        prefix,
        LISTING_PAGE_SIZE,
        offset,
      );
      const cards = items.map(
        (r): Card => ({
          type: 'recipeCard',
          link: linkOf(r.path),
          header: r.title,
          totalTime: r.totalTimeMinutes,
          likeCount: r.likeCount,
          ...(r.imageId ? { imageId: r.imageId } : {}),
        }),
      );
      return { cards, total, pageNumber };
    }
    case 'newsroom': {
      const { items, total } = await latestNews(
        db,
        site.id,
        locale.lang,
        LISTING_PAGE_SIZE,
        offset,
      );
      const cards = items.map(
        (n): Card => ({
          type: n.kind === 'mynewsdesk' ? 'mynewsdeskCard' : 'cisionCard',
          link: linkOf(n.path),
          header: n.title,
          publishDate: n.publishDate.toISOString(),
          ...(n.textType ? { cisionTextType: n.textType } : {}),
          ...(n.imageId ? { imageId: n.imageId } : {}),
        }),
      );
      return { cards, total, pageNumber };
    }
    default:
      return undefined;
  }
}
