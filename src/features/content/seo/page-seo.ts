import type { FastifyRequest } from 'fastify';
import type { Lang, Site } from '../../../sites/types.ts';
import type { Nutrient, RecipeStep } from '../tables.ts';
import type { SeoHeadProps, SeoImage } from './head.tsx';
import {
  breadcrumbJsonLd,
  type JsonLd,
  newsArticleJsonLd,
  type OrganizationInput,
  organizationJsonLd,
  plainText,
  productJsonLd,
  recipeJsonLd,
  truncate,
  webSiteJsonLd,
} from './json-ld.ts';
import { absoluteUrl, localizedPath, requestOrigin } from './urls.ts';

/**
 * One call per page type turns what a page already loaded into `SeoHead` props:
 *
 * ```tsx
 * const ctx = seoContext(request, product.path, await languageVersions(db, products, site.id,
 *   product.translationKey), crumbs);
 * const seo = productSeo(ctx, product, images.map((i) => ({
 *   src: imageUrl(i, 'default'), ...presetSize('default', i), alt: i.alt })));
 * renderPage(request, reply, { title: seo.title, description: seo.description,
 *   head: <SeoHead {...seo} />, body });
 * ```
 *
 * `contentPageSeo(ctx, page, image?)` (home page included), `homeSeo(ctx)` (home without a row),
 * `productSeo(ctx, product, images)`, `recipeSeo(ctx, recipe, images, facets?)`,
 * `newsSeo(ctx, release, images)`. Rows of `pages`, `products`, `recipes` and `news_releases`
 * fit the input types as they are.
 */

/** What every page type needs: where it is, in which languages, and how it was reached. */
export interface SeoContext {
  site: Site;
  lang: Lang;
  /** `requestOrigin(request)`: never a Host header the site does not own. */
  origin: string;
  /** The path of this language version without the language prefix (`/reseptit/x`, `/`). */
  path: string;
  /** Paths of every language version sharing the translation key, this one included. */
  versions: readonly { lang: string; path: string }[];
  /** The breadcrumb trail as the page shows it: root-relative hrefs, the page itself last. */
  crumbs?: readonly { name: string; href: string }[];
  /** Page of a paginated listing (`?page=N`), which is its own canonical URL from page 2 on. */
  pageNumber?: number;
  /**
   * The site search page's query (decision 050): its canonical URL is the plain query,
   * `?q=<query>`, whatever else its address holds.
   */
  searchQuery?: string;
}

export function seoContext(
  request: FastifyRequest,
  path: string,
  versions: readonly { lang: string; path: string }[],
  crumbs?: readonly { name: string; href: string }[],
): SeoContext {
  return {
    site: request.site,
    lang: request.locale.lang,
    origin: requestOrigin(request),
    path,
    versions,
    ...(crumbs ? { crumbs } : {}),
  };
}

