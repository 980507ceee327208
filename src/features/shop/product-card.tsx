import { formatPrice } from '../../i18n/format.ts';
import { useT } from '../../i18n/react.tsx';
import { BuyControl } from './buy-control.tsx';
import { ProductModal } from './product-modal.tsx';
import { centsOfMoney, type ProductCard } from './schemas.ts';
import styles from './shop.module.css';
import { StockText } from './stock-text.tsx';

const price = (money: string | null) => {
  const cents = money === null ? null : centsOfMoney(money);
  return cents === null ? null : formatPrice(cents);
};

/**
 * The shop's part of an `lkProductCard` (spec §3): price, price per kilo, the discount badge,
 * stock, the buy control and the product modal. The card's picture and title are the grid's.
 */
export function LkProductCardBuy(props: { product: ProductCard }) {
  const t = useT();
  const { product } = props;
  const perKg = price(product.pricePerKg);
  return (
    <div className={styles.card}>
      <div className={styles.cardPrices}>
        {product.price ? <span className={styles.cardPrice}>{price(product.price)}</span> : null}
        {product.discountPercentage ? (
          <span className={styles.badge}>
            {t('product.discount', { percent: product.discountPercentage })}
          </span>
        ) : null}
        {perKg ? <small>{t('product.pricePerKg', { price: perKg })}</small> : null}
      </div>
      <StockText stock={product.stock} className={styles.stock} />
      {product.price ? (
        <BuyControl
          code={product.code}
          name={product.title}
          category={null}
          price={product.price}
          svhPrice={product.svhPrice}
          stock={product.stock}
          compact
        />
      ) : null}
      <ProductModal code={product.code} name={product.title} />
    </div>
  );
}
