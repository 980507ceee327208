import { localLink } from '../../../sites/resolve.ts';
import type { Card, CardType } from '../blocks.ts';
import type { CardDto, CardImage } from './schemas.ts';

/**
 * The one way products, recipes and news releases become cards: the listing pages, the filtered
 * cards of a grid's dropdown and the demo content's card grids all map rows here. The card's type
 * only decides how it looks; every card carries the fields its row has.
 */

interface ProductLike {
  path: string;
  name: string;
  code: string;
  gtin?: string | null;
  valoCode?: string | null;
  imageIds?: readonly number[] | null;
  likeCount?: number | null;
}

interface RecipeLike {
  path: string;
  title: string;
  imageId?: number | null;
  likeCount?: number | null;
  totalTimeMinutes: number;
}

interface NewsLike {
  path: string;
  title: string;
  imageId?: number | null;
  publishDate: Date;
  textType?: string | null;
}

export interface CardOptions {
  type: CardType;
  /** Where the card links; the row's path when not given. */
  link?: string;
  ctaButton?: string;
}

/** Drops the fields a row does not have, so cards (and their JSON) carry no empty values. */
function compact(card: Record<string, unknown>): Card {
  return Object.fromEntries(
    Object.entries(card).filter(([, value]) => value !== undefined && value !== null),
  ) as Card;
}

export function productCard(p: ProductLike, options: CardOptions): Card {
  return compact({
    type: options.type,
    link: options.link ?? p.path,
    imageId: p.imageIds?.[0],
    header: p.name,
    ctaButton: options.ctaButton,
    likeCount: p.likeCount,
    productCode: p.code,
    gtinCode: p.gtin,
    valoCode: p.valoCode,
  });
}

export function recipeCard(r: RecipeLike, options: CardOptions): Card {
  return compact({
    type: options.type,
    link: options.link ?? r.path,
    imageId: r.imageId,
    header: r.title,
    ctaButton: options.ctaButton,
    likeCount: r.likeCount,
    totalTime: r.totalTimeMinutes,
  });
}

export function newsCard(n: NewsLike, options: CardOptions): Card {
  return compact({
    type: options.type,
    link: options.link ?? n.path,
    imageId: n.imageId,
    header: n.title,
    ctaButton: options.ctaButton,
    publishDate: n.publishDate.toISOString(),
    cisionTextType: n.textType,
  });
}

/** The card type of a news release by the service it came from. */
export function newsCardType(kind: string): CardType {
  return kind === 'mynewsdesk' ? 'mynewsdeskCard' : 'cisionCard';
}

/** A stored card as the grid shows it: its image resolved and its link in the page's language. */
export function toCardDto(
  card: Card,
  images: ReadonlyMap<number, CardImage>,
  linkPrefix = '',
): CardDto {
  const { imageId, profileImageId, ...rest } = card;
  const image = imageId === undefined ? undefined : images.get(imageId);
  const profile = profileImageId === undefined ? undefined : images.get(profileImageId);
  return {
    ...rest,
    link: localLink(card.link, linkPrefix),
    ...(image
      ? { image: { id: image.id, width: image.width, height: image.height, alt: image.alt } }
      : {}),
    ...(profile
      ? {
          profileImage: {
            id: profile.id,
            width: profile.width,
            height: profile.height,
            alt: profile.alt,
          },
        }
      : {}),
  };
}