/** An image in the size the page picked: `src` root-relative or absolute. */
export interface SeoImageInput {
  src: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * The site's logo for Organization markup. The favicon is the only image of the brand the server
 * has a URL for; it is an SVG, which Google accepts, but a raster logo of at least 112 × 112 px
 * served at its own URL would be the better source.
 */
export const SITE_LOGO_PATH = '/favicon.svg';

/** Meta descriptions longer than this are cut in search results anyway. */
const DESCRIPTION_MAX = 160;

/** Open Graph locales: a Swedish version on a Finnish site is for Finland's Swedish speakers. */
export function ogLocale(site: Site, lang: Lang): string {
  if (lang === 'fi') return 'fi_FI';
  if (lang === 'sv') return site.languages[0] === 'fi' ? 'sv_FI' : 'sv_SE';
  return 'en_GB';
}

// ---------------------------------------------------------------------------------------------
// Page types
// ---------------------------------------------------------------------------------------------

export interface ContentPageSeoInput {
  path: string;
  type: string;
  title: string;
  teaser: string;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** A page of the page tree; the home page (`/`) also describes the site and its organisation. */
export function contentPageSeo(
  ctx: SeoContext,
  page: ContentPageSeoInput,
  image?: SeoImageInput,
): SeoHeadProps {
  if (page.path === '/') return homeSeo(ctx, page, image);
  return base(ctx, {
    title: page.seoTitle ?? page.title,
    description: page.seoDescription ?? page.teaser,
    type: 'website',
    images: image ? [image] : [],
    jsonLd: breadcrumbs(ctx),
  });
}

/** The home page, also when the site has no page row for it yet. */
export function homeSeo(
  ctx: SeoContext,
  page?: ContentPageSeoInput,
  image?: SeoImageInput,
): SeoHeadProps {
  const home = homeUrl(ctx);
  return base(ctx, {
    title: page?.seoTitle ?? ctx.site.name,
    description: page?.seoDescription ?? (page?.teaser || ctx.site.tagline[ctx.lang]),
    type: 'website',
    images: image ? [image] : [],
    jsonLd: [
      webSiteJsonLd(ctx.site, home, ctx.lang),
      organizationJsonLd(ctx.site, home, absoluteUrl(ctx.origin, SITE_LOGO_PATH)),
    ],
  });
}

export interface ProductSeoInput {
  name: string;
  teaser: string;
  descriptionHtml: string;
  code: string;
  gtin: string | null;
  weightGrams: number | null;
  priceCents: number | null;
  stock: number | null;
}

/** A product page: Product JSON-LD, with an Offer when the product is sold in the shop. */
export function productSeo(
  ctx: SeoContext,
  product: ProductSeoInput,
  images: readonly SeoImageInput[],
  rating?: { averageRating: number | null; reviewCount: number },
): SeoHeadProps {
  const url = canonicalUrl(ctx);
  return base(ctx, {
    title: product.name,
    description: product.teaser || plainText(product.descriptionHtml),
    type: 'product',
    images,
    jsonLd: [
      productJsonLd({
        url,
        lang: ctx.lang,
        name: product.name,
        teaser: product.teaser,
        descriptionHtml: product.descriptionHtml,
        code: product.code,
        gtin: product.gtin,
        weightGrams: product.weightGrams,
        priceCents: product.priceCents,
        stock: product.stock,
        images: images.map((i) => absoluteUrl(ctx.origin, i.src)),
        brand: ctx.site.name,
        ...(rating ? { rating } : {}),
      }),
      ...breadcrumbs(ctx),
    ],
  });
}

export interface RecipeSeoInput {
  title: string;
  teaser: string;
  yield: number;
  totalTimeMinutes: number;
  steps: RecipeStep[];
  nutrients: Nutrient[];
  publishedAt: Date;
  updatedAt: Date;
}

/** A facet tag of a recipe with its category's name (`recipeFacets` loads them). */
export interface RecipeFacet {
  category: string;
  name: string;
}

/**
 * Facet categories that say what kind of dish a recipe is; their tags become `recipeCategory`.
 * Category names are content in the site's language, so they are matched by name.
 */
const DISH_TYPE_CATEGORY =
  /^(ruokalaji|ruokalajit|maträtt|maträtter|rätt|course|courses|dish|dish type)$/i;

/**
 * A recipe page. Give it several sizes of the image (Google prefers 16:9, 4:3 and 1:1, each at
 * least 50 000 pixels); the first is also the link-preview image.
 */
export function recipeSeo(
  ctx: SeoContext,
  recipe: RecipeSeoInput,
  images: readonly SeoImageInput[],
  facets: readonly RecipeFacet[] = [],
): SeoHeadProps {
  return articleSeo(
    ctx,
    {
      title: recipe.title,
      teaser: recipe.teaser,
      published: recipe.publishedAt,
      modified: recipe.updatedAt,
    },
    images,
    (about) =>
      recipeJsonLd({
        ...about,
        publishedAt: recipe.publishedAt,
        updatedAt: recipe.updatedAt,
        yield: recipe.yield,
        totalTimeMinutes: recipe.totalTimeMinutes,
        steps: recipe.steps,
        nutrients: recipe.nutrients,
        categories: facets
          .filter((f) => DISH_TYPE_CATEGORY.test(f.category.trim()))
          .map((f) => f.name),
        keywords: facets.map((f) => f.name),
        brand: brand(ctx),
      }),
  );
}

export interface NewsSeoInput {
  title: string;
  teaser: string;
  publishDate: Date;
  updatedAt: Date;
  authors: string[];
}

/** A news release: NewsArticle JSON-LD. */
export function newsSeo(
  ctx: SeoContext,
  release: NewsSeoInput,
  images: readonly SeoImageInput[],
): SeoHeadProps {
  return articleSeo(
    ctx,
    {
      title: release.title,
      teaser: release.teaser,
      published: release.publishDate,
      modified: release.updatedAt,
    },
    images,
    (about) =>
      newsArticleJsonLd({
        ...about,
        publishDate: release.publishDate,
        updatedAt: release.updatedAt,
        authors: release.authors,
        publisher: brand(ctx),
      }),
  );
}

// ---------------------------------------------------------------------------------------------
// Shared parts
// ---------------------------------------------------------------------------------------------

/** What every article's JSON-LD says of the page: its address, language, title, teaser, images. */
interface ArticleAbout {
  url: string;
  lang: SeoContext['lang'];
  title: string;
  teaser: string;
  images: string[];
}

/** An article page (a recipe, a news release): its dates, and its JSON-LD before the breadcrumbs. */
function articleSeo(
  ctx: SeoContext,
  page: { title: string; teaser: string; published: Date; modified: Date },
  images: readonly SeoImageInput[],
  jsonLd: (about: ArticleAbout) => JsonLd,
): SeoHeadProps {
  return base(ctx, {
    title: page.title,
    description: page.teaser,
    type: 'article',
    article: { publishedTime: page.published, modifiedTime: page.modified },
    images,
    jsonLd: [
      jsonLd({
        url: canonicalUrl(ctx),
        lang: ctx.lang,
        title: page.title,
        teaser: page.teaser,
        images: images.map((i) => absoluteUrl(ctx.origin, i.src)),
      }),
      ...breadcrumbs(ctx),
    ],
  });
}

function base(
  ctx: SeoContext,
  page: {
    title: string;
    description: string | undefined;
    type: SeoHeadProps['type'];
    images: readonly SeoImageInput[];
    article?: { publishedTime: Date; modifiedTime: Date };
    jsonLd: JsonLd[];
  },
): SeoHeadProps {
  const { alternates, xDefault } = languageAlternates(ctx);
  const description = page.description?.trim()
    ? truncate(page.description.trim(), DESCRIPTION_MAX)
    : undefined;
  const [first] = page.images;
  const article = page.article;
  return {
    canonical: canonicalUrl(ctx),
    alternates,
    ...(xDefault ? { xDefault } : {}),
    title: page.title,
    ...(description ? { description } : {}),
    ...(first
      ? {
          image: {
            url: absoluteUrl(ctx.origin, first.src),
            width: first.width,
            height: first.height,
            alt: first.alt,
          } satisfies SeoImage,
        }
      : {}),
    type: page.type,
    siteName: ctx.site.name,
    locale: ogLocale(ctx.site, ctx.lang),
    alternateLocales: alternates
      .filter((a) => a.lang !== ctx.lang)
      .map((a) => ogLocale(ctx.site, a.lang)),
    ...(article
      ? {
          article: {
            publishedTime: article.publishedTime.toISOString(),
            ...(article.modifiedTime > article.publishedTime
              ? { modifiedTime: article.modifiedTime.toISOString() }
              : {}),
          },
        }
      : {}),
    jsonLd: page.jsonLd,
  };
}

function pageQuery(ctx: SeoContext): string {
  if (ctx.searchQuery) return `?${new URLSearchParams({ q: ctx.searchQuery })}`;
  return ctx.pageNumber && ctx.pageNumber > 1 ? `?page=${ctx.pageNumber}` : '';
}

export function canonicalUrl(ctx: SeoContext): string {
  return `${absoluteUrl(ctx.origin, localizedPath(ctx.site, ctx.lang, ctx.path))}${pageQuery(ctx)}`;
}

function homeUrl(ctx: SeoContext): string {
  return absoluteUrl(ctx.origin, localizedPath(ctx.site, ctx.lang, '/'));
}

/**
 * hreflang links for every language version the site has, this one always among them; none when
 * the content exists in one language only (nothing to tell apart). x-default is the site's default
 * language when that version exists.
 */
export function languageAlternates(ctx: SeoContext): {
  alternates: { lang: Lang; href: string }[];
  xDefault?: string;
} {
  const byLang = new Map<Lang, string>();
  for (const lang of ctx.site.languages) {
    const version =
      lang === ctx.lang ? { path: ctx.path } : ctx.versions.find((v) => v.lang === lang);
    if (version) {
      byLang.set(
        lang,
        `${absoluteUrl(ctx.origin, localizedPath(ctx.site, lang, version.path))}${pageQuery(ctx)}`,
      );
    }
  }
  if (byLang.size < 2) return { alternates: [] };
  const alternates = [...byLang].map(([lang, href]) => ({ lang, href }));
  const xDefault = byLang.get(ctx.site.languages[0]);
  return { alternates, ...(xDefault ? { xDefault } : {}) };
}

function brand(ctx: SeoContext): OrganizationInput {
  return { name: ctx.site.name, url: homeUrl(ctx), logo: absoluteUrl(ctx.origin, SITE_LOGO_PATH) };
}

/** BreadcrumbList when the trail has at least two steps (Google's minimum). */
function breadcrumbs(ctx: SeoContext): JsonLd[] {
  const crumbs = ctx.crumbs ?? [];
  if (crumbs.length < 2) return [];
  return [
    breadcrumbJsonLd(crumbs.map((c) => ({ name: c.name, url: absoluteUrl(ctx.origin, c.href) }))),
  ];
}
