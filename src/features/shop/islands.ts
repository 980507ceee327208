/**
 * The shop's islands. Name → lazy import of the component, for the app's island registry: each
 * becomes its own chunk, fetched only when a page has the island and its trigger fires.
 */
export const shopIslands = {
  'shop-buy-control': () => import('./buy-control.tsx').then((m) => m.BuyControl),
  // The buy control of an `lkProductCard` in a content grid that is not an island itself.
  'shop-card-buy': () => import('./card-buy.tsx').then((m) => m.CardBuyControl),
  'shop-cart': () => import('./cart-page.tsx').then((m) => m.CartPage),
  'shop-availability-check': () =>
    import('./availability-check.tsx').then((m) => m.AvailabilityCheck),
  'shop-delivery-check': () => import('./delivery-check.tsx').then((m) => m.DeliveryCheckIsland),
  'shop-purchase': () => import('./orders/purchase-event.tsx').then((m) => m.PurchaseEvent),
  'shop-reviews': () => import('./reviews/review-list.tsx').then((m) => m.ProductReviews),
  'shop-checkout': () => import('./checkout/checkout-page.tsx').then((m) => m.CheckoutPage),
};

/**
 * Parts of the shop that another feature's island shows, joined by the app's registry (no islands
 * of their own): each card's shop part in the shop's search grid (`searchIslandParts`), and the
 * buy control of an `lkProductCard` in the content's card carousel and card grid
 * (`contentIslandParts`).
 */
export const shopIslandParts = {
  productCardPart: () => import('./product-card.tsx').then((m) => m.LkProductCardBuy),
  cardBuyPart: () => import('./card-buy.tsx').then((m) => m.CardBuyControl),
  // The header's cart sync on a site that sells through the shop (`site-header-synced`).
  cartSync: () => import('./cart-sync/site-cart.ts').then((m) => m.cartSyncPart),
};
