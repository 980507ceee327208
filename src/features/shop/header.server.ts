import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import { lineItemCount } from './cart.server.ts';
import { cartRoutes } from './routes.server.ts';

/** Requests whose answer shows the session's cart: no shared cache may keep them. */
const showsCart = new WeakSet<FastifyRequest>();

/**
 * The count on the header's cart badge. It is the number of line items, not the sum of their
 * quantities: the spec names it `lineItemCount` beside `lineItems`, says the mobile icon shows
 * "when the cart has line items", and the retail site's cart keeps `lineItemCount` apart from
 * each line's own `quantity`. A database failure shows an empty cart; the page still renders.
 */
export async function headerLineItemCount(request: FastifyRequest): Promise<number> {
  showsCart.add(request);
  const session = request.session;
  if (!session || session.isNew) return 0;
  try {
    return await lineItemCount(
      request.server.db,
      { sessionId: session.id, siteId: SHOP_SITE_ID },
      request.locale.lang,
    );
  } catch (err) {
    request.log.warn({ err }, 'cart count unavailable; showing an empty cart');
    return 0;
  }
}

/**
 * The cart routes, and the cache rule of pages that show the cart: their HTML differs per
 * session, so it is `private` (browsers still revalidate it; shared caches never keep it).
 */
export const shopPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply) => {
      if (showsCart.has(request) && reply.getHeader('cache-control') !== 'no-store') {
        reply.header('cache-control', 'private, no-cache');
      }
    });
    await app.register(cartRoutes);
  },
  { name: 'shop', dependencies: ['sessions', 'xsrf'] },
);
