/** Server-only parts of the shop: its routes and the header's cart count. */
export { headerLineItemCount, shopPlugin } from './header.server.ts';
