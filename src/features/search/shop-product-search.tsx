import { LkProductCardBuy } from '../shop/index.ts';
import { type FacetSearchProps, FacetSearchView } from './facet-search.tsx';
import type { ShopSearchHit } from './shop-search.ts';

/** The shop's product search: a facet search over the shop's catalogue whose hits carry cards. */
export interface ShopProductSearchProps extends FacetSearchProps<ShopSearchHit> {
  kind: 'shop';
}

/** Each shop product's `lkProductCard` part: price, price per kilo, stock, buy control, modal. */
function ShopCardPart(props: { hit: ShopSearchHit }) {
  return props.hit.product ? <LkProductCardBuy product={props.hit.product} /> : null;
}

/**
 * The shop's product search grid (spec §2, §3): the facet search whose cards are `lkProductCard`s.
 * Its own island, so only the shop's search page loads the shop's card, buy control and modal.
 */
export function ShopProductSearch(props: ShopProductSearchProps) {
  return <FacetSearchView {...props} CardPart={ShopCardPart} />;
}
