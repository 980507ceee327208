import { type CSSProperties, useCallback, useId } from 'react';
import { useT } from '../../../i18n/react.tsx';
import type { CardType } from '../blocks.ts';
import type { CardDto } from '../card-grid/schemas.ts';
import { useCardView } from '../components/card-view.tsx';
import styles from './group-carousel.module.css';
import { Arrows, CarouselSection, Track, useGroups } from './group-carousel.tsx';
import { cardsPerView, LARGE_FROM } from './groups.ts';

export interface CardCarouselProps {
  header?: string;
  cardType: CardType;
  cards: CardDto[];
  /** Cards per view on large screens (spec §4: default 4, fallback 5). */
  cardsPerView?: number;
}

/**
 * The card carousel (island `card-carousel`, spec §4): one group of cards per arrow (or arrow
 * key), the left arrow once moved, the right one while more remain; 1 card on small screens, 3 on
 * medium, else the block's count; a 500 ms slide, none for reduced motion. It never moves by
 * itself. Hidden cards are inert. Before hydration it is a list that scrolls sideways. Its cards
 * stay the server's markup (decision 161, as the card grid's, decision 160): the arrow keys
 * pressed on a card's link are heard on the document (`useGroups`). Cards with the shop's buy
 * control hydrate: `product-card-carousel` hands in the card component.
 */
export function CardCarousel(props: CardCarouselProps) {
  const t = useT();
  const Card = useCardView();
  const trackId = useId();
  const perViewOf = useCallback(
    () => cardsPerView(window.innerWidth, props.cardsPerView),
    [props.cardsPerView],
  );
  const groups = useGroups(props.cards.length, perViewOf, false);
  const count = props.cards.length;
  const large = cardsPerView(LARGE_FROM, props.cardsPerView);
  return (
    <CarouselSection
      groups={groups}
      header={props.header}
      label={t('cardCarousel.label')}
      data-card-carousel=""
    >
      <Track
        id={trackId}
        groups={groups}
        className={`${styles.cards}`}
        label={t('cardCarousel.cards', { count })}
        style={{ '--per-view-large': large } as CSSProperties}
        items={props.cards.map((card) => (
          <Card key={card.link} card={card} headingLevel={props.header ? 'h3' : 'h2'} />
        ))}
      />
      <Arrows groups={groups} trackId={trackId} />
      {groups.enhanced ? (
        <p className="visually-hidden" aria-live="polite">
          {t('cardCarousel.showing', {
            from: groups.first + 1,
            to: Math.min(count, groups.first + groups.perView),
            count,
          })}
        </p>
      ) : null}
    </CarouselSection>
  );
}
