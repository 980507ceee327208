/** Server-only parts of the cart feature: its routes and the header's count. */
export { cartPlugin, headerLineItemCount } from './header.server.ts';
