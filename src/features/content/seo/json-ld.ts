import type { Lang } from '../../../sites/types.ts';
import type { Nutrient, RecipeStep } from '../tables.ts';

/**
 * schema.org JSON-LD for search engines' rich results. The builders are pure: every URL they get
 * is already absolute, and what they return is ready for `JSON.stringify`. Optional properties are
 * left out rather than sent empty, because Google reports an empty value as an error while a
 * missing recommended one is only a warning.
 */

export type JsonLd = { '@context'?: string; '@type': string } & Record<string, unknown>;

const CONTEXT = 'https://schema.org';

/** The brand behind a page: author and publisher of recipes, publisher of news, product brand. */
export interface OrganizationInput {
  name: string;
  /** The site's home page. */
  url: string;
  /** An image of the logo (Google: at least 112 × 112 px, crawlable). */
  logo?: string;
}

export function organizationJsonLd(site: { name: string }, url: string, logo?: string): JsonLd {
  return {
    '@context': CONTEXT,
    ...organization({ name: site.name, url, ...(logo ? { logo } : {}) }),
  };
}

function organization(org: OrganizationInput): JsonLd {
  return {
    '@type': 'Organization',
    name: org.name,
    url: org.url,
    ...(org.logo ? { logo: { '@type': 'ImageObject', url: org.logo } } : {}),
  };
}

/** The site as a whole, on its home page. */
export function webSiteJsonLd(site: { name: string }, url: string, lang: Lang): JsonLd {
  return { '@context': CONTEXT, '@type': 'WebSite', name: site.name, url, inLanguage: lang };
}

/** The trail from the home page to the page itself; every `url` absolute. */
export function breadcrumbJsonLd(items: readonly { name: string; url: string }[]): JsonLd {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// Recipe
// ---------------------------------------------------------------------------------------------

/** A recipe as the `recipes` row has it, plus what the page knows: URL, images, brand, facets. */
export interface RecipeJsonLdInput {
  url: string;
  lang: Lang;
  title: string;
  teaser: string;
  /** Absolute image URLs; Google prefers several aspect ratios (16:9, 4:3, 1:1). */
  images: readonly string[];
  publishedAt: Date;
  updatedAt: Date;
  /** Servings. */
  yield: number;
  totalTimeMinutes: number;
  steps: readonly RecipeStep[];
  nutrients: readonly Nutrient[];
  /** Dish type tags (`Pääruoka`, `Middag`). */
  categories?: readonly string[];
  /** Every facet tag of the recipe. */
  keywords?: readonly string[];
  brand: OrganizationInput;
}

export function recipeJsonLd(recipe: RecipeJsonLdInput): JsonLd {
  const ingredients = recipe.steps.flatMap((step) =>
    step.ingredients.map((i) => ingredientLine(i, recipe.lang)).filter((line) => line !== ''),
  );
  const steps = recipe.steps
    .filter((step) => step.instructions.trim() !== '')
    .map((step) => ({
      '@type': 'HowToStep',
      ...(step.heading.trim() ? { name: step.heading.trim() } : {}),
      text: step.instructions.trim(),
    }));
  const totalTime = isoDuration(recipe.totalTimeMinutes);
  const nutrition = nutritionInformation(recipe.nutrients);
  const keywords = unique(recipe.keywords ?? []);
  const categories = unique(recipe.categories ?? []);
  return {
    '@context': CONTEXT,
    '@type': 'Recipe',
    name: recipe.title,
    url: recipe.url,
    inLanguage: recipe.lang,
    ...(recipe.images.length > 0 ? { image: [...recipe.images] } : {}),
    ...(recipe.teaser.trim() ? { description: recipe.teaser.trim() } : {}),
    datePublished: isoDate(recipe.publishedAt),
    dateModified: isoDate(recipe.updatedAt),
    author: organization(recipe.brand),
    publisher: organization(recipe.brand),
    ...(recipe.yield > 0 ? { recipeYield: String(recipe.yield) } : {}),
    ...(totalTime ? { totalTime } : {}),
    ...(ingredients.length > 0 ? { recipeIngredient: ingredients } : {}),
    ...(steps.length > 0 ? { recipeInstructions: steps } : {}),
    ...(categories.length > 0 ? { recipeCategory: categories.join(', ') } : {}),
    ...(keywords.length > 0 ? { keywords: keywords.join(', ') } : {}),
    ...(nutrition ? { nutrition } : {}),
  };
}

const amountFormats = new Map<Lang, Intl.NumberFormat>();

/** An ingredient's amount in the language's digits, made once per language (formatters are costly). */
function amountFormat(lang: Lang): Intl.NumberFormat {
  let format = amountFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, useGrouping: false });
    amountFormats.set(lang, format);
  }
  return format;
}

