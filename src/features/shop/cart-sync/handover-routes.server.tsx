import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serverT } from '../../../i18n/catalogues.ts';
import type { PageLayout } from '../../../render/render-page.tsx';
import { apiRoute } from '../../../server/api-route.ts';
import { AppError } from '../../../server/errors.ts';
import { acceptFormPosts, FORM_TOKEN_FIELD } from '../../../server/form-posts.ts';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import type { Lang } from '../../../sites/types.ts';
import { loadCart } from '../cart.server.ts';
import { onShop } from '../customer/routes.server.ts';
import { PlainPageForm, type PlainPageFrame, plainPages } from '../plain-page.server.tsx';
import { cartTarget, existingKey } from '../routes.server.ts';
import { CART_API, type Cart, cartSchema } from '../schemas.ts';
import styles from './handover.module.css';
import {
  claimHandover,
  countWithHandedOver,
  HANDOVER_TOKEN_PATTERN,
  handoverSource,
  issueHandover,
} from './handover.server.ts';
import { HANDOVER_PAGE_PATH } from './protocol.ts';

/** Per client address and minute: a hand-over is asked for by a click. */
const handoverRateLimit = perMinute(60);

const tokenSchema = z.preprocess(
  (value) => (Array.isArray(value) ? '' : value),
  z.string({ error: 'validation.invalid' }).regex(HANDOVER_TOKEN_PATTERN, 'validation.invalid'),
);

const handoverSchema = z
  .object({
    token: z.string().describe('One-time token; only its hash is stored'),
    expiresAt: z.string().describe('When the token stops working (ISO 8601)'),
    path: z.string().describe("The shop's page that takes the token (confirm, then move)"),
  })
  .describe('A cart hand-over token');

/** Per client address and minute: as the cart's load, asked once a page and after each add. */
const countRateLimit = perMinute(300);

const countQuerySchema = z.object({
  language: z.enum(['fi'], { error: 'validation.invalid' }).default('fi'),
});

const countSchema = z
  .object({
    lineItemCount: z
      .number()
      .int()
      .min(0)
      .describe('Products in the cart and in the shop cart it was handed over to, each once'),
  })
  .describe('The cart count a brand site shows');

const claimQuerySchema = z.object({
  language: z.enum(['fi'], { error: 'validation.invalid' }).default('fi'),
  token: tokenSchema,
});

/**
 * `shoppingcart/handover` (the frame asks for a token for its session's cart) and
 * `shoppingcart/claimhandover` (moves the lines of a token's cart into this session's cart), on
 * the shop only. Both need the anti-forgery header like every other cart change.
 */
export async function handoverApiRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // After the request's checks, as each handler's first step: the routes are the shop's, and
  // every answer is the session's own (a problem answer is never stored either).
  app.addHook('preHandler', async (request, reply) => {
    onShop(request);
    reply.header('cache-control', 'no-store');
  });

  apiRoute(app, 'POST', `${CART_API}/handover`, 'shop', {
    rateLimit: handoverRateLimit,
    summary: 'A one-time token that hands the cart over to the shop at top level',
    description:
      'Asked by the shop frame on a brand site (decision 021). 404 when the session has no lines.',
    answer: jsonAnswer(handoverSchema, 'The token'),
    problems: [403, 404, 429],
    handler: async (request) => {
      const { token, expiresAt } = await issueHandover(app.db, existingKey(request));
      return {
        token,
        expiresAt: expiresAt.toISOString(),
        path: `${HANDOVER_PAGE_PATH}?${new URLSearchParams({ token })}`,
      };
    },
  });

  apiRoute(app, 'POST', `${CART_API}/claimhandover`, 'shop', {
    rateLimit: handoverRateLimit,
    summary: "Moves the lines of a hand-over token's cart into this session's cart",
    description:
      'Quantities are summed with the lines of the same code, capped by stock and 99. A token works once; unknown, used or expired tokens are 404 and write nothing.',
    querystring: claimQuerySchema,
    answer: jsonAnswer(cartSchema, 'The cart of the session'),
    problems: [400, 403, 404, 429],
    handler: async (request) => {
      const lang = request.query.language;
      const { key } = await claimHandover(app.db, request.query.token, cartTarget(request), lang);
      return loadCart(app.db, key, lang);
    },
  });

  apiRoute(app, 'GET', `${CART_API}/count`, 'shop', {
    rateLimit: countRateLimit,
    summary: 'The number of products in the cart as a brand site shows it',
    description:
      "The session's cart and, after a hand-over (decision 021), the shop cart its lines went to, each product once (decision 102). Asked by the shop frame on a brand site; elsewhere it is the cart's own `lineItemCount`.",
    querystring: countQuerySchema,
    answer: jsonAnswer(countSchema, 'The count'),
    problems: [400, 404, 429],
    handler: async (request) => {
      const key = existingKey(request);
      const data = key ? await request.session.get() : {};
      return {
        lineItemCount: await countWithHandedOver(app.db, key, data, request.query.language),
      };
    },
  });
}

