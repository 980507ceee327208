import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Invalid } from '../../server/errors.ts';
import { parse } from '../../server/validate.ts';
import { getSite } from '../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';
import { addToCart, type CartKey, changeQuantity, loadCart } from './cart.server.ts';
import {
  addQuerySchema,
  CART_API,
  changeQuantityQuerySchema,
  langOfCartLanguage,
  loadQuerySchema,
} from './schemas.ts';

/** Per client address and minute: every shop page loads the cart; changes come by hand. */
const loadRateLimit = { max: 300, timeWindow: 60_000 };
const changeRateLimit = { max: 120, timeWindow: 60_000 };

/** A language the shop has; another one is a bad parameter, not an empty cart. */
function shopLang(language: Parameters<typeof langOfCartLanguage>[0]): Lang {
  const lang = langOfCartLanguage(language);
  const site = getSite(SHOP_SITE_ID);
  if (!site?.languages.includes(lang)) throw new Invalid({ language: 'validation.invalid' });
  return lang;
}

/** The cart of the request's session, if the session has been stored (no cart before that). */
function existingKey(request: FastifyRequest): CartKey | null {
  const session = request.session;
  if (!session || session.isNew) return null;
  return { sessionId: session.id, siteId: SHOP_SITE_ID };
}

/**
 * The key a change writes under. The session row must exist first (the cart refers to it); storing
 * it also renews its lifetime and, on the first store, gives the visitor a fresh token.
 */
async function storedKey(request: FastifyRequest): Promise<CartKey> {
  const session = request.session;
  await session.set(await session.get());
  return { sessionId: session.id, siteId: SHOP_SITE_ID };
}

const personal = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/** `/api/v1/lihakauppa/shoppingcart/*`: the shop cart of the visitor's session (spec §7). */
export async function cartRoutes(app: FastifyInstance) {
  app.get(`${CART_API}/load`, { config: { rateLimit: loadRateLimit } }, async (request, reply) => {
    const query = parse(loadQuerySchema, request.query);
    const lang = shopLang(query.language);
    personal(reply);
    return loadCart(app.db, existingKey(request), lang);
  });

  app.post(
    `${CART_API}/add`,
    { config: { rateLimit: changeRateLimit } },
    async (request, reply) => {
      const query = parse(addQuerySchema, request.query);
      const lang = shopLang(query.language);
      const key = await storedKey(request);
      await addToCart(app.db, key, lang, query.code, query.quantity);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );

  app.post(
    `${CART_API}/changequantity`,
    { config: { rateLimit: changeRateLimit } },
    async (request, reply) => {
      const query = parse(changeQuantityQuerySchema, request.query);
      const lang = shopLang(query.language);
      const key = await storedKey(request);
      await changeQuantity(app.db, key, lang, query.code, query.quantity);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );
}
