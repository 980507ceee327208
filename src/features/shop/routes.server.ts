import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Invalid } from '../../server/errors.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../server/openapi.ts';
import { getSite } from '../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';
import {
  addToCart,
  type CartKey,
  type CartTarget,
  changeQuantity,
  loadCart,
} from './cart.server.ts';
import {
  addQuerySchema,
  CART_API,
  cartSchema,
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
 * Where a change writes. The session row must exist before the cart (the cart refers to it), so
 * an allowed change stores it first: that renews its lifetime and, on the first store, gives the
 * visitor a fresh token. A refused change never gets that far (see `CartTarget`).
 */
function cartTarget(request: FastifyRequest): CartTarget {
  return {
    siteId: SHOP_SITE_ID,
    existing: existingKey(request),
    async store() {
      const session = request.session;
      await session.set(await session.get());
      return { sessionId: session.id, siteId: SHOP_SITE_ID };
    },
  };
}

const personal = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

const cartAnswer = jsonAnswer(cartSchema, 'The cart of the session');

/** `/api/v1/lihakauppa/shoppingcart/*`: the shop cart of the visitor's session (spec §7). */
export async function cartRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${CART_API}/load`,
    {
      config: { rateLimit: loadRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'The cart',
        querystring: loadQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 429) },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      personal(reply);
      return loadCart(app.db, existingKey(request), lang);
    },
  );

  app.post(
    `${CART_API}/add`,
    {
      config: { rateLimit: changeRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Adds a quantity of a product to the cart',
        security: XSRF_SECURITY,
        querystring: addQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { language, code, quantity } = request.query;
      const lang = shopLang(language);
      const key = await addToCart(app.db, cartTarget(request), lang, code, quantity);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );

  app.post(
    `${CART_API}/changequantity`,
    {
      config: { rateLimit: changeRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Sets the quantity of a line; 0 removes it',
        security: XSRF_SECURITY,
        querystring: changeQuantityQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { language, code, quantity } = request.query;
      const lang = shopLang(language);
      const key = await changeQuantity(app.db, cartTarget(request), lang, code, quantity);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );
}
