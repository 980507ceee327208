/**
 * The shop's browser-safe surface: what other features' islands use. The header's badge on the
 * brand sites that sell through the shop reads the synced cart from here, and the shop's search
 * its product card type (the schema is in index.server.ts: the header must not load zod). Components for other features' islands are not exported here: every
 * page's header imports this file, and the bundler would put them in the header's chunk. The app's
 * island registry joins them instead (`shopIslandParts` in islands.ts).
 */

export type {
  AreaRow,
  BookedOrder,
  ClosedAnswer,
  DeliveryList,
  SlotRow,
} from './admin/delivery-schemas.ts';
export { useShopCartCount } from './cart-events.ts';
export type { LocalCart } from './cart-sync/protocol.ts';
export type { CartSyncConfig, CartSyncPart } from './cart-sync/site-cart.ts';
export type { ProductCard } from './schemas.ts';
