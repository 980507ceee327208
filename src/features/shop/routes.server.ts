import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Invalid } from '../../server/errors.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../server/openapi.ts';
import { perMinute } from '../../server/rate-limit.ts';
import { getSite } from '../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../sites/shop.ts';
import type { Lang } from '../../sites/types.ts';
import { loadCart } from './cart.server.ts';
import { addToCart, changeQuantityWithinLimit } from './cart-lines.server.ts';
import type { CartKey, CartTarget } from './cart-rows.server.ts';
import { addCoupon, removeCoupon } from './coupons.server.ts';
import { deliveryDates, isDeliveredTo, productDeliveryTimes } from './delivery.server.ts';
import { orderRoutes } from './orders/routes.server.ts';
import { productDetail } from './products.server.ts';
import {
  addQuerySchema,
  availabilityQuerySchema,
  availabilitySchema,
  CART_API,
  CHECKOUT_API,
  cartSchema,
  changeQuantityQuerySchema,
  couponQuerySchema,
  deliveryDatesSchema,
  deliveryQuerySchema,
  langOfCartLanguage,
  loadQuerySchema,
  PRODUCTS_API,
  productAvailabilityQuerySchema,
  productAvailabilitySchema,
  productDetailSchema,
  productParamsSchema,
  productQuerySchema,
} from './schemas.ts';

/** Per client address and minute: every shop page loads the cart; changes come by hand. */
const loadRateLimit = perMinute(300);
const changeRateLimit = perMinute(120);

/** A language the shop has; another one is a bad parameter, not an empty cart. */
function shopLang(language: Parameters<typeof langOfCartLanguage>[0]): Lang {
  const lang = langOfCartLanguage(language);
  const site = getSite(SHOP_SITE_ID);
  if (!site?.languages.includes(lang)) throw new Invalid({ language: 'validation.invalid' });
  return lang;
}

/** The cart of the request's session, if the session has been stored (no cart before that). */
export function existingKey(request: FastifyRequest): CartKey | null {
  const session = request.session;
  if (!session || session.isNew) return null;
  return { sessionId: session.id, siteId: SHOP_SITE_ID };
}

/**
 * Where a change writes. The session row must exist before the cart (the cart refers to it), so
 * an allowed change stores it first: that renews its lifetime and, on the first store, gives the
 * visitor a fresh token. A refused change never gets that far (see `CartTarget`).
 */
export function cartTarget(request: FastifyRequest): CartTarget {
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

/**
 * The shop's API (spec §7): `/api/v1/lihakauppa/shoppingcart/*` (the cart of the visitor's
 * session, its coupon codes), `/api/v1/lihakauppa/checkout/*` (delivery checks) and
 * `/api/products/{code}`.
 */
export async function cartRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  await fastify.register(checkoutRoutes);
  await fastify.register(productRoutes);
  await fastify.register(orderRoutes);

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
        description:
          'More than the line may hold (its stock, or 99) sets what it may hold, and `warnings` says so (decision 100). A sold-out product is 409.',
        security: XSRF_SECURITY,
        querystring: changeQuantityQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      const { language, code, quantity } = request.query;
      const lang = shopLang(language);
      const { key, warning } = await changeQuantityWithinLimit(
        app.db,
        cartTarget(request),
        lang,
        code,
        quantity,
      );
      personal(reply);
      const cart = await loadCart(app.db, key, lang);
      return warning ? { ...cart, warnings: [warning, ...cart.warnings] } : cart;
    },
  );

  app.post(
    `${CART_API}/addcouponcode`,
    {
      config: { rateLimit: changeRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Enters a coupon code into the cart',
        security: XSRF_SECURITY,
        querystring: couponQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { language, code } = request.query;
      const lang = shopLang(language);
      const key = await addCoupon(app.db, cartTarget(request), lang, code);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );

  app.post(
    `${CART_API}/removecouponcode`,
    {
      config: { rateLimit: changeRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Removes a coupon code from the cart',
        security: XSRF_SECURITY,
        querystring: couponQuerySchema,
        response: { 200: cartAnswer, ...problemAnswers(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const { language, code } = request.query;
      const lang = shopLang(language);
      const key = await removeCoupon(app.db, cartTarget(request), code);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );
}

/** Per client address and minute: postal-code checks are typed by hand. */
const checkRateLimit = perMinute(120);

/** `/api/v1/lihakauppa/checkout/*`: whether and when the shop delivers to a postal code. */
async function checkoutRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${CHECKOUT_API}/availability`,
    {
      config: { rateLimit: checkRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Whether the shop delivers to a postal code',
        querystring: availabilityQuerySchema,
        response: {
          200: jsonAnswer(availabilitySchema, 'Whether the area is delivered to'),
          ...problemAnswers(400, 429),
        },
      },
    },
    async (request) => ({ isAvailable: await isDeliveredTo(app.db, request.query.postalCode) }),
  );

  app.get(
    `${CHECKOUT_API}/delivery`,
    {
      config: { rateLimit: checkRateLimit },
      schema: {
        tags: ['shop'],
        summary: "Delivery dates and times for the session's cart to a postal code",
        querystring: deliveryQuerySchema,
        response: {
          200: jsonAnswer(deliveryDatesSchema, 'Delivery dates with their times'),
          ...problemAnswers(400, 429),
        },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      personal(reply);
      return deliveryDates(app.db, existingKey(request), lang, request.query.postalCode);
    },
  );

  app.get(
    `${CHECKOUT_API}/delivery-availability`,
    {
      config: { rateLimit: checkRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Delivery dates of one product to a postal code, with its stock on each',
        querystring: productAvailabilityQuerySchema,
        response: {
          200: jsonAnswer(productAvailabilitySchema, 'Delivery dates and stock'),
          ...problemAnswers(400, 404, 429),
        },
      },
    },
    async (request, reply) => {
      personal(reply);
      return productDeliveryTimes(
        app.db,
        request.query.productId,
        request.query.postalCode,
        new Date(),
        existingKey(request),
      );
    },
  );
}

/** `/api/products/{code}`: a shop product's detail (the product modal and page). */
async function productRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    `${PRODUCTS_API}/:code`,
    {
      config: { rateLimit: loadRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'A shop product',
        params: productParamsSchema,
        querystring: productQuerySchema,
        response: {
          200: jsonAnswer(productDetailSchema, 'The product'),
          ...problemAnswers(400, 404, 429),
        },
      },
    },
    async (request) => productDetail(app.db, shopLang(request.query.language), request.params.code),
  );
}
