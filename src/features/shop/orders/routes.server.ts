import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Invalid } from '../../../server/errors.ts';
import { startJob } from '../../../server/jobs.ts';
import { jsonAnswer, problemAnswers, XSRF_SECURITY } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { ZodApp } from '../../../server/types.ts';
import { getSite } from '../../../sites/registry.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import type { Lang } from '../../../sites/types.ts';
import { loadCart } from '../cart.server.ts';
import type { CartKey } from '../cart-rows.server.ts';
import { NotLoggedIn, sessionCustomerId } from '../customer/accounts.server.ts';
import { onShop } from '../customer/routes.server.ts';
import { cartTarget, existingKey } from '../routes.server.ts';
import { cartSchema, centsOfMoney, langOfCartLanguage } from '../schemas.ts';
import { checkOut } from './check-out.server.ts';
import {
  addGiftCard,
  GIFT_CARD_TRIES,
  giftCardTryLimit,
  removeGiftCard,
} from './gift-cards.server.ts';
import {
  currentHold,
  deleteExpiredHolds,
  holdAnswer,
  releaseHold,
  takeHold,
} from './holds.server.ts';
import { paymentDeps } from './payments.server.ts';
import {
  CHECKOUT_API,
  CHECKOUT_HOLD_API,
  CHECKOUT_ORDER_API,
  checkoutQuerySchema,
  checkoutSchema,
  GIFT_CARD_ADD_API,
  GIFT_CARD_REMOVE_API,
  giftCardQuerySchema,
  giftCardRemoveQuerySchema,
  holdBodySchema,
  orderAnswerSchema,
  orderBodySchema,
} from './schemas.ts';

/** The checkout's JSON bodies are a few hundred bytes: anything past this is refused (413). */
const BODY_LIMIT = 8 * 1024;
/** How often expired holds are deleted (tidying only: they stopped counting at `expires_at`). */
const HOLD_TIDY_INTERVAL_MS = 5 * 60_000;
/** Per client address and minute. */
const checkoutRateLimit = perMinute(120);

function shopLang(language: Parameters<typeof langOfCartLanguage>[0]): Lang {
  const lang = langOfCartLanguage(language);
  if (!getSite(SHOP_SITE_ID)?.languages.includes(lang)) {
    throw new Invalid({ language: 'validation.invalid' });
  }
  return lang;
}

/** The logged-in customer and the session's cart key; 401 for a visitor. */
async function shopper(request: FastifyRequest): Promise<{ customerId: string; key: CartKey }> {
  onShop(request);
  const customerId = await sessionCustomerId(request.session);
  const key = existingKey(request);
  if (!customerId || !key) throw new NotLoggedIn();
  return { customerId, key };
}

const personal = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

/**
 * The checkout API (decision 027): the cart with its held delivery time, taking and letting go
 * of the hold, placing the order; and gift cards in the cart. All need a logged-in customer
 * except the gift cards, which are the cart's like its coupon codes.
 */
export async function orderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  fastify.addHook('onReady', async () => {
    startJob(fastify, {
      name: 'checkout-hold-tidy',
      everyMs: HOLD_TIDY_INTERVAL_MS,
      run: (db) => deleteExpiredHolds(db),
    });
  });

  registerHoldRoutes(app);
  registerOrderRoute(app);
  registerGiftCardRoutes(app);
}

/** The cart with its held delivery time (null when none is held or the hold has expired). */
async function checkoutOf(app: ZodApp, key: CartKey, lang: Lang) {
  const hold = await currentHold(app.db, key);
  return {
    cart: await loadCart(app.db, key, lang),
    hold: hold ? holdAnswer(hold, lang) : null,
  };
}

