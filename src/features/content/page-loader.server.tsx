import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { serverT } from '../../i18n/catalogues.ts';
import { imageUrl, presetSize } from '../../images/presets.ts';
import { siteHomeUrl } from '../../render/render-page.tsx';
import { langPrefix } from '../../sites/resolve.ts';
import type { Card } from './blocks.ts';
import { newsCard, newsCardType, productCard, recipeCard } from './card-grid/cards.ts';
import { blockImageIds } from './components/blocks.tsx';
import type { Crumb } from './components/breadcrumbs.tsx';
import {
  ancestors,
  childPages,
  type ItemFilter,
  languageVersions,
  listNews,
  listProducts,
  listRecipes,
  loadImages,
  type NewsRow,
  type PageDto,
  type ProductRow,
  type RecipeRow,
  type Resolved,
  type Slice,
} from './content.server.ts';
import { HomePage } from './home-page.tsx';
import type { ImageDto } from './image-dto.ts';
import { withStoredLikes } from './likes/likes.server.ts';
import {
  contentPageProps,
  homePageProps,
  imageOf,
  type ListingSlice,
  listingPageProps,
  newsPageProps,
  type PageParts,
  productImages,
  productPageProps,
  recipePageProps,
  searchHostPageProps,
} from './page-props.server.ts';
import { ContentPage } from './pages/content-page.tsx';
import { ListingPage } from './pages/listing-page.tsx';
import { NewsPage } from './pages/news-page.tsx';
import { ProductPage } from './pages/product-page.tsx';
import { RecipePage } from './pages/recipe-page.tsx';
import { SearchHostPage } from './pages/search-host-page.tsx';
import { RECIPE_BANNER_COOKIE, recipeBannerSetting } from './recipe-banner/config.ts';
import type { RecipeBannerProps } from './recipe-banner/recipe-banner.tsx';
import { SeoHead, type SeoHeadProps } from './seo/head.tsx';
import {
  contentPageSeo,
  newsSeo,
  productSeo,
  type RecipeFacet,
  recipeSeo,
  type SeoContext,
  type SeoImageInput,
  seoContext,
} from './seo/page-seo.ts';
import { recipeFacets } from './seo/recipe-facets.server.ts';
import { newsReleases, pages, products, recipes } from './tables.ts';
import {
  jobsPageNumber,
  loadWidgetData,
  voteOutcomeOf,
  type WidgetData,
} from './widgets/data.server.ts';

const LISTING_PAGE_SIZE = 24;
const listingQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
});

/**
 * How the site search page is indexed (decision 050): its canonical URL is the plain query
 * (`?q=`, none without one), and `noindex` when its address holds more (paging, a content group,
 * a page size, facets), so no combination becomes a page of its own.
 */
export interface SearchSeo {
  query: string;
  noindex: boolean;
}

/** What other features put on content pages, handed in by the app that knows them all. */
export interface PageWidgets {
  search(
    request: FastifyRequest,
    page: PageDto,
  ): Promise<{ element: ReactNode; inline: boolean; seo?: SearchSeo } | undefined>;
  /** What the shop adds to a product page it sells (buy control, stock, delivery); none elsewhere. */
  shopProduct(request: FastifyRequest, product: ProductRow): Promise<ReactNode | undefined>;
  /** The reviews of a product the shop sells, with its rating (page and JSON-LD); none elsewhere. */
  shopProductReviews(
    request: FastifyRequest,
    product: ProductRow,
  ): Promise<ProductReviewsPart | undefined>;
  /**
   * A shop page the page tree holds (the cart page), rendered by the shop; none for others.
   * `failed`: it shows a refused form post, so the title says so (the failed-submit pattern).
   */
  shopPage(
    request: FastifyRequest,
    page: PageDto,
  ): Promise<{ element: ReactNode; inline: boolean; failed?: boolean } | undefined>;
  /**
   * The weekly lunch menu on the page that holds it (food-service sites); none for others.
   * `shareable`: whether every visitor may get the page alike (a saved menu; not the default).
   */
  lunchMenu(
    request: FastifyRequest,
    page: PageDto,
  ): Promise<{ element: ReactNode; inline: boolean; shareable: boolean } | undefined>;
}

