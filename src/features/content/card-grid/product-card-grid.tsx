import { type CardBuyPart, CardBuyProvider } from '../components/card-buy-part.tsx';
import { CardGridIsland, type CardGridProps } from './card-grid-island.tsx';

/**
 * The card-grid island (expandable or filtered) whose `lkProductCard`s carry the shop's buy
 * control (island `product-card-grid`): the app's registry hands in the shop's part.
 */
export function cardGridWith(BuyPart: CardBuyPart) {
  return function ProductCardGrid(props: CardGridProps) {
    return (
      <CardBuyProvider part={BuyPart}>
        <CardGridIsland {...props} />
      </CardBuyProvider>
    );
  };
}
