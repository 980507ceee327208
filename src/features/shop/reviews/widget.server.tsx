import type { FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { Island } from '../../../render/island.server.tsx';
import { requestPath } from '../../../server/request-path.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { customerAnswer, sessionCustomerId } from '../customer/accounts.server.ts';
import { ACCOUNT_PAGES } from '../customer/pages.server.tsx';
import { withReturn } from '../customer/return-path.ts';
import { ownReviewState, reviewsForProductPage } from './reviews.server.ts';
import { REVIEW_PAGES_MAX } from './schemas.ts';

/** What a product page shows of its reviews: the list with its dialog, and the rating. */
export interface ProductReviewsWidget {
  element: ReactNode;
  averageRating: number | null;
  reviewCount: number;
}

/** `page` of the product page's address: 1 unless a whole number from 2 up to the cap. */
function pageOfQuery(request: FastifyRequest): number {
  const value = (request.query as Record<string, unknown> | undefined)?.page;
  if (typeof value !== 'string' || !/^\d{1,3}$/.test(value)) return 1;
  return Math.min(Math.max(1, Number(value)), REVIEW_PAGES_MAX);
}

/**
 * The reviews of a shop product's page (spec §2, §4): the first page (or every page up to the
 * address's `page`) rendered on the server, the rating for the page and its JSON-LD, and whether
 * the visitor may write a review (a logged-in customer, named by their first name). The shop's
 * pages are private to the session already (the header's cart badge), so the customer's name may
 * stand in the page; so may whether they have reviewed it and whether that review waits for a
 * moderator (decision 148). Nothing on other sites, or for a gift card.
 */
export async function loadShopProductReviews(
  request: FastifyRequest,
  product: { id: number; code: string; name: string; isGiftCard: boolean },
): Promise<ProductReviewsWidget | undefined> {
  if (request.site.id !== SHOP_SITE_ID || product.isGiftCard) return undefined;
  const { db } = request.server;
  const [reviews, customerId] = await Promise.all([
    reviewsForProductPage(db, product, pageOfQuery(request)),
    sessionCustomerId(request.session),
  ]);
  const customer = customerId ? await customerAnswer(db, customerId) : null;
  // A customer who has reviewed the product is not offered the button again (one review each),
  // and is told where their review stands.
  const own = customerId ? await ownReviewState(db, customerId, product.code) : null;
  const back = requestPath(request);
  return {
    averageRating: reviews.averageRating,
    reviewCount: reviews.totalCount,
    element: (
      <Island
        name="shop-reviews"
        lang={request.locale.lang}
        hydrate="visible"
        props={{
          productId: product.id,
          productName: product.name,
          hits: reviews.hits,
          hasMore: reviews.hasMore,
          totalCount: reviews.totalCount,
          pages: reviews.pages,
          averageRating: reviews.averageRating,
          writer: customer?.loggedIn
            ? { firstName: customer.deliveryAddress.firstName, ...(own ? { reviewed: own } : {}) }
            : null,
          loginUrl: withReturn(ACCOUNT_PAGES.login, back),
        }}
      />
    ),
  };
}
