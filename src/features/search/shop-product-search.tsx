import type { ComponentType } from 'react';
import type { ProductCard } from '../shop/index.ts';
import { type FacetSearchProps, FacetSearchView } from './facet-search.tsx';
import type { ShopSearchHit } from './shop-search.ts';

/** The shop's product search: a facet search over the shop's catalogue whose hits carry cards. */
export interface ShopProductSearchProps extends FacetSearchProps<ShopSearchHit> {
  kind: 'shop';
}

/** The shop's part of an `lkProductCard`: price, price per kilo, stock, buy control, modal. */
export type ProductCardPart = ComponentType<{ product: ProductCard }>;

/**
 * The shop's product search grid (spec §2, §3): the facet search whose cards are `lkProductCard`s,
 * each with the shop's part below its title. The app hands in the shop's part (the island
 * registry joins the two features' chunks), so this chunk imports no shop code and the shop's
 * card is fetched only on the shop's search page.
 */
export function shopProductSearchWith(ProductCardPart: ProductCardPart) {
  function ShopCardPart(props: { hit: ShopSearchHit }) {
    return props.hit.product ? <ProductCardPart product={props.hit.product} /> : null;
  }
  return function ShopProductSearch(props: ShopProductSearchProps) {
    return <FacetSearchView {...props} CardPart={ShopCardPart} />;
  };
}
