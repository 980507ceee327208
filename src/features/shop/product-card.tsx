import { BuyControl } from './buy-control.tsx';
import { ProductModal } from './product-modal.tsx';
import { ProductPrices } from './product-prices.tsx';
import type { ProductCard } from './schemas.ts';
import styles from './shop.module.css';
import { StockText } from './stock-text.tsx';

/**
 * The shop's part of an `lkProductCard` (spec §3): price, price per kilo, the discount badge,
 * stock, the buy control and the product modal. The card's picture and title are the grid's.
 */
export function LkProductCardBuy(props: { product: ProductCard }) {
  const { product } = props;
  return (
    <div className={styles.card}>
      <ProductPrices
        price={product.price}
        pricePerKg={product.pricePerKg}
        svhPrice={product.svhPrice}
        discountPercentage={product.discountPercentage}
        regularPrice="withDiscount"
      />
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
