import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRoute } from '../../../server/api-route.ts';
import { jsonAnswer } from '../../../server/openapi.ts';
import { perMinute } from '../../../server/rate-limit.ts';
import { sessionCustomerId } from '../customer/accounts.server.ts';
import { onShop } from '../customer/routes.server.ts';
import { postReview, ReviewNeedsLogin, reviewPage } from './reviews.server.ts';
import {
  REVIEW_API,
  reviewPageSchema,
  reviewPostedSchema,
  reviewPostSchema,
  reviewQuerySchema,
} from './schemas.ts';

/** Per client address and minute: pages are read by paging; reviews are written by hand. */
export const REVIEW_LIMITS = {
  list: perMinute(300),
  post: perMinute(20),
};

/** A review is at most 500 characters: a larger body is refused before it is read (413). */
const BODY_LIMIT = 16 * 1024;

/**
 * The review API of the shop (spec §7): `GET /api/review/lihakauppa/` (a product's reviews, a
 * page at a time) and `POST` (a logged-in customer's review, with the anti-forgery header).
 */
export async function reviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  apiRoute(app, 'GET', REVIEW_API, 'shop', {
    rateLimit: REVIEW_LIMITS.list,
    summary: "A page of a product's reviews, newest first",
    description:
      'Reviews belong to the product code: every language version of the product shows the same reviews. `pageSize` defaults to 9.',
    querystring: reviewQuerySchema,
    answer: jsonAnswer(reviewPageSchema, 'The page of reviews'),
    problems: [400, 404, 429],
    handler: async (request) => {
      onShop(request);
      return reviewPage(app.db, request.query);
    },
  });

  apiRoute(app, 'POST', REVIEW_API, 'shop', {
    bodyLimit: BODY_LIMIT,
    rateLimit: REVIEW_LIMITS.post,
    summary: 'Writes the customer’s review of a product',
    description:
      'Login required (401) and a verified e-mail address (403 naming `email`, decision 082). Rating 1–5, text 1–500 characters and a user name, trimmed; the text is kept as plain text. One review per customer and product, counted by account and by mailbox (409 for a second). `isVerified` when the customer has a paid order of the product. `state` is `pending` when the shop moderates before publishing (the review is listed and counted once approved), `published` when it moderates afterwards (decision 148).',
    body: reviewPostSchema,
    answer: jsonAnswer(reviewPostedSchema, 'The review written'),
    problems: [400, 401, 403, 404, 409, 413, 429],
    handler: async (request, reply) => {
      onShop(request);
      reply.header('cache-control', 'no-store');
      const customerId = await sessionCustomerId(request.session);
      if (!customerId) throw new ReviewNeedsLogin();
      const { review, state } = await postReview(app.db, {
        customerId,
        body: request.body,
        limitKeySecret: app.config.sessionSecret,
        moderation: app.config.reviewModeration,
      });
      return { review, state, productId: request.body.productId };
    },
  });
}
