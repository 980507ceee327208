import type { Block } from '../src/features/content/blocks.ts';
import type { Lang } from '../src/sites/types.ts';
import type { SiteLang } from './context.ts';
import type { PageRow } from './model.ts';
import { recipeCard } from './pages.ts';

/**
 * The carousels of the home pages (spec §4): the newest recipes as a card carousel on every site
 * with recipes, and on the corporate sites the group's brands as the brand-logo carousel.
 */

const newestRecipes: Record<Lang, string> = {
  fi: 'Uusimmat reseptit',
  sv: 'Nyaste recepten',
  en: 'Latest recipes',
};

/** Recipes in the card carousel: enough for three groups of four. */
const CAROUSEL_RECIPES = 10;

export function carouselBlocks(s: SiteLang, all: readonly PageRow[]): Block[] {
  const blocks: Block[] = [];
  if (s.recipes.length > 4) {
    const recipes = [...s.recipes]
      .sort(
        (a, b) => (b.publishedAt?.getTime() ?? 0) - (a.publishedAt?.getTime() ?? 0) || b.id - a.id,
      )
      .slice(0, CAROUSEL_RECIPES);
    blocks.push({
      type: 'card-carousel',
      header: newestRecipes[s.lang],
      cardType: s.profile.cards.recipe,
      cards: recipes.map((r) => recipeCard(s, r)),
    });
  }
  if (s.site.corporate) {
    const brands = all.filter((p) => p.translationKey.includes('/brand:'));
    if (brands.length) {
      blocks.push({
        type: 'brand-logo-carousel',
        header: s.v.headings.ourBrands,
        cards: brands.map((p) => ({
          link: p.path,
          header: p.title,
          ...(p.teaserImageId ? { imageId: p.teaserImageId } : {}),
        })),
      });
    }
  }
  return blocks;
}
