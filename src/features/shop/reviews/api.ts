import { XSRF_HEADER, xsrfToken } from '../../../client/send.ts';
import type { ReviewPage, ReviewPost, ReviewPosted } from './schemas.ts';
import { REVIEW_API, REVIEW_PAGE_SIZE } from './values.ts';

/** The browser side of the review API (spec §7), with the anti-forgery header (decision 003). */

/** A refused call: its status and the message keys of the fields it names. */
export class ReviewApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: Record<string, string>,
  ) {
    super(`review API answered ${status}`);
  }
}

async function answerOf<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as { errors?: Record<string, string> };
  throw new ReviewApiError(response.status, body.errors ?? {});
}

/** One page of a product's reviews (9 by default), newest first. */
export async function fetchReviews(
  productId: number,
  page: number,
  pageSize = REVIEW_PAGE_SIZE,
): Promise<ReviewPage> {
  const query = new URLSearchParams({
    language: document.documentElement.lang || 'fi',
    page: String(page),
    pageSize: String(pageSize),
    productId: String(productId),
  });
  return answerOf<ReviewPage>(
    await fetch(`${REVIEW_API}?${query}`, { credentials: 'same-origin' }),
  );
}

export async function sendReview(review: ReviewPost): Promise<ReviewPosted> {
  return answerOf<ReviewPosted>(
    await fetch(REVIEW_API, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', [XSRF_HEADER]: xsrfToken() },
      body: JSON.stringify(review),
    }),
  );
}
