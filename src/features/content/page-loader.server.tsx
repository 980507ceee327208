import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { newsReleases, pages, products, recipes } from '../../db/schema.ts';
import { serverT } from '../../i18n/catalogues.ts';
import { imageUrl, presetSize } from '../../images/presets.ts';
import { langPrefix } from '../../sites/resolve.ts';
import type { Card } from './blocks.ts';
import { newsCard, newsCardType, productCard, recipeCard } from './card-grid/cards.ts';
import { Blocks, blockImageIds } from './components/blocks.tsx';
import { Breadcrumbs, type Crumb } from './components/breadcrumbs.tsx';
import styles from './components/content.module.css';
import {
  ancestors,
  childPages,
  type ImageDto,
  languageVersions,
  listNews,
  listProducts,
  listRecipes,
  loadImages,
  type PageDto,
  type Resolved,
} from './content.server.ts';
import { HomePage } from './home-page.tsx';
import { ContentPage } from './pages/content-page.tsx';
import { ListingPage } from './pages/listing-page.tsx';
import { NewsPage } from './pages/news-page.tsx';
import { ProductPage } from './pages/product-page.tsx';
import { RecipePage } from './pages/recipe-page.tsx';
import { SeoHead, type SeoHeadProps } from './seo/head.tsx';
import {
  contentPageSeo,
  newsSeo,
  productSeo,
  recipeSeo,
  type SeoImageInput,
  seoContext,
} from './seo/page-seo.ts';
import { recipeFacets } from './seo/recipe-facets.server.ts';

const LISTING_PAGE_SIZE = 24;
const listingQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/** What other features put on content pages, handed in by the app that knows them all. */
export interface PageWidgets {
  search(
    request: FastifyRequest,
    page: PageDto,
  ): Promise<{ element: ReactNode; inline: boolean } | undefined>;
}

export interface LoadedPage {
  title: string | undefined;
  description: string | undefined;
  head: ReactNode;
  body: ReactNode;
}

function seoImage(image: ImageDto | undefined, preset: string): SeoImageInput[] {
  return image
    ? [{ src: imageUrl(image, preset), ...presetSize(preset, image), alt: image.alt }]
    : [];
}

function headOf(seo: SeoHeadProps): ReactNode {
  return <SeoHead {...seo} />;
}

/** Loads what a resolved path needs and builds its page. */
export async function loadPage(
  request: FastifyRequest,
  resolved: Resolved,
  widgets: PageWidgets,
): Promise<LoadedPage> {
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
      const [crumbs, images, versions] = await Promise.all([
        crumbsFor(product.path, product.name),
        loadImages(db, product.imageIds, lang),
        languageVersions(db, products, site.id, product.translationKey),
      ]);
      const ordered = product.imageIds.map((id) => images.get(id)).filter((i) => i !== undefined);
      const seo = productSeo(
        seoContext(request, product.path, versions, crumbs),
        product,
        ordered.flatMap((i) => seoImage(i, 'default')),
      );
      return {
        title: product.name,
        description: seo.description,
        head: headOf(seo),
        body: <ProductPage product={product} crumbs={crumbs} images={ordered} />,
      };
    }
    case 'recipe': {
      const { recipe } = resolved;
      const [crumbs, images, versions, facets] = await Promise.all([
        crumbsFor(recipe.path, recipe.title),
        loadImages(db, [recipe.imageId], lang),
        languageVersions(db, recipes, site.id, recipe.translationKey),
        recipeFacets(db, recipe.facetTagIds),
      ]);
      const image = recipe.imageId ? images.get(recipe.imageId) : undefined;
      const seo = recipeSeo(
        seoContext(request, recipe.path, versions, crumbs),
        recipe,
        // Search engines prefer a recipe's picture in several shapes: 4:3, 16:9 and 1:1.
        ['default', 'card-wide', 'card-square'].flatMap((preset) => seoImage(image, preset)),
        facets,
      );
      return {
        title: recipe.title,
        description: seo.description,
        head: headOf(seo),
        body: <RecipePage recipe={recipe} crumbs={crumbs} image={image} />,
      };
    }
    case 'news': {
      const { news } = resolved;
      const [crumbs, images, versions] = await Promise.all([
        crumbsFor(news.path, news.title),
        loadImages(db, [news.imageId], lang),
        languageVersions(db, newsReleases, site.id, news.translationKey),
      ]);
      const image = news.imageId ? images.get(news.imageId) : undefined;
      const seo = newsSeo(
        seoContext(request, news.path, versions, crumbs),
        news,
        seoImage(image, 'default'),
      );
      return {
        title: news.title,
        description: seo.description,
        head: headOf(seo),
        body: <NewsPage news={news} crumbs={crumbs} image={image} />,
      };
    }
    case 'page':
      return loadContentPage(request, resolved.page, widgets, { linkOf, crumbsFor });
  }
}