/** A product's reviews as the shop renders them, and the rating they add up to. */
export interface ProductReviewsPart {
  element: ReactNode;
  averageRating: number | null;
  reviewCount: number;
}

export interface LoadedPage {
  /**
   * Whether every visitor gets this page alike (decision 033): false for a page a widget renders
   * for the visitor (the shop's cart page). The page cache keeps only shareable pages.
   */
  shareable: boolean;
  title: string | undefined;
  description: string | undefined;
  head: ReactNode;
  body: ReactNode;
}

type ImageIds = readonly (number | null | undefined)[];

/** What the steps every page shares found, with what the page's own `load` found. */
interface Loaded<D> extends PageParts {
  data: D;
}

/**
 * What sets one kind of page apart. `buildPage` runs the steps they share: the breadcrumb trail,
 * the images, the other language versions and the kind's own `load` in parallel, then the SEO
 * head and the body from what they found.
 */
interface PageSpec<D> {
  /** Where the page's content comes from, for its other language versions. */
  table: typeof pages | typeof products | typeof recipes | typeof newsReleases;
  /** Its path in this language version (without the language prefix) and its translation key. */
  entry: { path: string; translationKey: string };
  /** The page's name at the end of its breadcrumb trail; no trail (the home page) without one. */
  crumbName?: string;
  /** What the kind loads besides: recipe facets, a listing's items, a section's pages. */
  load?: () => Promise<D>;
  /** The images the page shows; when they depend on what `load` found, they load after it. */
  imageIds: ImageIds | ((data: D) => ImageIds);
  title: string | undefined;
  seo(ctx: SeoContext, page: Loaded<D>): SeoHeadProps;
  body(page: Loaded<D>): ReactNode;
}

/** Loads what a resolved path needs and builds its page. */
export async function loadPage(
  request: FastifyRequest,
  resolved: Resolved,
  widgets: PageWidgets,
): Promise<LoadedPage> {
  switch (resolved.kind) {
    case 'product': {
      const [purchase, reviews] = await Promise.all([
        widgets.shopProduct(request, resolved.product),
        widgets.shopProductReviews(request, resolved.product),
      ]);
      return buildPage(request, productPage(resolved.product, purchase, reviews));
    }
    case 'recipe':
      return buildPage(request, recipePage(request, resolved.recipe));
    case 'news':
      return buildPage(request, newsPage(resolved.news));
    case 'page':
      return loadTreePage(request, resolved.page, widgets);
  }
}

/** A page of the page tree: the home page, a page holding a search, a listing or a content page. */
async function loadTreePage(
  request: FastifyRequest,
  stored: PageDto,
  widgets: PageWidgets,
): Promise<LoadedPage> {
  // Cards show the likes counted so far, not the number the page was written with.
  const page = {
    ...stored,
    blocks: await withStoredLikes(
      request.server.db,
      request.site.id,
      request.locale.lang,
      stored.blocks,
    ),
  };
  if (page.type === 'home') return buildPage(request, homePage(page));
  // A page that holds a search (the site search, or a product, recipe or newsroom search) is
  // rendered from its URL on the server and searched further by its island.
  const search = await widgets.search(request, page);
  if (search) return buildPage(request, searchHostPage(request, page, search));
  // A page the shop renders for the visitor (the cart page): never shared.
  const shop = await widgets.shopPage(request, page);
  if (shop) {
    return { ...(await buildPage(request, searchHostPage(request, page, shop))), shareable: false };
  }
  const menu = await widgets.lunchMenu(request, page);
  if (menu) {
    const built = await buildPage(request, searchHostPage(request, page, menu));
    return { ...built, shareable: menu.shareable };
  }
  const list = listings.get(page.type);
  if (list) return buildPage(request, listingPage(request, page, list));
  return buildPage(request, contentPage(request, page));
}

