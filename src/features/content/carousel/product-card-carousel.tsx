import { Card } from '../components/card.tsx';
import { type CardBuyPart, CardBuyProvider } from '../components/card-buy-part.tsx';
import { CardViewProvider } from '../components/card-view.tsx';
import { CardCarousel, type CardCarouselProps } from './card-carousel.tsx';

/**
 * The card carousel whose `lkProductCard`s carry the shop's buy control (island
 * `product-card-carousel`). The app's registry hands in the shop's part, so this chunk imports no
 * shop code and only pages with such a carousel fetch the shop's. These cards hydrate (their
 * control is the shop's island part), so the island brings the card's code.
 */
export function cardCarouselWith(BuyPart: CardBuyPart) {
  return function ProductCardCarousel(props: CardCarouselProps) {
    return (
      <CardBuyProvider part={BuyPart}>
        <CardViewProvider card={Card}>
          <CardCarousel {...props} />
        </CardViewProvider>
      </CardBuyProvider>
    );
  };
}