/** `400 g jauhelihaa`, `1 rkl öljyä`, `suolaa` (amount null: to taste). */
export function ingredientLine(
  ingredient: { name: string; amount: number | null; unit: string },
  lang: Lang,
): string {
  const amount = ingredient.amount === null ? '' : amountFormat(lang).format(ingredient.amount);
  return [amount, ingredient.unit.trim(), ingredient.name.trim()].filter(Boolean).join(' ');
}

/** ISO 8601 duration: 75 → `PT1H15M`, 60 → `PT1H`, 20 → `PT20M`; nothing for 0 or less. */
export function isoDuration(minutes: number): string | undefined {
  if (!Number.isFinite(minutes) || minutes <= 0) return undefined;
  const total = Math.round(minutes);
  const hours = Math.floor(total / 60);
  const rest = total % 60;
  return `PT${hours ? `${hours}H` : ''}${rest ? `${rest}M` : ''}`;
}

type NutritionProperty =
  | 'calories'
  | 'fatContent'
  | 'saturatedFatContent'
  | 'carbohydrateContent'
  | 'sugarContent'
  | 'fiberContent'
  | 'proteinContent'
  | 'sodiumContent';

/**
 * Nutrient codes as they may come from the recipe data (names, Fineli/Livsmedelsverket component
 * codes), lower-cased with everything but letters removed. Energy is recognised by its unit.
 */
const NUTRIENT_CODES: Record<string, NutritionProperty | 'salt'> = {
  fat: 'fatContent',
  fattotal: 'fatContent',
  saturatedfat: 'saturatedFatContent',
  fasat: 'saturatedFatContent',
  carbohydrate: 'carbohydrateContent',
  carbohydrates: 'carbohydrateContent',
  cho: 'carbohydrateContent',
  choavl: 'carbohydrateContent',
  sugar: 'sugarContent',
  sugars: 'sugarContent',
  fiber: 'fiberContent',
  fibre: 'fiberContent',
  fibc: 'fiberContent',
  protein: 'proteinContent',
  prot: 'proteinContent',
  sodium: 'sodiumContent',
  na: 'sodiumContent',
  salt: 'salt',
  nacl: 'salt',
};

/** NutritionInformation (recipe nutrients are per serving), or nothing when the recipe has no nutrients we know. */
export function nutritionInformation(nutrients: readonly Nutrient[]): JsonLd | undefined {
  const values: Partial<Record<NutritionProperty, string>> = {};
  for (const n of nutrients) {
    if (!Number.isFinite(n.amount)) continue;
    const unit = n.unit.trim();
    if (unit.toLowerCase() === 'kcal') {
      values.calories ??= `${decimal(n.amount)} kcal`;
      continue;
    }
    const property = NUTRIENT_CODES[n.code.toLowerCase().replace(/[^a-z]/g, '')];
    if (!property || unit.toLowerCase() === 'kj') continue;
    if (property === 'salt') {
      // schema.org knows sodium, not salt; EU labels derive salt as sodium × 2.5.
      const grams = unit.toLowerCase() === 'mg' ? n.amount / 1000 : n.amount;
      values.sodiumContent ??= `${decimal((grams / 2.5) * 1000)} mg`;
      continue;
    }
    values[property] = `${decimal(n.amount)} ${unit}`;
  }
  if (Object.keys(values).length === 0) return undefined;
  return { '@type': 'NutritionInformation', ...values };
}

// ---------------------------------------------------------------------------------------------
// Product
// ---------------------------------------------------------------------------------------------

/** A product as the `products` row has it, plus its URL, images and brand. */
export interface ProductJsonLdInput {
  url: string;
  lang: Lang;
  name: string;
  teaser: string;
  descriptionHtml: string;
  code: string;
  gtin: string | null;
  weightGrams: number | null;
  /** Set for shop products only. */
  priceCents: number | null;
  /** null: unlimited. */
  stock: number | null;
  images: readonly string[];
  brand: string;
  /** When the price is known to change (a campaign's end). */
  priceValidUntil?: Date;
  /** The shop's reviews of the product: an AggregateRating when there is at least one. */
  rating?: { averageRating: number | null; reviewCount: number };
}

/**
 * A Product. Shop products carry an Offer; the brand sites' products have no price, so they are
 * plain Products: valid schema.org, though Google shows product rich results only with an offer,
 * a review or a rating.
 */
