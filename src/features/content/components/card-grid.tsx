import { I18nProvider } from '../../../i18n/react.tsx';
import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import type { Card as CardData, CardType } from '../blocks.ts';
import { CardGridIsland, type CardGridProps } from '../card-grid/card-grid-island.tsx';
import { toCardDto } from '../card-grid/cards.ts';
import { INITIAL_ROWS } from '../card-grid/layout.ts';
import type { DropdownItem } from '../card-grid/schemas.ts';
import type { ImageDto } from '../image-dto.ts';
import { Card } from './card.tsx';
import { type CardBuyProps, CardBuyProvider, offersBuying } from './card-buy-part.tsx';
import { CardViewProvider } from './card-view.tsx';

/**
 * Rows of cards. Columns come from the block (2, 3 or 4) or from the screen width (4 large,
 * 3 medium, 2 small, 1 extra small). A grid that is `expandable` (the card-grid and brand-cards
 * blocks) or has a dropdown filter is the `card-grid` island, hydrated when it comes into view;
 * the others (a section's child pages, a listing's page of items) show every card and need no
 * script.
 */
export function CardGrid(props: {
  header?: string;
  columns?: 2 | 3 | 4;
  cardType?: CardType;
  cards: CardData[];
  images: Map<number, ImageDto>;
  /**
   * The page's language prefix ('/en') for cards whose links are stored content paths, which
   * carry none (decision 007). Cards built from the request's own links pass nothing.
   */
  linkPrefix?: string;
  dropdown?: { label?: string | undefined; items: DropdownItem[] } | undefined;
  expandable?: boolean;
}) {
  const { lang, t } = usePage();
  const cards = props.cards.map((card) => toCardDto(card, props.images, props.linkPrefix));
  const grid: CardGridProps = {
    ...(props.header ? { header: props.header } : {}),
    ...(props.columns ? { columns: props.columns } : {}),
    cardType: props.cardType ?? props.cards[0]?.type ?? 'headerImageSquare',
    cards,
    ...(props.dropdown?.items.length
      ? {
          dropdown: {
            label: props.dropdown.label || t('cardGrid.filter'),
            items: props.dropdown.items,
          },
        }
      : {}),
    expandable: props.expandable ?? false,
  };
  // Shop products for sale carry the shop's buy control (`card-buy.tsx`).
  const buying = offersBuying(cards);
  // Two cards fit two rows at any width: such a grid has nothing to expand.
  if (grid.dropdown || (grid.expandable && cards.length > INITIAL_ROWS)) {
    return buying ? (
      <Island name="product-card-grid" props={grid} lang={lang} hydrate="visible" />
    ) : (
      <Island name="card-grid" props={grid} lang={lang} hydrate="visible" />
    );
  }
  // Plain cards, not deferred parts: a page is no island, and React's streaming renderer would
  // reveal a large Suspense boundary with an inline script, which the pages' policy refuses.
  const rendered = (
    <I18nProvider lang={lang} t={t}>
      <CardViewProvider card={Card}>
        <CardGridIsland {...grid} />
      </CardViewProvider>
    </I18nProvider>
  );
  // A grid without script of its own: each product card's control is the shop's small island.
  return buying ? <CardBuyProvider part={CardBuyIsland}>{rendered}</CardBuyProvider> : rendered;
}

/**
 * The shop's buy control of one card in a grid rendered on the server, as an island of its own
 * that hydrates when it comes into view: the page fetches the shop's control only when such a
 * card is on it.
 */
function CardBuyIsland(props: CardBuyProps) {
  const { lang } = usePage();
  return <Island name="shop-card-buy" props={props} lang={lang} hydrate="visible" />;
}
