import { formatPrice } from '../../i18n/format.ts';
import { useT } from '../../i18n/react.tsx';
import styles from './shop.module.css';
import { centsOfMoney } from './values.ts';

/** The contract's money (`12,90`) as the visitor reads it (`12,90 €`); null when there is none. */
function shown(money: string | null): string | null {
  const cents = money === null ? null : centsOfMoney(money);
  return cents === null ? null : formatPrice(cents);
}

export interface ProductPricesProps {
  /** Money of the contract (`12,90`), or null. */
  price: string | null;
  pricePerKg: string | null;
  svhPrice: string | null;
  discountPercentage: number | null;
  /**
   * When the regular price shows beside the price: whenever it differs (the product's modal), or
   * only to explain a discount badge (the cards, where space is short).
   */
  regularPrice?: 'whenDifferent' | 'withDiscount';
}

/**
 * A product's price block (spec §3, §9): the price, the discount badge, the price per kilo and
 * the regular price. The product card and the product modal show the same one.
 */
export function ProductPrices(props: ProductPricesProps) {
  const t = useT();
  const price = shown(props.price);
  const perKg = shown(props.pricePerKg);
  const regularShown =
    props.svhPrice !== props.price &&
    ((props.regularPrice ?? 'whenDifferent') === 'whenDifferent' ||
      Boolean(props.discountPercentage));
  const regular = regularShown ? shown(props.svhPrice) : null;
  if (!price && !perKg) return null;
  return (
    <div className={styles.cardPrices}>
      {price ? <span className={styles.cardPrice}>{price}</span> : null}
      {props.discountPercentage ? (
        <span className={styles.badge}>
          {t('product.discount', { percent: props.discountPercentage })}
        </span>
      ) : null}
      {perKg ? <small>{t('product.pricePerKg', { price: perKg })}</small> : null}
      {regular ? <small>{t('product.regularPrice', { price: regular })}</small> : null}
    </div>
  );
}
