import type { ReactNode } from 'react';
import { formatDate, formatDuration, formatPrice } from '../../../i18n/format.ts';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { Translate } from '../../../i18n/translate.ts';
import { Img } from '../../../images/picture.tsx';
import type { Lang } from '../../../sites/types.ts';
import type { CardType } from '../blocks.ts';
import styles from '../card-grid/cards.module.css';
import type { CardDto } from '../card-grid/schemas.ts';
import { cardBuyProps, useCardBuyPart } from './card-buy-part.tsx';

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
  lkProductCard: 'card-square',
  lkCampaignCard: 'card-wide',
  FSProductCard: 'product-thumbnail-medium',
  productCardSe: 'card-square',
  exportProductCard: 'card-square',
  socialMediaCard: 'card-square',
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
  lkProductCard: styles.lkProductCard,
  lkCampaignCard: styles.lkCampaignCard,
  FSProductCard: styles.fsProductCard,
  productCardSe: styles.productCardSe,
  exportProductCard: styles.exportProductCard,
  socialMediaCard: styles.socialMediaCard,
};

/**
 * One card of a grid, in the look of its type. The heading's link is the card's one link (its
 * click area covers the card); the call to action is that link's visible hint, so it is hidden
 * from screen readers rather than read twice. Works on the server and inside islands alike: it
 * takes its texts from the i18n context.
 */
export function Card(props: { card: CardDto; headingLevel?: 'h2' | 'h3' }) {
  const { card } = props;
  const parts = useCardParts(card, props.headingLevel ?? 'h3');
  return (
    <article className={`${styles.card} ${typeClass[card.type] ?? ''}`} data-card-type={card.type}>
      <CardBody card={card} parts={parts} />
    </article>
  );
}

/** The pieces a card's layout places: each null where the card has nothing for it. */
interface CardParts {
  image: ReactNode;
  heading: ReactNode;
  time: ReactNode;
  likes: ReactNode;
  date: ReactNode;
  cta: ReactNode;
  codes: ReactNode;
  discount: ReactNode;
  prices: ReactNode;
}

function useCardParts(card: CardDto, Heading: 'h2' | 'h3'): CardParts {
  const t = useT();
  const lang = useLang();
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
  const cta = card.ctaButton ? (
    <span className={styles.cta} aria-hidden="true">
      {card.ctaButton}
    </span>
  ) : null;
  return { image, heading, cta, ...factParts(card, t, lang), ...productParts(card, t) };
}

/** The card's time, likes and publishing date. */
function factParts(card: CardDto, t: Translate, lang: Lang) {
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
  return { time, likes, date };
}

/** A product card's codes, discount and prices. */
function productParts(card: CardDto, t: Translate) {
  const codes =
    card.productCode || card.gtinCode || card.valoCode ? (
      <dl className={styles.codes}>
        {card.productCode ? <Code label={t('product.code')} value={card.productCode} /> : null}
        {card.gtinCode ? <Code label={t('product.ean')} value={card.gtinCode} /> : null}
        {card.valoCode ? <Code label={t('product.valoCode')} value={card.valoCode} /> : null}
      </dl>
    ) : null;
  const discount = card.discountPercentage ? (
    <span className={styles.discount}>
      {t('product.discount', { percent: card.discountPercentage })}
    </span>
  ) : null;
  const prices =
    card.price !== undefined || card.stock === 0 ? (
      <div className={styles.prices}>
        {card.price !== undefined ? (
          <p className={styles.price}>
            <span className="visually-hidden">{t('product.price')} </span>
            {formatPrice(card.price)}
          </p>
        ) : null}
        {card.svhPrice !== undefined && card.svhPrice !== card.price ? (
          <p className={styles.priceNote}>
            {t('product.regularPrice', { price: formatPrice(card.svhPrice) })}
          </p>
        ) : null}
        {card.pricePerKilo !== undefined ? (
          <p className={styles.priceNote}>
            {t('product.pricePerKg', { price: formatPrice(card.pricePerKilo) })}
          </p>
        ) : null}
        {card.stock === 0 ? <p className={styles.soldOut}>{t('cards.soldOut')}</p> : null}
      </div>
    ) : null;
  return { codes, discount, prices };
}

/** The card's inside, laid out by its type. */
function CardBody(props: { card: CardDto; parts: CardParts }) {
  const { card, parts } = props;
  const { image, heading, time, likes, date, cta } = parts;
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
        <MediaAndBody
          media={
            <>
              {image}
              {time ? <span className={styles.badge}>{time}</span> : null}
            </>
          }
        >
          {heading}
          {meta(likes)}
          {cta}
        </MediaAndBody>
      );
    // Releases from Cision: release type and date above the heading.
    case 'cisionCard':
      return (
        <MediaAndBody media={image}>
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
        </MediaAndBody>
      );
    // Releases from Mynewsdesk: the date, the heading, an accent rule on the side.
    case 'mynewsdeskCard':
      return (
        <MediaAndBody media={image}>
          {date ? <p className={styles.kicker}>{date}</p> : null}
          {heading}
          {cta}
        </MediaAndBody>
      );
    case 'MFProductCard':
    case 'lkProductCard':
    case 'productCardSe':
    case 'exportProductCard':
    case 'lkCampaignCard':
    case 'FSProductCard':
      return <ProductCardBody card={card} parts={parts} />;
    case 'socialMediaCard':
      return <SocialBody card={card} image={image} heading={heading} likes={likes} />;
    // Picture above, heading and facts below; the shape and the look come from the type's
    // preset and styles: square, tall and wide pictures, the recipe card with time and likes,
    // Ridderheims' centred deli card, Sibylla's name on a band of the brand's colour.
    default:
      return (
        <MediaAndBody media={image}>
          {heading}
          {meta(time, likes)}
          {cta}
        </MediaAndBody>
      );
  }
}

