import { type ComponentType, createContext, type ReactNode, use } from 'react';
import { deferredPart } from '../../../render/deferred-part.tsx';
import type { CardDto } from '../card-grid/schemas.ts';

export interface CardViewProps {
  card: CardDto;
  headingLevel?: 'h2' | 'h3';
}

/**
 * A card of a grid or carousel island as the server rendered it (decision 160): a card is links
 * and pictures, nothing for script to do, so the browser keeps the server's markup and loads the
 * card's code only to show cards the server did not render (a filter's other choice, which loads
 * it first). The server loads the code before it renders: it starts when this module loads, and
 * the content feature's plugin waits for it; code that renders cards on the server without the
 * app awaits `staticCard.load()` first.
 */
export const staticCard = deferredPart<CardViewProps>(() =>
  import('./card.tsx').then((m) => m.Card),
);
if (typeof window === 'undefined') void staticCard.load();

const CardViewContext = createContext<ComponentType<CardViewProps>>(staticCard.Part);

/**
 * Cards that must hydrate: those with the shop's buy control (`product-card-grid`,
 * `product-card-carousel`), whose island hands in the card component itself.
 */
export function CardViewProvider(props: {
  card: ComponentType<CardViewProps>;
  children: ReactNode;
}) {
  return <CardViewContext value={props.card}>{props.children}</CardViewContext>;
}

/** The card component of the island: the static card, or the one its provider hands in. */
export function useCardView(): ComponentType<CardViewProps> {
  return use(CardViewContext);
}
