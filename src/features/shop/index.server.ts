/** Server-only parts of the shop: its routes and the header's cart count. */
export { cartSyncConfig } from './cart-sync/routes.server.tsx';
export { ACCOUNT_PAGES } from './customer/pages.server.tsx';
export { headerVisitor, type ShopOptions, shopPlugin } from './header.server.ts';
export {
  anonymiseOrders,
  eraseCustomerAccounts,
  eraseReviews,
  findCustomerAccounts,
  findOrders,
  findReviews,
} from './personal-data.server.ts';
export { shopProductCards } from './products.server.ts';
export { loadShopProductReviews } from './reviews/widget.server.tsx';
export { productCardSchema } from './schemas.ts';
export { loadShopPageWidget, loadShopProductWidget } from './widgets.server.tsx';