/** The steps every page shares, around what its kind declares. */
async function buildPage<D>(request: FastifyRequest, spec: PageSpec<D>): Promise<LoadedPage> {
  const { db } = request.server;
  const { site, locale } = request;
  // A kind without its own `load` has nothing more: its D is undefined.
  const data = spec.load ? spec.load() : Promise.resolve(undefined as D);
  const { imageIds, entry } = spec;
  const [crumbs, images, versions, loaded] = await Promise.all([
    spec.crumbName === undefined ? [] : crumbsOf(request, entry.path, spec.crumbName),
    typeof imageIds === 'function'
      ? data.then((d) => loadImages(db, imageIds(d), locale.lang))
      : loadImages(db, imageIds, locale.lang),
    languageVersions(db, spec.table, site.id, entry.translationKey),
    data,
  ]);
  const page = { crumbs, images, data: loaded };
  const seo = spec.seo(
    seoContext(request, entry.path, versions, spec.crumbName === undefined ? undefined : crumbs),
    page,
  );
  return {
    shareable: true,
    title: spec.title,
    description: seo.description,
    head: <SeoHead {...seo} />,
    body: spec.body(page),
  };
}

/** A path of the request's site as a link in the request's language. */
function linkerOf(request: FastifyRequest): (path: string) => string {
  const prefix = langPrefix(request.site, request.locale.lang);
  return (path) => (path === '/' ? `${prefix}/` : `${prefix}${path}`);
}

/** The breadcrumb trail from the home page down to a path, which is named `name`. */
async function crumbsOf(request: FastifyRequest, path: string, name: string): Promise<Crumb[]> {
  const { site, locale } = request;
  const t = serverT(locale.lang);
  const linkOf = linkerOf(request);
  const chain = await ancestors(request.server.db, site.id, locale.lang, path);
  return [
    ...chain.map((p) => ({
      name: p.path === '/' ? t('content.home') : p.navLabel,
      href: linkOf(p.path),
    })),
    { name, href: linkOf(path) },
  ];
}

function seoImage(image: ImageDto | undefined, preset: string): SeoImageInput[] {
  return image
    ? [{ src: imageUrl(image, preset), ...presetSize(preset, image), alt: image.alt }]
    : [];
}

// ---------------------------------------------------------------------------------------------
// Products, recipes and news releases
// ---------------------------------------------------------------------------------------------

function productPage(
  product: ProductRow,
  purchase: ReactNode | undefined,
  reviews: ProductReviewsPart | undefined,
): PageSpec<undefined> {
  return {
    table: products,
    entry: product,
    crumbName: product.name,
    imageIds: product.imageIds,
    title: product.name,
    seo: (ctx, { images }) =>
      productSeo(
        ctx,
        product,
        productImages(product, images).flatMap((i) => seoImage(i, 'default')),
        reviews,
      ),
    body: (parts) => (
      <ProductPage {...productPageProps(product, parts)} purchase={purchase} reviews={reviews} />
    ),
  };
}

function recipePage(request: FastifyRequest, recipe: RecipeRow): PageSpec<RecipeFacet[]> {
  return {
    table: recipes,
    entry: recipe,
    crumbName: recipe.title,
    load: () => recipeFacets(request.server.db, recipe.facetTagIds),
    imageIds: [recipe.imageId],
    title: recipe.title,
    seo: (ctx, { images, data: facets }) =>
      recipeSeo(
        ctx,
        recipe,
        // Search engines prefer a recipe's picture in several shapes: 4:3, 16:9 and 1:1.
        ['default', 'card-wide', 'card-square'].flatMap((preset) =>
          seoImage(imageOf(recipe, images), preset),
        ),
        facets,
      ),
    body: (parts) => (
      <RecipePage
        {...recipePageProps(recipe, parts)}
        banner={recipeBanner(request, recipe.path)}
        portionQuery={request.query}
      />
    ),
  };
}

