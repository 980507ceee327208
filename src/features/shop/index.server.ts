/** Server-only parts of the shop: its routes and the header's cart count. */
export {
  handoverPageRoutes,
  type PageLayout,
} from './cart-sync/handover-routes.server.tsx';
export { cartSyncConfig } from './cart-sync/routes.server.tsx';
export { checkoutPageRoutes } from './checkout/pages.server.tsx';
export { ACCOUNT_PAGES, accountPageRoutes } from './customer/pages.server.tsx';
export { type HeaderCartSummary, headerCartSummary, shopPlugin } from './header.server.ts';
export { orderPaymentPageRoutes } from './orders/payment-routes.server.tsx';
export { testBankPageRoutes } from './payment/testbank-page.server.tsx';
export { shopProductCards } from './products.server.ts';
export { loadShopProductReviews } from './reviews/widget.server.tsx';
export { productCardSchema } from './schemas.ts';
export { loadShopPageWidget, loadShopProductWidget } from './widgets.server.tsx';
