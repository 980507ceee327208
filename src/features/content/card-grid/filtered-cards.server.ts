import type { Database } from '../../../db/client.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { langPrefix } from '../../../sites/resolve.ts';
import type { Lang, Site } from '../../../sites/types.ts';
import type { Card, CardType } from '../blocks.ts';
import {
  facetTagScope,
  listNews,
  listProducts,
  listRecipes,
  loadImages,
} from '../content.server.ts';
import { newsCard, productCard, recipeCard, toCardDto } from './cards.ts';
import { type CardDto, FILTERED_CARDS_MAX } from './schemas.ts';

/**
 * The cards of a grid's dropdown choice. A choice names a facet tag of the site (a product group,
 * a course, a news topic…); its category's scope says whether the cards are products, recipes or
 * news releases, and its language which version of the site they come from. Undefined when the
 * site has no such tag.
 */
export async function filteredCards(
  db: Database,
  site: Site,
  tagId: number,
  cardType: CardType,
): Promise<CardDto[] | undefined> {
  const tag = await facetTagScope(db, tagId);
  if (!tag || tag.siteId !== site.id || !(site.languages as readonly string[]).includes(tag.lang)) {
    return undefined;
  }
  const lang = tag.lang as Lang;
  const t = serverT(lang);
  const prefix = langPrefix(site, lang);
  const filter = { siteId: site.id, lang, tagId };
  const slice = { limit: FILTERED_CARDS_MAX };
  const options = (path: string, ctaButton: string) => ({
    type: cardType,
    link: `${prefix}${path}`,
    ctaButton,
  });
  let cards: Card[];
  switch (tag.scope) {
    case 'products': {
      const { items } = await listProducts(db, filter, slice);
      cards = items.map((p) => productCard(p, options(p.path, t('card.toProduct'))));
      break;
    }
    case 'recipes': {
      const { items } = await listRecipes(db, filter, slice, 'popular');
      cards = items.map((r) => recipeCard(r, options(r.path, t('card.toRecipe'))));
      break;
    }
    case 'news': {
      const { items } = await listNews(db, filter, slice);
      cards = items.map((n) => newsCard(n, options(n.path, t('card.readMore'))));
      break;
    }
    default:
      return undefined;
  }
  const images = await loadImages(
    db,
    cards.map((c) => c.imageId),
    lang,
  );
  return cards.map((card) => toCardDto(card, images));
}