/**
 * The recipe page's mobile banner (spec §4), unless the site has none or this browser closed it
 * (the cookie makes the page the visitor's own: the page cache neither serves nor keeps it).
 */
function recipeBanner(request: FastifyRequest, path: string): RecipeBannerProps | undefined {
  if (request.cookies[RECIPE_BANNER_COOKIE] === 'closed') return undefined;
  const setting = recipeBannerSetting(request.site.id);
  if (!setting) return undefined;
  const { lang } = request.locale;
  const text = setting.text?.[lang];
  return {
    href: 'url' in setting.href ? setting.href.url : siteHomeUrl(request, setting.href.site),
    ...(text ? { text } : {}),
    returnPath: linkerOf(request)(path),
  };
}

function newsPage(news: NewsRow): PageSpec<undefined> {
  return {
    table: newsReleases,
    entry: news,
    crumbName: news.title,
    imageIds: [news.imageId],
    title: news.title,
    seo: (ctx, { images }) => newsSeo(ctx, news, seoImage(imageOf(news, images), 'default')),
    body: (parts) => <NewsPage {...newsPageProps(news, parts)} />,
  };
}

// ---------------------------------------------------------------------------------------------
// Pages of the page tree
// ---------------------------------------------------------------------------------------------

/** What every page of the page tree declares alike; the home page has no breadcrumb trail. */
function treePage(page: PageDto) {
  return {
    table: pages,
    entry: page,
    title: page.path === '/' ? undefined : (page.seoTitle ?? page.title),
  };
}

/** The page's picture for link previews: its teaser image, else the first image of its blocks. */
function previewImageId(page: PageDto): number | undefined {
  return page.teaserImageId ?? blockImageIds(page.blocks)[0];
}

/** The images a page of the tree shows itself: its preview picture and those of its blocks. */
function treeImageIds(page: PageDto): ImageIds {
  return [previewImageId(page), ...blockImageIds(page.blocks)];
}

/**
 * SEO of a page of the tree; a listing's page number gives its pages their own canonical URL, the
 * site search's query its (decision 050).
 */
function treePageSeo(page: PageDto, pageNumber?: number, search?: SearchSeo) {
  const previewId = previewImageId(page);
  return (ctx: SeoContext, { images }: PageParts): SeoHeadProps => {
    const seo = contentPageSeo(
      {
        ...ctx,
        ...(pageNumber ? { pageNumber } : {}),
        ...(search?.query ? { searchQuery: search.query } : {}),
      },
      page,
      seoImage(previewId ? images.get(previewId) : undefined, 'default')[0],
    );
    return search?.noindex ? { ...seo, robots: 'noindex' } : seo;
  };
}

function homePage(page: PageDto): PageSpec<undefined> {
  return {
    ...treePage(page),
    imageIds: treeImageIds(page),
    seo: treePageSeo(page),
    body: ({ images }) => <HomePage {...homePageProps(page, images)} />,
  };
}

function searchHostPage(
  request: FastifyRequest,
  page: PageDto,
  search: { element: ReactNode; inline: boolean; failed?: boolean; seo?: SearchSeo },
): PageSpec<undefined> {
  const tree = treePage(page);
  const { title } = tree;
  return {
    ...tree,
    title:
      search.failed && title
        ? serverT(request.locale.lang)('content.errorTitle', { title })
        : title,
    crumbName: page.navLabel,
    imageIds: treeImageIds(page),
    seo: treePageSeo(page, undefined, search.seo),
    body: (parts) => <SearchHostPage {...searchHostPageProps(page, parts, search)} />,
  };
}