export function productJsonLd(product: ProductJsonLdInput): JsonLd {
  const description = plainText(product.descriptionHtml) || product.teaser.trim();
  const gtin = gtinProperty(product.gtin);
  const offers =
    product.priceCents !== null && product.priceCents >= 0
      ? {
          '@type': 'Offer',
          url: product.url,
          price: priceText(product.priceCents),
          priceCurrency: 'EUR',
          availability:
            product.stock === null || product.stock > 0
              ? 'https://schema.org/InStock'
              : 'https://schema.org/OutOfStock',
          itemCondition: 'https://schema.org/NewCondition',
          ...(product.priceValidUntil ? { priceValidUntil: isoDay(product.priceValidUntil) } : {}),
        }
      : undefined;
  const reviewed = product.rating;
  const rating =
    reviewed && reviewed.reviewCount > 0 && reviewed.averageRating !== null
      ? {
          '@type': 'AggregateRating',
          ratingValue: reviewed.averageRating,
          reviewCount: reviewed.reviewCount,
          bestRating: 5,
          worstRating: 1,
        }
      : undefined;
  return {
    '@context': CONTEXT,
    '@type': 'Product',
    name: product.name,
    url: product.url,
    inLanguage: product.lang,
    ...(product.images.length > 0 ? { image: [...product.images] } : {}),
    ...(description ? { description } : {}),
    sku: product.code,
    ...(gtin ? { [gtin.property]: gtin.value } : {}),
    brand: { '@type': 'Brand', name: product.brand },
    ...(product.weightGrams && product.weightGrams > 0
      ? { weight: { '@type': 'QuantitativeValue', value: product.weightGrams, unitCode: 'GRM' } }
      : {}),
    ...(offers ? { offers } : {}),
    ...(rating ? { aggregateRating: rating } : {}),
  };
}

/** Integer cents as schema.org wants a price: 1290 → `12.90`. */
export function priceText(cents: number): string {
  const whole = Math.trunc(cents);
  return `${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, '0')}`;
}

/**
 * The GTIN property for a code with a valid check digit (`gtin13` for an EAN-13); nothing for a
 * malformed code, which Google would report as an error.
 */
export function gtinProperty(
  code: string | null,
): { property: 'gtin8' | 'gtin12' | 'gtin13' | 'gtin14'; value: string } | undefined {
  const value = code?.trim() ?? '';
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return undefined;
  const digits = [...value].map(Number);
  const check = digits.pop();
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  if ((10 - (sum % 10)) % 10 !== check) return undefined;
  const property = `gtin${value.length}` as 'gtin8' | 'gtin12' | 'gtin13' | 'gtin14';
  return { property, value };
}

// ---------------------------------------------------------------------------------------------
// NewsArticle
// ---------------------------------------------------------------------------------------------

export interface NewsArticleJsonLdInput {
  url: string;
  lang: Lang;
  title: string;
  teaser: string;
  images: readonly string[];
  publishDate: Date;
  updatedAt: Date;
  /** People named as authors; the brand is the author when there are none. */
  authors: readonly string[];
  publisher: OrganizationInput;
}

/** Google cuts headlines longer than this. */
export const HEADLINE_MAX = 110;

export function newsArticleJsonLd(release: NewsArticleJsonLdInput): JsonLd {
  const authors = release.authors.map((a) => a.trim()).filter(Boolean);
  // An edit before the publication date (a release prepared in advance) is not a modification.
  const modified = new Date(Math.max(release.updatedAt.getTime(), release.publishDate.getTime()));
  return {
    '@context': CONTEXT,
    '@type': 'NewsArticle',
    headline: truncate(release.title.trim(), HEADLINE_MAX),
    url: release.url,
    mainEntityOfPage: release.url,
    inLanguage: release.lang,
    ...(release.images.length > 0 ? { image: [...release.images] } : {}),
    ...(release.teaser.trim() ? { description: release.teaser.trim() } : {}),
    datePublished: isoDate(release.publishDate),
    dateModified: isoDate(modified),
    author:
      authors.length > 0
        ? authors.map((name) => ({ '@type': 'Person', name }))
        : [organization(release.publisher)],
    publisher: organization(release.publisher),
  };
}

// ---------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  shy: '',
};

/** The text of stored (sanitised) rich text: tags dropped, entities decoded, spaces collapsed. */
export function plainText(html: string): string {
  return (
    html
      .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
      // Block elements separate words; inline ones (<strong>, <a>) sit inside a sentence.
      .replace(
        /<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|blockquote|figure)\b[^>]*>/gi,
        ' ',
      )
      .replace(/<[^>]*>/g, '')
      .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
        if (entity[0] === '#') {
          const code =
            entity[1] === 'x' || entity[1] === 'X'
              ? Number.parseInt(entity.slice(2), 16)
              : Number.parseInt(entity.slice(1), 10);
          return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
        }
        return ENTITIES[entity.toLowerCase()] ?? whole;
      })
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** At most `max` characters, cut at a word boundary with an ellipsis when it had to be cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,.;:–-]+$/, '')}…`;
}

function isoDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function decimal(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter(Boolean))];
}