/** The usual layout: the picture (and what lies on it) above, the text below. */
function MediaAndBody(props: { media: ReactNode; children: ReactNode }) {
  return (
    <>
      <div className={styles.media}>{props.media}</div>
      <div className={styles.body}>{props.children}</div>
    </>
  );
}

/** The inside of a product or campaign card, laid out by its type. */
function ProductCardBody(props: { card: CardDto; parts: CardParts }) {
  const { card } = props;
  const { image, heading, cta, codes, discount, prices } = props.parts;
  const t = useT();
  switch (card.type) {
    // Mestari Forsman's product: the pack on white beside its name and codes.
    case 'MFProductCard':
      return (
        <MediaAndBody media={image}>
          {heading}
          {codes}
          {cta}
        </MediaAndBody>
      );
    // A shop campaign: a wide picture with its discount, the heading and the call to action.
    case 'lkCampaignCard':
      return (
        <MediaAndBody
          media={
            <>
              {image}
              {discount}
            </>
          }
        >
          {heading}
          {prices}
          {cta}
        </MediaAndBody>
      );
    // Food service: the pack, its codes and the ordering link of its Valo code.
    case 'FSProductCard':
      return (
        <MediaAndBody media={image}>
          {heading}
          {codes}
          {card.valoCode ? (
            <a className={`${styles.raised} ${styles.order}`} href={valoOrderUrl(card.valoCode)}>
              {t('cards.order', { code: card.valoCode })}
            </a>
          ) : null}
        </MediaAndBody>
      );
    // The shop's product, Sweden's and the export site's: the price facts under the name; the
    // shop's product also the shop's buy control where the cards' renderer hands it in.
    default:
      return (
        <MediaAndBody
          media={
            <>
              {image}
              {discount}
            </>
          }
        >
          {card.isGiftCard ? <p className={styles.kicker}>{t('product.giftCard')}</p> : null}
          {heading}
          {prices}
          {card.type === 'lkProductCard' ? null : codes}
          {cta}
          <CardBuy card={card} />
        </MediaAndBody>
      );
  }
}

/** The shop's buy control on a card that offers one, where the cards' renderer hands it in. */
function CardBuy(props: { card: CardDto }) {
  const BuyPart = useCardBuyPart();
  const buyProps = BuyPart ? cardBuyProps(props.card) : null;
  if (!BuyPart || !buyProps) return null;
  return (
    <div className={`${styles.raised} ${styles.buy}`} data-card-buy="">
      <BuyPart {...buyProps} />
    </div>
  );
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

/** The external ordering site's page of a food-service product by its Valo code (spec §9). */
export const VALO_ORDER_URL = 'https://www.valo.fi/tuotteet/{valoCode}';

export function valoOrderUrl(valoCode: string): string {
  return VALO_ORDER_URL.replace('{valoCode}', encodeURIComponent(valoCode));
}

/** Characters of a social post's body shown before 'show more' (spec §5, §9). */
export const SOCIAL_BODY_CHARS = 120;

/** A post's body cut at a word boundary within the first `max` characters, and the rest. */
export function truncateBody(
  body: string,
  max = SOCIAL_BODY_CHARS,
): { head: string; rest: string } {
  if (body.length <= max) return { head: body, rest: '' };
  const cut = body.lastIndexOf(' ', max);
  const at = cut > max / 2 ? cut : max;
  return { head: body.slice(0, at).trimEnd(), rest: body.slice(at).trimStart() };
}

const networkNames: Record<string, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  tiktok: 'TikTok',
};

/**
 * A social media post (spec §3): the profile (picture, network, days since posted), the media
 * (a video marked as such), the body cut at 120 characters with a 'show more' that works without
 * script (a disclosure), and the likes and comments.
 */
function SocialBody(props: {
  card: CardDto;
  image: ReactNode;
  heading: ReactNode;
  likes: ReactNode;
}) {
  const { card } = props;
  const t = useT();
  const lang = useLang();
  const network = card.socialNetwork
    ? (networkNames[card.socialNetwork] ?? card.socialNetwork)
    : '';
  const body = truncateBody(card.body ?? '');
  return (
    <>
      <div className={styles.profile}>
        {card.profileImage ? (
          <Img
            lang={lang}
            image={card.profileImage}
            preset="thumbnail-medium"
            className={styles.avatar}
            decorative
          />
        ) : null}
        <p className={styles.profileText}>
          {card.profileUrl ? (
            <a className={styles.raised} href={card.profileUrl}>
              {network || card.profileUrl}
            </a>
          ) : (
            network
          )}
          {card.daysSincePosted !== undefined ? (
            <span>
              {card.daysSincePosted === 0
                ? t('cards.today')
                : t('cards.daysAgo', { count: card.daysSincePosted })}
            </span>
          ) : null}
        </p>
      </div>
      <div className={styles.media}>
        {props.image}
        {card.mediaType === 'VIDEO' ? (
          <span className={styles.badge}>{t('cards.video')}</span>
        ) : null}
      </div>
      <div className={styles.body}>
        {props.heading}
        {body.head ? (
          <p className={styles.postBody}>
            {body.head}
            {body.rest ? '…' : null}
          </p>
        ) : null}
        {body.rest ? (
          <details className={`${styles.raised} ${styles.more}`}>
            <summary>{t('cards.showMore')}</summary>
            <p>{card.body}</p>
          </details>
        ) : null}
        <p className={styles.meta}>
          {props.likes}
          {card.commentCount !== undefined ? (
            <span className={styles.fact}>{t('cards.comments', { count: card.commentCount })}</span>
          ) : null}
        </p>
      </div>
    </>
  );
}