interface ConfirmProps {
  lang: Lang;
  token: string;
  xsrf: string;
  cart: Cart;
}

/** The hand-over page's frame (`plainPages`). */
const FRAME: PlainPageFrame = {
  texts: 'shop.handover',
  className: styles.handover,
  titleId: 'handover-title',
};

function HandoverConfirm({ lang, token, xsrf, cart }: ConfirmProps) {
  const t = serverT(lang);
  return (
    <PlainPageForm
      lang={lang}
      {...FRAME}
      action={HANDOVER_PAGE_PATH}
      fields={{ token, [FORM_TOKEN_FIELD]: xsrf }}
      formClassName={styles.actions}
      actions={
        <>
          <button type="submit" className={styles.primary}>
            {t('shop.handover.submit')}
          </button>
          <a href="/ostoskori#tuotteet">{t('shop.handover.toCart')}</a>
        </>
      }
    >
      <ul className={styles.lines}>
        {cart.lineItems.map((line) => (
          <li key={line.code} className={styles.line}>
            <span className={styles.name}>{line.name}</span>
            <span>
              {line.quantity} {t('shop.buy.unit')}
            </span>
            <span className={styles.price}>{line.linePrice} €</span>
          </li>
        ))}
      </ul>
      <p className={styles.total}>
        {t('shop.cart.total')} <strong>{cart.total} €</strong>
      </p>
    </PlainPageForm>
  );
}

/**
 * The shop's page that takes a hand-over token: GET shows the lines waiting and a form to confirm
 * (a GET never changes anything); its POST, with the page's anti-forgery field, moves them and
 * sends the visitor to the cart page. Plain HTML: it works without JavaScript.
 */
export function handoverPageRoutes(layout: PageLayout) {
  return async (fastify: FastifyInstance) => {
    // Only this plugin's routes take a classic form post; everything else stays JSON.
    acceptFormPosts(fastify, 4096);
    fastify.addHook('onRequest', async (request) => onShop(request));

    // The header's cart makes the page `private, no-cache` (shopPlugin): no shared cache keeps it.
    const { page, refused } = plainPages(layout, FRAME);

    fastify.get<{ Querystring: { token?: unknown } }>(
      HANDOVER_PAGE_PATH,
      async (request, reply) => {
        const { lang } = request.locale;
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        const source = await handoverSource(fastify.db, token);
        if (!source) return refused(request, reply, 404, 'expired');
        const cart = await loadCart(fastify.db, source, lang);
        return page(
          request,
          reply,
          200,
          <HandoverConfirm
            lang={lang}
            token={token}
            xsrf={request.session.derive('xsrf')}
            cart={cart}
          />,
        );
      },
    );

    fastify.post<{ Body: Record<string, unknown> | undefined }>(
      HANDOVER_PAGE_PATH,
      {
        config: {
          formPost: { refused: (request, reply) => refused(request, reply, 403, 'forbidden') },
        },
      },
      async (request, reply) => {
        const body = request.body ?? {};
        const token = typeof body.token === 'string' ? body.token : '';
        try {
          await claimHandover(fastify.db, token, cartTarget(request), request.locale.lang);
        } catch (err) {
          if (err instanceof AppError && err.status === 404) {
            return refused(request, reply, 404, 'expired');
          }
          throw err;
        }
        return reply.redirect('/ostoskori#tuotteet', 303);
      },
    );
  };
}
