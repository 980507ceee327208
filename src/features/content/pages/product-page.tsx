import type { ReactNode } from 'react';
import type { MessageKey } from '../../../i18n/fi.ts';
import { formatNumber, formatPrice } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { Island } from '../../../render/island.server.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import { NutrientTable } from '../components/nutrient-table.tsx';
import { type ImageDto, PRODUCT_IMAGE_SIZES } from '../image-dto.ts';
import type { Nutrition } from '../tables.ts';

const nutritionRows: [keyof Nutrition, MessageKey, string][] = [
  ['fat', 'product.fat', 'g'],
  ['saturatedFat', 'product.saturatedFat', 'g'],
  ['carbohydrate', 'product.carbohydrate', 'g'],
  ['sugars', 'product.sugars', 'g'],
  ['protein', 'product.protein', 'g'],
  ['salt', 'product.salt', 'g'],
];

/** What a product page shows (`productPageProps` builds it from the product). */
export interface ProductPageProps {
  crumbs: Crumb[];
  /** The product's pictures in order; more than one makes a carousel. */
  images: ImageDto[];
  name: string;
  teaser: string;
  isNovelty: boolean;
  descriptionHtml: string;
  code: string;
  gtin: string | null;
  valoCode: string | null;
  weightGrams: number | null;
  ingredients: string;
  nutrition: Nutrition | null;
  /** Price and stock of a product sold in the shop; undefined for the others. */
  shop: ProductShopProps | undefined;
  /**
   * What the shop adds where it sells the product (stock, buy control, delivery check), rendered
   * by the shop feature; without it the page shows the plain stock line.
   */
  purchase?: ReactNode;
  /**
   * The product's reviews where the shop sells it (rendered by the shop, shown under the product
   * as `#reviews`) and the rating they add up to, shown by the title.
   */
  reviews?: { element: ReactNode; averageRating: number | null; reviewCount: number } | undefined;
}

export interface ProductShopProps {
  priceCents: number;
  pricePerKgCents: number | null;
  /** The price before a campaign. */
  svhPriceCents: number | null;
  discountPercentage: number | null;
  inStock: boolean;
}

export function ProductPage(props: ProductPageProps) {
  const { t, lang } = usePage();
  const { images, shop } = props;
  const [first] = images;
  const n = props.nutrition;
  const reviewed = props.reviews;
  const rating =
    reviewed && reviewed.reviewCount > 0 && reviewed.averageRating !== null
      ? { average: reviewed.averageRating, count: reviewed.reviewCount }
      : null;
  return (
    <div className="container">
      <Breadcrumbs items={props.crumbs} />
      <article className={styles.detail}>
        <div>
          {images.length > 1 ? (
            <Island name="product-gallery" lang={lang} props={{ images }} />
          ) : first ? (
            <Img
              lang={lang}
              image={first}
              preset="default"
              sizes={PRODUCT_IMAGE_SIZES}
              className={styles.detailImage}
              eager
            />
          ) : null}
        </div>
        <div>
          <header className={styles.pageHeader}>
            {props.isNovelty ? <span className={styles.badge}>{t('card.novelty')}</span> : null}
            <h1>{props.name}</h1>
            {props.teaser ? <p className={styles.lead}>{props.teaser}</p> : null}
            {rating ? (
              <p className={styles.rating}>
                <a href="#reviews">
                  <span aria-hidden="true" className={styles.ratingStars}>
                    ★
                  </span>{' '}
                  {t('review.average', { average: formatNumber(rating.average, lang) })}
                  {', '}
                  {rating.count === 1
                    ? t('review.countOne')
                    : t('review.count', { count: rating.count })}
                </a>
              </p>
            ) : null}
          </header>
          {shop ? <ShopPrice shop={shop} /> : null}
          {props.purchase ??
            (shop ? <p>{shop.inStock ? t('product.inStock') : t('product.outOfStock')}</p> : null)}
          <RichText html={props.descriptionHtml} className={styles.prose} />
          <dl className={styles.facts}>
            <dt>{t('product.code')}</dt>
            <dd>{props.code}</dd>
            {props.gtin ? (
              <>
                <dt>{t('product.ean')}</dt>
                <dd>{props.gtin}</dd>
              </>
            ) : null}
            {props.valoCode ? (
              <>
                <dt>{t('product.valoCode')}</dt>
                <dd>{props.valoCode}</dd>
              </>
            ) : null}
            {props.weightGrams ? (
              <>
                <dt>{t('product.weight')}</dt>
                <dd>{props.weightGrams} g</dd>
              </>
            ) : null}
          </dl>
          {props.ingredients ? (
            <section>
              <h2>{t('product.ingredients')}</h2>
              <p>{props.ingredients}</p>
            </section>
          ) : null}
          {n ? <NutritionTable nutrition={n} /> : null}
        </div>
      </article>
      {reviewed?.element}
    </div>
  );
}

/** The shop's price, its discount, the price per kilo and the price before the campaign. */
function ShopPrice(props: { shop: NonNullable<ProductPageProps['shop']> }) {
  const { t } = usePage();
  const { shop } = props;
  return (
    <div className={styles.price}>
      <span>{formatPrice(shop.priceCents)}</span>
      {shop.discountPercentage ? (
        <span className={styles.badge}>
          {t('product.discount', { percent: shop.discountPercentage })}
        </span>
      ) : null}
      {shop.pricePerKgCents ? (
        <small>{t('product.pricePerKg', { price: formatPrice(shop.pricePerKgCents) })}</small>
      ) : null}
      {shop.svhPriceCents && shop.svhPriceCents !== shop.priceCents ? (
        <small>{t('product.regularPrice', { price: formatPrice(shop.svhPriceCents) })}</small>
      ) : null}
    </div>
  );
}

/** The nutrition table: the energy, then each nutrient the product states. */
function NutritionTable(props: { nutrition: NonNullable<ProductPageProps['nutrition']> }) {
  const { t, lang } = usePage();
  const n = props.nutrition;
  return (
    <section>
      <h2>{t('product.nutritionPer', { per: n.per })}</h2>
      <NutrientTable
        rows={[
          ...(n.energyKj !== undefined || n.energyKcal !== undefined
            ? [
                {
                  key: 'energy',
                  label: t('product.energy'),
                  value: `${n.energyKj ?? '–'} kJ / ${n.energyKcal ?? '–'} kcal`,
                },
              ]
            : []),
          ...nutritionRows
            .filter(([key]) => typeof n[key] === 'number')
            .map(([key, label, unit]) => ({
              key,
              label: t(label),
              value: `${formatNumber(n[key] as number, lang)} ${unit}`,
            })),
        ]}
      />
    </section>
  );
}