/** The checkout with its hold: read, taken and let go. */
function registerHoldRoutes(app: ZodApp) {
  app.get(
    CHECKOUT_API,
    {
      config: { rateLimit: checkoutRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'The cart with its held delivery time',
        description:
          '`hold` is null when the cart holds no delivery time or the hold has expired. 401 for a visitor.',
        querystring: checkoutQuerySchema,
        response: {
          200: jsonAnswer(checkoutSchema, 'The cart and its hold'),
          ...problemAnswers(400, 401, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      const { key } = await shopper(request);
      personal(reply);
      return checkoutOf(app, key, lang);
    },
  );

  app.post(
    CHECKOUT_HOLD_API,
    {
      bodyLimit: BODY_LIMIT,
      config: { rateLimit: checkoutRateLimit },
      schema: {
        tags: ['shop'],
        summary: "Holds a delivery time and the cart's per-date stock",
        description:
          'Takes or replaces the hold of the cart for 20 minutes: the slot must have room and every line its quantity on the date, counting what other carts hold and what is sold. 409 naming `time` (the slot is full or not offered) or each sold-out line by its code; `cart` when the cart is empty; 400 naming `postalCode`, `date` or `time` when one is missing. A cart of gift cards only (`hasGiftCardsOnly`) needs no delivery time: its hold keeps none (postalCode, date and time null) and the cards are mailed. Any change of the cart lets the hold go. 401 for a visitor.',
        security: XSRF_SECURITY,
        querystring: checkoutQuerySchema,
        body: holdBodySchema,
        response: {
          200: jsonAnswer(checkoutSchema, 'The cart and its new hold'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429),
        },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      const { key } = await shopper(request);
      await takeHold(app.db, key, lang, request.body);
      personal(reply);
      return checkoutOf(app, key, lang);
    },
  );

  app.delete(
    CHECKOUT_HOLD_API,
    {
      config: { rateLimit: checkoutRateLimit },
      schema: {
        tags: ['shop'],
        summary: "Lets the cart's hold go",
        security: XSRF_SECURITY,
        response: {
          204: z.null().describe('The cart holds nothing now'),
          ...problemAnswers(401, 403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      const { key } = await shopper(request);
      await releaseHold(app.db, key);
      personal(reply);
      return reply.code(204).send(null);
    },
  );
}

/** Placing the order of a held checkout. */
function registerOrderRoute(app: ZodApp) {
  app.post(
    CHECKOUT_ORDER_API,
    {
      bodyLimit: BODY_LIMIT,
      config: { rateLimit: checkoutRateLimit },
      schema: {
        tags: ['shop'],
        summary: 'Places the order of a held checkout',
        description:
          "Idempotent by `checkoutId` (the hold's id): submitting it again, also at once, answers the same order. `total` and `usedGiftCardAmount` are the cart's as the checkout showed them when the shopper confirmed: the order charges exactly that, or it is refused with 409 naming `giftCards` (the cards pay another amount now) or `total` (the total moved: a price, VAT or delivery fee); the cart then shows the new state and the hold stays, so the shopper can confirm again. One transaction takes the stock, date stock, slot, coupon uses and gift-card balance, writes the order and empties the cart. `next` is the payment page, or the confirmation page when nothing is left to pay. 409 naming what ran out: `checkoutId` (no live hold of this cart), `cart`, `time`, a line's code, `couponCodes`, `giftCards`, `total`, `deliveryAddress`. 503 with `Retry-After` when the server is too busy to place it now: nothing was done and the hold stays, so submitting again places it or refuses it. 401 for a visitor.",
        security: XSRF_SECURITY,
        body: orderBodySchema,
        response: {
          200: jsonAnswer(orderAnswerSchema, 'The order and where to go next'),
          ...problemAnswers(400, 401, 403, 404, 409, 413, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const { key, customerId } = await shopper(request);
      const { order, next, paymentError } = await checkOut(paymentDeps(request), {
        siteId: SHOP_SITE_ID,
        lang: request.locale.lang,
        sessionId: key.sessionId,
        customerId,
        checkoutId: request.body.checkoutId,
        paymentMethodCode: request.body.PaymentMethodCode,
        confirmed: {
          totalCents: centsOfMoney(request.body.total) ?? Number.NaN,
          usedGiftCardCents: centsOfMoney(request.body.usedGiftCardAmount) ?? Number.NaN,
        },
      });
      // The order stands; the answer tells the payment could not be opened (a repeated submit
      // opens it again).
      if (paymentError) throw paymentError;
      personal(reply);
      return { orderId: order.id, orderNumber: order.number, status: order.status, next };
    },
  );
}

/** Gift cards entered into the cart and taken out of it. */
function registerGiftCardRoutes(app: ZodApp) {
  // The tries share one budget per client with the cart page's plain form (gift-cards.server.ts).
  const giftCardTries = giftCardTryLimit(app);
  app.post(
    GIFT_CARD_ADD_API,
    {
      onRequest: giftCardTries,
      schema: {
        tags: ['shop'],
        summary: 'Enters a gift card into the cart',
        description:
          '`usedGiftCardAmount` of the answer is what the cart’s gift cards pay of its total; `giftCards` lists the cards entered by id, balance and what each pays. An unknown, used-up or expired code is 400 naming `code`; entering a card the cart holds changes nothing. 20 tries a minute per client, together with the cart page’s form.',
        security: XSRF_SECURITY,
        querystring: giftCardQuerySchema,
        response: { 200: jsonAnswer(cartSchema, 'The cart'), ...problemAnswers(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      const { key } = await addGiftCard(app.db, cartTarget(request), request.query.code);
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );

  app.post(
    GIFT_CARD_REMOVE_API,
    {
      config: { rateLimit: GIFT_CARD_TRIES },
      schema: {
        tags: ['shop'],
        summary: 'Removes a gift card from the cart',
        description:
          'The card by `code`, or by `giftCardId` (its `id` in the cart answer’s `giftCards`). One the cart does not hold changes nothing.',
        security: XSRF_SECURITY,
        querystring: giftCardRemoveQuerySchema,
        response: { 200: jsonAnswer(cartSchema, 'The cart'), ...problemAnswers(400, 403, 429) },
      },
    },
    async (request, reply) => {
      const lang = shopLang(request.query.language);
      const { code, giftCardId } = request.query;
      const key = await removeGiftCard(
        app.db,
        cartTarget(request),
        code !== undefined ? { code } : { id: giftCardId ?? 0 },
      );
      personal(reply);
      return loadCart(app.db, key, lang);
    },
  );
}
