import type { Seeding, SiteLang } from './context.ts';
import { newsRow, randomNewsConcept, renderNews } from './news.ts';
import { type ProductConcept, productName, productRow } from './products.ts';
import { type RecipeConcept, recipeRow } from './recipes.ts';
import { gtin13 } from './text.ts';
import type { PrefixKey, SuffixKey } from './vocabulary/types.ts';

const prefixes: PrefixKey[] = [
  'creamy',
  'spicy',
  'easy',
  'quick',
  'light',
  'festive',
  'classic',
  'lemony',
];
const suffixes: SuffixKey[] = [
  'pesto',
  'feta',
  'bacon',
  'mushrooms',
  'paprika',
  'mash',
  'rice',
  'potatoes',
  'salad',
  'chili',
  'garlic',
  'cheese',
  'coconut',
  'vegetables',
  'bread',
];

/** Searchable items: products, recipes, news releases and pages. */
export function searchableCount(seeding: Seeding): number {
  const { rows } = seeding.content;
  return rows.products.length + rows.recipes.length + rows.news.length + rows.pages.length;
}

/**
 * Load-test documents: products, recipes and releases (8 : 7 : 5) spread over the site languages
 * that already have that kind, until `target` searchable items exist. They reuse the pictures
 * already made, carry translation keys starting with 'scale-' and paths ending in '-s<n>', and
 * come from their own random source, so they are the same on every run.
 */
export function addScaleDocuments(seeding: Seeding, all: SiteLang[], target: number): number {
  const missing = target - searchableCount(seeding);
  if (missing <= 0) return 0;
  const rng = seeding.rng.fork('scale');
  const withProducts = all.filter(
    (s) => s.products.length > 0 && s.profile.productGroups.some((g) => g !== 'gift-cards'),
  );
  const withRecipes = all.filter((s) => s.recipes.length > 0);
  const withNews = all.filter((s) => s.news.length > 0);
  const productImages = seeding.images.ofKind('product');
  const recipeImages = seeding.images.ofKind('recipe');
  const newsImages = seeding.images.ofKind('news');
  const { content } = seeding;
  const slots = [
    ...Array<'product'>(withProducts.length && productImages.length ? 8 : 0).fill('product'),
    ...Array<'recipe'>(withRecipes.length && recipeImages.length ? 7 : 0).fill('recipe'),
    ...Array<'news'>(withNews.length && newsImages.length ? 5 : 0).fill('news'),
  ];
  if (!slots.length) return searchableCount(seeding);
  for (let n = 0; searchableCount(seeding) < target; n++) {
    const slot = slots[n % slots.length];
    const suffix = `-s${n}`;
    if (slot === 'product') {
      const s = rng.pick(withProducts);
      const families = s.v.families.filter((f) => s.profile.productGroups.includes(f.group));
      const f = rng.pick(families);
      const variant = rng.pick(s.v.variants[f.variants]);
      const c: ProductConcept = {
        family: f.key,
        variant: variant.key,
        group: f.group,
        weight: rng.int(3, 60) * 50,
        code: String(90_000_000 + n),
        gtin: gtin13(
          s.profile.gtinPrefix,
          `9${String(Math.floor(n / 100_000)).padStart(4, '0')}`,
          n % 100_000,
        ),
        valoCode: null,
        novelty: false,
        likeCount: rng.int(0, 100),
        teaser: rng.int(0, 99),
        jitter: rng.decimal(0.94, 1.06, 3),
        days: -rng.int(10, 900),
      };
      const row = productRow(
        s,
        c,
        productName(s.lang, c),
        rng.pick(productImages),
        `scale-product-${n}`,
        suffix,
      );
      content.add('products', row);
    } else if (slot === 'recipe') {
      const s = rng.pick(withRecipes);
      const dishes = s.v.dishes.filter((d) => s.profile.recipeMains.includes(d.main));
      const dish = rng.pick(dishes.length ? dishes : s.v.dishes);
      const foodService = s.profile.kind === 'foodservice';
      const c: RecipeConcept = {
        dish: dish.key,
        ...(rng.chance(0.6) ? { prefix: rng.pick(prefixes) } : {}),
        ...(rng.chance(0.6) ? { suffix: rng.pick(suffixes) } : {}),
        servings: foodService ? rng.pick([20, 50, 100]) : rng.pick([2, 4, 6, 8]),
        portionSize: foodService ? rng.int(12, 35) * 10 : null,
        likeCount: rng.int(0, 300),
        days: -rng.int(5, 1000),
        teaserEnd: rng.int(0, 99),
        nutrients: [
          rng.int(350, 750),
          rng.int(10, 40),
          rng.int(10, 70),
          rng.int(20, 45),
          rng.decimal(1, 3.5, 1),
        ],
      };
      content.add('recipes', recipeRow(s, c, rng.pick(recipeImages), `scale-recipe-${n}`, suffix));
    } else {
      const s = rng.pick(withNews);
      const c = randomNewsConcept(s.site, s.profile, [s.lang], rng);
      content.add(
        'news',
        newsRow(s, c, renderNews(s.lang, c), rng.pick(newsImages), `scale-news-${n}`, suffix),
      );
    }
  }
  return searchableCount(seeding) - (target - missing);
}
