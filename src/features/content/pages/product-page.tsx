import type { Nutrition } from '../../../db/schema.ts';
import type { MessageKey } from '../../../i18n/fi.ts';
import { formatNumber, formatPrice } from '../../../i18n/format.ts';
import { Img } from '../../../images/picture.tsx';
import { usePage } from '../../../render/page-context.tsx';
import { RichText } from '../../../render/rich-text.server.tsx';
import { Breadcrumbs, type Crumb } from '../components/breadcrumbs.tsx';
import styles from '../components/content.module.css';
import { NutrientTable } from '../components/nutrient-table.tsx';
import type { ImageDto, ProductRow } from '../content.server.ts';

const nutritionRows: [keyof Nutrition, MessageKey, string][] = [
  ['fat', 'product.fat', 'g'],
  ['saturatedFat', 'product.saturatedFat', 'g'],
  ['carbohydrate', 'product.carbohydrate', 'g'],
  ['sugars', 'product.sugars', 'g'],
  ['protein', 'product.protein', 'g'],
  ['salt', 'product.salt', 'g'],
];

export function ProductPage(props: { product: ProductRow; crumbs: Crumb[]; images: ImageDto[] }) {
  const { t, lang } = usePage();
  const { product } = props;
  const [first] = props.images;
  const isShop = product.priceCents !== null;
  const n = product.nutrition;
  return (
    <div className="container">
      <Breadcrumbs items={props.crumbs} />
      <article className={styles.detail}>
        <div>
          {first ? (
            <Img lang={lang} image={first} preset="default" className={styles.detailImage} eager />
          ) : null}
        </div>
        <div>
          <header className={styles.pageHeader}>
            {product.isNovelty ? <span className={styles.badge}>{t('card.novelty')}</span> : null}
            <h1>{product.name}</h1>
            {product.teaser ? <p className={styles.lead}>{product.teaser}</p> : null}
          </header>
          {isShop ? (
            <div className={styles.price}>
              <span>{formatPrice(product.priceCents ?? 0)}</span>
              {product.discountPercentage ? (
                <span className={styles.badge}>
                  {t('product.discount', { percent: product.discountPercentage })}
                </span>
              ) : null}
              {product.pricePerKgCents ? (
                <small>
                  {t('product.pricePerKg', { price: formatPrice(product.pricePerKgCents) })}
                </small>
              ) : null}
              {product.svhPriceCents && product.svhPriceCents !== product.priceCents ? (
                <small>
                  {t('product.regularPrice', { price: formatPrice(product.svhPriceCents) })}
                </small>
              ) : null}
            </div>
          ) : null}
          {isShop ? (
            <p>{product.stock === 0 ? t('product.outOfStock') : t('product.inStock')}</p>
          ) : null}
          <RichText html={product.descriptionHtml} className={styles.prose} />
          <dl className={styles.facts}>
            <dt>{t('product.code')}</dt>
            <dd>{product.code}</dd>
            {product.gtin ? (
              <>
                <dt>{t('product.ean')}</dt>
                <dd>{product.gtin}</dd>
              </>
            ) : null}
            {product.valoCode ? (
              <>
                <dt>{t('product.valoCode')}</dt>
                <dd>{product.valoCode}</dd>
              </>
            ) : null}
            {product.weightGrams ? (
              <>
                <dt>{t('product.weight')}</dt>
                <dd>{product.weightGrams} g</dd>
              </>
            ) : null}
          </dl>
          {product.ingredients ? (
            <section>
              <h2>{t('product.ingredients')}</h2>
              <p>{product.ingredients}</p>
            </section>
          ) : null}
          {n ? (
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
          ) : null}
        </div>
      </article>
    </div>
  );
}
