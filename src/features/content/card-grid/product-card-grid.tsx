import { Card } from '../components/card.tsx';
import { type CardBuyPart, CardBuyProvider } from '../components/card-buy-part.tsx';
import { CardViewProvider } from '../components/card-view.tsx';
import { CardGridIsland, type CardGridProps } from './card-grid-island.tsx';

/**
 * The card-grid island (expandable or filtered) whose `lkProductCard`s carry the shop's buy
 * control (island `product-card-grid`): the app's registry hands in the shop's part. These cards
 * hydrate (their control is the shop's island part), so the island brings the card's code.
 */
export function cardGridWith(BuyPart: CardBuyPart) {
  return function ProductCardGrid(props: CardGridProps) {
    return (
      <CardBuyProvider part={BuyPart}>
        <CardViewProvider card={Card}>
          <CardGridIsland {...props} />
        </CardViewProvider>
      </CardBuyProvider>
    );
  };
}
