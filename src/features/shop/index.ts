/**
 * The shop's browser-safe surface: what other features' islands use. The header's badge on the
 * brand sites that sell through the shop reads the synced cart from here; the shop's product
 * search grid renders each card's shop part (`LkProductCardBuy`) from here.
 */

export { useShopCartCount } from './cart-events.ts';
export type { LocalCart } from './cart-sync/protocol.ts';
export {
  addThroughShop,
  type CartSyncConfig,
  connectCartSync,
  followCartLink,
  useSyncedCart,
} from './cart-sync/site-cart.ts';
export { LkProductCardBuy } from './product-card.tsx';
export { type ProductCard, productCardSchema } from './schemas.ts';
