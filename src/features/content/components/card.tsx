import type { ReactNode } from 'react';
import { formatDate, formatDuration } from '../../../i18n/format.ts';
import { useLang, useT } from '../../../i18n/react.tsx';
import { Img } from '../../../images/picture.tsx';
import type { CardType } from '../blocks.ts';
import styles from '../card-grid/cards.module.css';
import type { CardDto } from '../card-grid/schemas.ts';

/**
 * The image preset of each card type unless the card names its own (spec §2: image URLs take a
 * preset query, the card's own imagePreset first).
 */
export const presetOf: Record<CardType, string> = {
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

/** Each type's class (class names are camel-cased by the CSS module set-up: `mfProductCard`). */
const typeClass: Record<CardType, string | undefined> = {
  headerImageSquare: styles.headerImageSquare,
  headerImageTall: styles.headerImageTall,
  headerImageWide: styles.headerImageWide,
  headerImageXtraTall: styles.headerImageXtraTall,
  recipeCard: styles.recipeCard,
  jyvabroilerRecipeCard: styles.jyvabroilerRecipeCard,
  cisionCard: styles.cisionCard,
  mynewsdeskCard: styles.mynewsdeskCard,
  ridderheimsCard: styles.ridderheimsCard,
  sibyllaCard: styles.sibyllaCard,
  MFProductCard: styles.mfProductCard,
};

/**
 * One card of a grid, in the look of its type. The heading's link is the card's one link (its
 * click area covers the card); the call to action is that link's visible hint, so it is hidden
 * from screen readers rather than read twice. Works on the server and inside islands alike: it
 * takes its texts from the i18n context.
 */
export function Card(props: { card: CardDto; headingLevel?: 'h2' | 'h3' }) {
  const { card } = props;
  const t = useT();
  const lang = useLang();
  const Heading = props.headingLevel ?? 'h3';
  const preset = card.imagePreset ?? presetOf[card.type];

  const image = card.image ? (
    <Img
      lang={lang}
      image={card.image}
      preset={preset}
      decorative={repeatsHeading(card.image.alt, card.header)}
      className={styles.image}
    />
  ) : (
    <span className={styles.noImage} />
  );
  const heading = (
    <Heading className={styles.title}>
      <a href={card.link} className={styles.link}>
        {card.header}
      </a>
    </Heading>
  );
  const time =
    card.totalTime !== undefined ? (
      <span className={styles.fact}>
        <ClockIcon />
        <span className="visually-hidden">{t('card.totalTime')}: </span>
        {formatDuration(card.totalTime)}
      </span>
    ) : null;
  const likes =
    card.likeCount !== undefined ? (
      <span className={styles.fact}>
        <HeartIcon />
        {t('card.likes', { count: card.likeCount })}
      </span>
    ) : null;
  const date = card.publishDate ? (
    <span className={styles.fact}>
      <span className="visually-hidden">{t('card.published')} </span>
      <time dateTime={card.publishDate}>{formatDate(card.publishDate, lang)}</time>
    </span>
  ) : null;
  const cta = card.ctaButton ? (
    <span className={styles.cta} aria-hidden="true">
      {card.ctaButton}
    </span>
  ) : null;
  const codes =
    card.productCode || card.gtinCode || card.valoCode ? (
      <dl className={styles.codes}>
        {card.productCode ? <Code label={t('product.code')} value={card.productCode} /> : null}
        {card.gtinCode ? <Code label={t('product.ean')} value={card.gtinCode} /> : null}
        {card.valoCode ? <Code label={t('product.valoCode')} value={card.valoCode} /> : null}
      </dl>
    ) : null;

  return (
    <article className={`${styles.card} ${typeClass[card.type] ?? ''}`} data-card-type={card.type}>
      {body()}
    </article>
  );

  function body(): ReactNode {
    switch (card.type) {
      // The tall picture carries its heading at its foot, over a shade.
      case 'headerImageXtraTall':
        return (
          <>
            <div className={styles.media}>{image}</div>
            <div className={styles.overlay}>
              {heading}
              {cta}
            </div>
          </>
        );
      // The third brand's recipe: the time as a badge on the picture, the likes under the name.
      case 'jyvabroilerRecipeCard':
        return (
          <>
            <div className={styles.media}>
              {image}
              {time ? <span className={styles.badge}>{time}</span> : null}
            </div>
            <div className={styles.body}>
              {heading}
              {meta(likes)}
              {cta}
            </div>
          </>
        );
      // Releases from Cision: release type and date above the heading.
      case 'cisionCard':
        return (
          <>
            <div className={styles.media}>{image}</div>
            <div className={styles.body}>
              {card.cisionTextType || date ? (
                <p className={styles.kicker}>
                  {card.cisionTextType ? (
                    <span className={styles.chip}>{card.cisionTextType}</span>
                  ) : null}
                  {date}
                </p>
              ) : null}
              {heading}
              {cta}
            </div>
          </>
        );
      // Releases from Mynewsdesk: the date, the heading, an accent rule on the side.
      case 'mynewsdeskCard':
        return (
          <>
            <div className={styles.media}>{image}</div>
            <div className={styles.body}>
              {date ? <p className={styles.kicker}>{date}</p> : null}
              {heading}
              {cta}
            </div>
          </>
        );
      // Mestari Forsman's product: the pack on white beside its name and codes.
      case 'MFProductCard':
        return (
          <>
            <div className={styles.media}>{image}</div>
            <div className={styles.body}>
              {heading}
              {codes}
              {cta}
            </div>
          </>
        );
      // Picture above, heading and facts below; the shape and the look come from the type's
      // preset and styles: square, tall and wide pictures, the recipe card with time and likes,
      // Ridderheims' centred deli card, Sibylla's name on a band of the brand's colour.
      default:
        return (
          <>
            <div className={styles.media}>{image}</div>
            <div className={styles.body}>
              {heading}
              {meta(time, likes)}
              {cta}
            </div>
          </>
        );
    }
  }
}

/** Words of a text for comparison: lower case, without punctuation. */
function words(text: string): string {
  return ` ${text
    .toLocaleLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
}

/**
 * Whether a picture's alt text says nothing the card's heading does not: the heading itself or
 * a part of it (a pack's name without its weight, a dish without its side). Such a picture is
 * decorative beside its heading (WCAG 1.1.1): screen readers would read the name twice. An alt
 * text that describes more than the heading names is kept.
 */
export function repeatsHeading(alt: string, heading: string): boolean {
  return words(heading).includes(words(alt));
}

function meta(first: ReactNode, second?: ReactNode): ReactNode {
  if (!first && !second) return null;
  return (
    <p className={styles.meta}>
      {first}
      {second}
    </p>
  );
}

function Code(props: { label: string; value: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

function ClockIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 7v5l3 3" fill="none" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

function HeartIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      />
    </svg>
  );
}
