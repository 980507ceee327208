import type { Translate } from '../../i18n/translate.ts';
import type { Block, Card } from './blocks.ts';
import type { Crumb } from './components/breadcrumbs.tsx';
import type { NewsRow, PageDto, ProductRow, RecipeRow } from './content.server.ts';
import type { HomePageProps } from './home-page.tsx';
import type { ImageDto } from './image-dto.ts';
import { likeContentId } from './likes/schemas.ts';
import type { ContentPageProps } from './pages/content-page.tsx';
import type { ListingPageProps } from './pages/listing-page.tsx';
import type { NewsPageProps } from './pages/news-page.tsx';
import type { ProductPageProps } from './pages/product-page.tsx';
import type { RecipePageProps } from './pages/recipe-page.tsx';
import type { SearchHostPageProps } from './pages/search-host-page.tsx';

/**
 * Rows and page DTOs become the props of the page components here, so the components take only
 * what they show and no database row reaches them.
 */

/** What every page below the home page has loaded: its breadcrumb trail and images by id. */
export interface PageParts {
  crumbs: Crumb[];
  images: Map<number, ImageDto>;
}

/** The pictures of a product in its own order, leaving out any that no longer exist. */
export function productImages(product: ProductRow, images: Map<number, ImageDto>): ImageDto[] {
  return product.imageIds.map((id) => images.get(id)).filter((i) => i !== undefined);
}

export function productPageProps(product: ProductRow, parts: PageParts): ProductPageProps {
  return {
    crumbs: parts.crumbs,
    images: productImages(product, parts.images),
    name: product.name,
    teaser: product.teaser,
    isNovelty: product.isNovelty,
    descriptionHtml: product.descriptionHtml,
    code: product.code,
    gtin: product.gtin,
    valoCode: product.valoCode,
    weightGrams: product.weightGrams,
    ingredients: product.ingredients,
    nutrition: product.nutrition,
    shop:
      product.priceCents === null
        ? undefined
        : {
            priceCents: product.priceCents,
            pricePerKgCents: product.pricePerKgCents,
            svhPriceCents: product.svhPriceCents,
            discountPercentage: product.discountPercentage,
            // No stock figure means no limit.
            inStock: product.stock !== 0,
          },
  };
}

/** The one picture of a recipe or news release, when it has one. */
export function imageOf(
  row: { imageId: number | null },
  images: Map<number, ImageDto>,
): ImageDto | undefined {
  return row.imageId ? images.get(row.imageId) : undefined;
}

export function recipePageProps(recipe: RecipeRow, parts: PageParts): RecipePageProps {
  return {
    crumbs: parts.crumbs,
    image: imageOf(recipe, parts.images),
    title: recipe.title,
    teaser: recipe.teaser,
    totalTimeMinutes: recipe.totalTimeMinutes,
    yield: recipe.yield,
    portionSize: recipe.portionSize,
    portionUnit: recipe.portionUnit,
    totalYieldKg: recipe.totalYieldKg,
    steps: recipe.steps,
    nutrients: recipe.nutrients,
    like: {
      contentId: likeContentId({ kind: 'recipe', id: recipe.id }),
      likeCount: recipe.likeCount,
    },
  };
}

export function newsPageProps(news: NewsRow, parts: PageParts): NewsPageProps {
  return {
    crumbs: parts.crumbs,
    image: imageOf(news, parts.images),
    title: news.title,
    teaser: news.teaser,
    textType: news.textType,
    publishDate: news.publishDate,
    bodyHtml: news.bodyHtml,
    authors: news.authors,
  };
}

/**
 * The content id of a page of the page tree (`page-12`): unambiguous beside the rows of the other
 * content tables, which number theirs apart. A form on the page sends it as its `ContentId`.
 */
export function pageContentId(page: Pick<PageDto, 'id'>): string {
  return `page-${page.id}`;
}

/** The heading, lead and blocks of a page of the page tree, with what the page loaded. */
function pageContent(
  page: PageDto,
  parts: PageParts,
): PageParts & { title: string; teaser: string; blocks: Block[]; contentId: string } {
  return {
    crumbs: parts.crumbs,
    images: parts.images,
    title: page.title,
    teaser: page.teaser,
    blocks: page.blocks,
    contentId: pageContentId(page),
  };
}

export function homePageProps(page: PageDto, images: Map<number, ImageDto>): HomePageProps {
  return { teaser: page.teaser, blocks: page.blocks, images, contentId: pageContentId(page) };
}

export function searchHostPageProps(
  page: PageDto,
  parts: PageParts,
  search: SearchHostPageProps['search'],
): SearchHostPageProps {
  return { ...pageContent(page, parts), search };
}

/** One page of a listing's cards; the number asked for may lie beyond the last page. */
export interface ListingSlice {
  cards: Card[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

export function listingPageProps(
  page: PageDto,
  parts: PageParts,
  listing: ListingSlice,
  { basePath, t }: { basePath: string; t: Translate },
): ListingPageProps {
  const pages = Math.max(1, Math.ceil(listing.total / listing.pageSize));
  return {
    ...pageContent(page, parts),
    cards: listing.cards,
    pageNumber: Math.min(listing.pageNumber, pages),
    pages,
    basePath,
    emptyText: t('content.empty'),
    countText: t('content.itemCount', { count: listing.total }),
  };
}

export function contentPageProps(
  page: PageDto,
  parts: PageParts,
  children: PageDto[],
  { linkOf, t }: { linkOf: (path: string) => string; t: Translate },
): ContentPageProps {
  return {
    ...pageContent(page, parts),
    childPages: children.map((child) => ({
      href: linkOf(child.path),
      label: child.navLabel,
      imageId: child.teaserImageId,
    })),
    sectionLabel: t('content.inThisSection'),
  };
}
