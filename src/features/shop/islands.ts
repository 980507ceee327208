/**
 * The shop's islands. Name → lazy import of the component, for the app's island registry: each
 * becomes its own chunk, fetched only when a page has the island and its trigger fires.
 */
export const shopIslands = {
  'cart-sync-frame': () => import('./cart-sync/shop-frame.tsx').then((m) => m.CartSyncFrame),
};
