import type { FastifyRequest } from 'fastify';
import { jsonAnswer } from '../../../server/openapi.ts';
import type { ZodApp } from '../../../server/types.ts';
import { adminRoute } from '../../staff/index.server.ts';
import { assertShopAccess } from './orders.server.ts';
import { API_LIMIT, WRITE_LIMIT } from './rate-limits.ts';
import { listReviews, moderateReview } from './reviews.server.ts';
import {
  REVIEWS_API,
  reviewApproveSchema,
  reviewIdParamsSchema,
  reviewRejectSchema,
  reviewRowSchema,
  reviewsListSchema,
  reviewsQuerySchema,
} from './reviews-schemas.ts';

const BODY_LIMIT = 16 * 1024;

/**
 * `reviews.moderate` for the shop, before the body is read (each review's own site and language
 * is checked again when it is changed).
 */
const moderator = {
  staff: { permission: 'reviews.moderate' },
  preValidation: async (request: FastifyRequest) => assertShopAccess(request, 'reviews.moderate'),
} as const;
const moderation = { ...moderator, rateLimit: WRITE_LIMIT, bodyLimit: BODY_LIMIT };
const review = jsonAnswer(reviewRowSchema, 'The review as it is now');

/**
 * Review moderation (decision 148), with `reviews.moderate`: the queue by state, approving and
 * rejecting with a reason. A change names the state the moderator saw: a review already in the
 * asked state is answered as it is (nothing written), one moved elsewhere meanwhile is 409.
 */
export function registerReviews(app: ZodApp) {
  adminRoute(app, 'GET', REVIEWS_API, {
    ...moderator,
    rateLimit: API_LIMIT,
    summary: 'The shop’s reviews of a state: waiting ones oldest first, decided ones newest',
    description:
      '50 at a time from `offset`, with the product, the verified-purchase mark and who decided; `counts` has each state’s number.',
    querystring: reviewsQuerySchema,
    answer: jsonAnswer(reviewsListSchema, 'Reviews'),
    problems: [400, 401, 403, 429],
    handler: (request) => listReviews(request, request.query),
  });
  adminRoute(app, 'POST', `${REVIEWS_API}/:id/approve`, {
    ...moderation,
    summary: 'Publishes a review: it shows on the product and counts in its rating',
    description:
      '`from` is the state the moderator saw (`pending`, or `rejected` to publish it after all). Already published: nothing changes. Moved elsewhere meanwhile: 409 naming the `state` it is in.',
    params: reviewIdParamsSchema,
    body: reviewApproveSchema,
    answer: review,
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) =>
      moderateReview(request, request.params.id, { from: request.body.from, to: 'published' }),
  });
  adminRoute(app, 'POST', `${REVIEWS_API}/:id/reject`, {
    ...moderation,
    summary: 'Rejects a review with a reason: it no longer shows or counts',
    description:
      '`from` is the state the moderator saw (`pending`, or `published` to take it down). The reason (1–500 characters) is for staff and the audit log; the shopper is told only that the review was not published. Already rejected: nothing changes. Moved elsewhere meanwhile: 409 naming the `state` it is in.',
    params: reviewIdParamsSchema,
    body: reviewRejectSchema,
    answer: review,
    problems: [400, 401, 403, 404, 409, 429],
    handler: (request) =>
      moderateReview(request, request.params.id, {
        from: request.body.from,
        to: 'rejected',
        reason: request.body.reason,
      }),
  });
}
