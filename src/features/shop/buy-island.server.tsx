import { serverT } from '../../i18n/catalogues.ts';
import { Island } from '../../render/island.server.tsx';
import type { Lang } from '../../sites/types.ts';
import type { CartSyncConfig } from './cart-sync/site-cart.ts';
import { moneyString } from './schemas.ts';
import { stockMessage } from './stock-text.tsx';

/** What a product page's buy control is drawn from: the shop's row of the product. */
export interface BuyRow {
  code: string;
  name: string;
  productGroup: string | null;
  priceCents: number;
  svhPriceCents: number | null;
  stock: number | null;
}

/**
 * A product page's stock text and buy control, as the shop and the brand sites that sell through
 * it both show them: the stock on the server, the control an island that also sends `view_item`.
 * With `sync` the control adds through the shop frame (decision 021).
 */
export function StockAndBuyControl(props: {
  product: BuyRow;
  lang: Lang;
  stockClassName: string | undefined;
  sync?: CartSyncConfig;
}) {
  const { product, lang } = props;
  const t = serverT(lang);
  const stock = stockMessage(product.stock);
  return (
    <>
      <p
        className={props.stockClassName}
        data-stock={product.stock === 0 ? 'sold-out' : 'available'}
      >
        {stock.count === undefined ? t(stock.key) : t(stock.key, { count: stock.count })}
      </p>
      <Island
        name="shop-buy-control"
        lang={lang}
        // The shop's own control posts without script (decision 055), so it can wait for the
        // visitor's intent or the first idle time (decision 066). A brand site's control adds
        // only through the shop's frame, so it hydrates at load.
        hydrate={props.sync ? 'load' : 'idle'}
        props={{
          code: product.code,
          name: product.name,
          category: product.productGroup,
          price: moneyString(product.priceCents),
          svhPrice: product.svhPriceCents === null ? null : moneyString(product.svhPriceCents),
          stock: product.stock,
          viewItem: true,
          ...(props.sync ? { sync: props.sync } : {}),
        }}
      />
    </>
  );
}
