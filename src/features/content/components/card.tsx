import { formatDate, formatDuration } from '../../../i18n/format.ts';
import { usePage } from '../../../render/page-context.tsx';
import type { Card as CardData, CardType } from '../blocks.ts';
import type { ImageDto } from '../content.server.ts';
import { Img } from '../images/picture.tsx';
import styles from './content.module.css';

/** The image preset of each card type, unless the card names its own. */
const presetOf: Record<CardType, string> = {
  headerImageSquare: 'card-square',
  headerImageTall: 'card-tall',
  headerImageWide: 'card-wide',
  headerImageXtraTall: 'card-xtra-tall',
  recipeCard: 'three-by-two-crop',
  jyvabroilerRecipeCard: 'three-by-two-crop',
  cisionCard: 'third',
  mynewsdeskCard: 'third',
  ridderheimsCard: 'three-by-two-crop',
  sibyllaCard: 'card-square',
  MFProductCard: 'product-thumbnail-medium',
};

export function Card(props: {
  card: CardData;
  image: ImageDto | undefined;
  headingLevel?: 'h2' | 'h3';
}) {
  const { t, lang } = usePage();
  const { card } = props;
  const Heading = props.headingLevel ?? 'h3';
  const preset = card.imagePreset ?? presetOf[card.type];
  return (
    <article
      className={`${styles.card} ${styles[`card-${card.type}`] ?? ''}`}
      data-card-type={card.type}
    >
      {props.image ? (
        <Img lang={lang} image={props.image} preset={preset} className={styles.cardImage} />
      ) : null}
      <div className={styles.cardBody}>
        {card.cisionTextType || card.publishDate ? (
          <p className={styles.cardMeta}>
            {card.cisionTextType ? <span>{card.cisionTextType}</span> : null}
            {card.publishDate ? (
              <time dateTime={card.publishDate}>{formatDate(card.publishDate, lang)}</time>
            ) : null}
          </p>
        ) : null}
        <Heading className={styles.cardTitle}>
          <a href={card.link} className={styles.cardLink}>
            {card.header}
          </a>
        </Heading>
        {card.totalTime !== undefined || card.likeCount !== undefined ? (
          <p className={styles.cardMeta}>
            {card.totalTime !== undefined ? (
              <span>
                <span className="visually-hidden">{t('card.totalTime')}: </span>
                {formatDuration(card.totalTime)}
              </span>
            ) : null}
            {card.likeCount !== undefined ? (
              <span>{t('card.likes', { count: card.likeCount })}</span>
            ) : null}
          </p>
        ) : null}
        {card.productCode ? (
          <p className={styles.cardMeta}>
            {t('product.code')} {card.productCode}
          </p>
        ) : null}
        {card.ctaButton ? (
          <span className={styles.cardCta} aria-hidden="true">
            {card.ctaButton}
          </span>
        ) : null}
      </div>
    </article>
  );
}
