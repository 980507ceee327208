import { type ComponentType, createContext, type ReactNode, useContext } from 'react';
import type { CardDto } from '../card-grid/schemas.ts';

/**
 * The buy control of an `lkProductCard` is the shop's (spec §3, §5): the content feature does not
 * import it. Whoever renders the cards hands it in: the app's island registry joins the shop's
 * part with the card carousel and the card-grid island (islands cannot nest), and a grid rendered
 * on the server gives each card the shop's own small island. Cards without it show no control;
 * their title still links to the product's page.
 */

/** What the card hands the shop's part: the card's product and price fields, cents. */
export interface CardBuyProps {
  code: string;
  name: string;
  /** The product's page: where the control's form goes without script. */
  link: string;
  price: number;
  svhPrice?: number | undefined;
  stock?: number | null | undefined;
}

export type CardBuyPart = ComponentType<CardBuyProps>;

const CardBuyContext = createContext<CardBuyPart | null>(null);

export function CardBuyProvider(props: { part: CardBuyPart; children: ReactNode }) {
  return <CardBuyContext value={props.part}>{props.children}</CardBuyContext>;
}

export function useCardBuyPart(): CardBuyPart | null {
  return useContext(CardBuyContext);
}

/**
 * The buy control's props of a card that offers one: an `lkProductCard` with a product code and a
 * price that is not sold out (a sold-out card says so instead, spec §8).
 */
export function cardBuyProps(card: CardDto): CardBuyProps | null {
  if (card.type !== 'lkProductCard' || !card.productCode || card.price === undefined) return null;
  if (card.stock === 0) return null;
  return {
    code: card.productCode,
    name: card.header,
    link: card.link,
    price: card.price,
    ...(card.svhPrice === undefined ? {} : { svhPrice: card.svhPrice }),
    ...(card.stock === undefined ? {} : { stock: card.stock }),
  };
}

/** Whether any of the cards offers the shop's buy control. */
export function offersBuying(cards: readonly CardDto[]): boolean {
  return cards.some((card) => cardBuyProps(card) !== null);
}