async function loadContentPage(
  request: FastifyRequest,
  page: PageDto,
  widgets: PageWidgets,
  helpers: {
    linkOf: (path: string) => string;
    crumbsFor: (path: string, name: string) => Promise<Crumb[]>;
  },
): Promise<LoadedPage> {
  const { db } = request.server;
  const lang = request.locale.lang;
  const t = serverT(lang);
  const title = page.path === '/' ? undefined : (page.seoTitle ?? page.title);
  const versions = await languageVersions(db, pages, request.site.id, page.translationKey);
  /** The page's picture for link previews: its teaser image, else the first image of its blocks. */
  const previewId = page.teaserImageId ?? blockImageIds(page.blocks)[0];
  const seoFor = (images: Map<number, ImageDto>, crumbs?: Crumb[], pageNumber?: number) => {
    const ctx = {
      ...seoContext(request, page.path, versions, crumbs),
      ...(pageNumber ? { pageNumber } : {}),
    };
    return contentPageSeo(
      ctx,
      page,
      seoImage(previewId ? images.get(previewId) : undefined, 'default')[0],
    );
  };

  if (page.type === 'home') {
    const images = await loadImages(db, [previewId, ...blockImageIds(page.blocks)], lang);
    const seo = seoFor(images);
    return {
      title,
      description: seo.description,
      head: headOf(seo),
      body: <HomePage page={page} images={images} />,
    };
  }

  // A page that holds a search (the site search, or a product, recipe or newsroom search) is
  // rendered from its URL on the server and searched further by its island.
  const search = await widgets.search(request, page);
  if (search) {
    const [crumbs, images] = await Promise.all([
      helpers.crumbsFor(page.path, page.navLabel),
      loadImages(db, [previewId, ...blockImageIds(page.blocks)], lang),
    ]);
    const seo = seoFor(images, crumbs);
    return {
      title,
      description: seo.description,
      head: headOf(seo),
      body: (
        <>
          <div className="container">
            <Breadcrumbs items={crumbs} />
            <header className={styles.pageHeader}>
              <h1>{page.title}</h1>
              {page.teaser && search.inline ? <p className={styles.lead}>{page.teaser}</p> : null}
            </header>
            {search.inline ? search.element : null}
          </div>
          {search.inline ? null : search.element}
          <Blocks blocks={page.blocks} images={images} />
        </>
      ),
    };
  }

  const listing = await loadListing(request, page, helpers.linkOf);
  if (listing) {
    const crumbs = await helpers.crumbsFor(page.path, page.navLabel);
    const images = await loadImages(
      db,
      [previewId, ...blockImageIds(page.blocks), ...listing.cards.map((c) => c.imageId)],
      lang,
    );
    const pageCount = Math.max(1, Math.ceil(listing.total / LISTING_PAGE_SIZE));
    const seo = seoFor(images, crumbs, listing.pageNumber);
    return {
      title,
      description: seo.description,
      head: headOf(seo),
      body: (
        <ListingPage
          page={page}
          crumbs={crumbs}
          cards={listing.cards}
          images={images}
          pageNumber={Math.min(listing.pageNumber, pageCount)}
          pages={pageCount}
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
    [previewId, ...blockImageIds(page.blocks), ...children.map((c) => c.teaserImageId)],
    lang,
  );
  const seo = seoFor(images, crumbs);
  return {
    title,
    description: seo.description,
    head: headOf(seo),
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
  const slice = { limit: LISTING_PAGE_SIZE, offset: (pageNumber - 1) * LISTING_PAGE_SIZE };
  const filter = { siteId: site.id, lang: locale.lang };
  const under = page.path === '/' ? '' : page.path;
  switch (page.type) {
    case 'product-list': {
      const { items, total } = await listProducts(db, { ...filter, under }, slice);
      const cards = items.map((p) =>
        productCard(p, { type: 'headerImageSquare', link: linkOf(p.path) }),
      );
      return { cards, total, pageNumber };
    }
    case 'recipe-list': {
      const { items, total } = await listRecipes(db, { ...filter, under }, slice);
      const cards = items.map((r) => recipeCard(r, { type: 'recipeCard', link: linkOf(r.path) }));
      return { cards, total, pageNumber };
    }
    case 'newsroom': {
      const { items, total } = await listNews(db, filter, slice);
      const cards = items.map((n) =>
        newsCard(n, { type: newsCardType(n.kind), link: linkOf(n.path) }),
      );
      return { cards, total, pageNumber };
    }
    default:
      return undefined;
  }
}