/** A section page: its blocks (with what its widget blocks read) and its child pages. */
function contentPage(
  request: FastifyRequest,
  page: PageDto,
): PageSpec<{ children: PageDto[]; widgets: WidgetData }> {
  const linkOf = linkerOf(request);
  // A jobs listing has pages of its own (`?page=`): each is its own canonical address.
  const jobsPage = page.blocks.some((b) => b.type === 'jobs') ? jobsPageNumber(request) : undefined;
  // A plain-form vote that failed comes back as any failed submit does: the title says so.
  const outcome = page.blocks.some((b) => b.type === 'school-vote')
    ? voteOutcomeOf(request.query)
    : undefined;
  const tree = treePage(page);
  return {
    ...tree,
    title:
      outcome && 'failed' in outcome && tree.title
        ? serverT(request.locale.lang)('content.errorTitle', { title: tree.title })
        : tree.title,
    crumbName: page.navLabel,
    load: async () => {
      const [children, widgets] = await Promise.all([
        childPages(request.server.db, page.id),
        loadWidgetData(request, page, linkOf),
      ]);
      return { children, widgets };
    },
    imageIds: ({ children, widgets }) => [
      ...treeImageIds(page),
      ...children.map((c) => c.teaserImageId),
      ...(widgets.timeline ?? []).map((y) => y.imageId),
    ],
    seo: treePageSeo(page, jobsPage !== undefined && jobsPage > 1 ? jobsPage : undefined),
    body: (parts) => (
      <ContentPage
        {...contentPageProps(page, parts, parts.data.children, {
          linkOf,
          t: serverT(request.locale.lang),
        })}
        widgets={parts.data.widgets}
      />
    ),
  };
}

/** One page of a listing's items as cards, with the number of all of them. */
type ListItems = (
  request: FastifyRequest,
  filter: ItemFilter & { under: string },
  slice: Slice,
) => Promise<{ cards: Card[]; total: number }>;

/** The items each type of listing page lists. */
const listings = new Map<string, ListItems>([
  [
    'product-list',
    async (request, filter, slice) => {
      const linkOf = linkerOf(request);
      const { items, total } = await listProducts(request.server.db, filter, slice);
      const cards = items.map((p) =>
        productCard(p, { type: 'headerImageSquare', link: linkOf(p.path) }),
      );
      return { cards, total };
    },
  ],
  [
    'recipe-list',
    async (request, filter, slice) => {
      const linkOf = linkerOf(request);
      const { items, total } = await listRecipes(request.server.db, filter, slice);
      const cards = items.map((r) => recipeCard(r, { type: 'recipeCard', link: linkOf(r.path) }));
      return { cards, total };
    },
  ],
  [
    'newsroom',
    // The newsroom lists every release of the language version, wherever its path lies.
    async (request, { siteId, lang }, slice) => {
      const linkOf = linkerOf(request);
      const { items, total } = await listNews(request.server.db, { siteId, lang }, slice);
      const cards = items.map((n) =>
        newsCard(n, { type: newsCardType(n.kind), link: linkOf(n.path) }),
      );
      return { cards, total };
    },
  ],
]);

function listingPage(
  request: FastifyRequest,
  page: PageDto,
  list: ListItems,
): PageSpec<ListingSlice> {
  const { page: pageNumber } = listingQuery.parse(request.query ?? {});
  const filter = {
    siteId: request.site.id,
    lang: request.locale.lang,
    under: page.path === '/' ? '' : page.path,
  };
  const slice = { limit: LISTING_PAGE_SIZE, offset: (pageNumber - 1) * LISTING_PAGE_SIZE };
  return {
    ...treePage(page),
    crumbName: page.navLabel,
    load: async () => ({
      ...(await list(request, filter, slice)),
      pageNumber,
      pageSize: LISTING_PAGE_SIZE,
    }),
    imageIds: ({ cards }) => [...treeImageIds(page), ...cards.map((c) => c.imageId)],
    seo: treePageSeo(page, pageNumber),
    body: (parts) => (
      <ListingPage
        {...listingPageProps(page, parts, parts.data, {
          basePath: linkerOf(request)(page.path),
          t: serverT(request.locale.lang),
        })}
      />
    ),
  };
}
