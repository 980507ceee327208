import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import type { ShopProductSearchProps } from './shop-product-search.tsx';

/**
 * The shop's product search as an island, with the results (and the products' cards) the server
 * found for the URL (props from `loadShopProductSearch`).
 */
export function ShopProductSearchBlock(props: { search: ShopProductSearchProps }) {
  const { lang } = usePage();
  return <Island name="shop-product-search" props={props.search} lang={lang} />;
}
