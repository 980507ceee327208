import type { Card as CardData } from '../blocks.ts';
import type { ImageDto } from '../content.server.ts';
import { Card } from './card.tsx';
import styles from './content.module.css';

/**
 * Rows of cards. Columns come from the block (2, 3 or 4) or from the screen width
 * (4 large, 3 medium, 2 small, 1 extra small).
 */
export function CardGrid(props: {
  header?: string;
  columns?: 2 | 3 | 4;
  cards: CardData[];
  images: Map<number, ImageDto>;
}) {
  const columns = props.columns ? styles[`cols${props.columns}`] : styles.colsAuto;
  return (
    <section className={`container ${styles.gridSection}`}>
      {props.header ? <h2>{props.header}</h2> : null}
      <ul className={`${styles.grid} ${columns ?? ''}`}>
        {props.cards.map((card) => (
          <li key={`${card.link}-${card.header}`}>
            <Card card={card} image={card.imageId ? props.images.get(card.imageId) : undefined} />
          </li>
        ))}
      </ul>
    </section>
  );
}
