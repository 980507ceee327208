import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { AppError, Conflict, NotFound } from '../../../server/errors.ts';
import { SHOP_SITE_ID } from '../../../sites/shop.ts';
import { products } from '../../content/index.server.ts';
import { mailboxKey } from '../customer/limit-keys.server.ts';
import { customers, orderLines, orders, productReviews, type ReviewState } from '../tables.ts';
import {
  REVIEW_PAGE_SIZE,
  REVIEW_PAGES_MAX,
  type Review,
  type ReviewInput,
  type ReviewPage,
} from './schemas.ts';

/**
 * Product reviews (shop spec §3, §4, §5, §7). A review belongs to the product's code, so the
 * product's language versions share them; one review per customer and code (a unique index), and
 * `isVerified` when the customer has a paid order with a line of that code. Only published reviews
 * are listed and counted in the rating (decision 148): under pre-moderation a new one waits for
 * staff, under post-moderation it is published at once.
 */

/** 401 problem: only a logged-in customer writes reviews. */
export class ReviewNeedsLogin extends AppError {
  constructor() {
    super(401, 'unauthorized', 'Not logged in', 'Log in to review a product.');
  }
}

/** The shop product a review's `productId` names (any language version), or 404. */
async function reviewedProduct(db: Database, productId: number) {
  const [row] = await db
    .select({ id: products.id, code: products.code, lang: products.lang })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.siteId, SHOP_SITE_ID)))
    .limit(1);
  if (!row) throw new NotFound(`No shop product has the id ${productId}.`);
  return row;
}

const reviewColumns = {
  id: productReviews.id,
  stars: productReviews.rating,
  text: productReviews.text,
  userName: productReviews.userName,
  isVerified: productReviews.isVerified,
};

/** The published reviews of a code: the only ones a shopper sees or the rating counts. */
const publishedOf = (code: string) =>
  and(
    eq(productReviews.siteId, SHOP_SITE_ID),
    eq(productReviews.code, code),
    eq(productReviews.state, 'published'),
  );

/** Newest first; the id breaks ties of one instant so pages never repeat or skip a review. */
async function reviewsOfCode(
  db: Database,
  code: string,
  offset: number,
  limit: number,
): Promise<Review[]> {
  return db
    .select(reviewColumns)
    .from(productReviews)
    .where(publishedOf(code))
    .orderBy(desc(productReviews.createdAt), desc(productReviews.id))
    .offset(offset)
    .limit(limit);
}

/**
 * How many published reviews a code has and their average rating (null without any), one
 * decimal. The product detail, the product page and its JSON-LD all take the rating from here.
 */
export async function ratingOfCode(
  db: Database,
  code: string,
): Promise<{ averageRating: number | null; reviewCount: number }> {
  const [row] = await db
    .select({
      reviewCount: count(),
      average: sql<string | null>`round(avg(${productReviews.rating}), 1)`,
    })
    .from(productReviews)
    .where(publishedOf(code));
  const reviewCount = Number(row?.reviewCount ?? 0);
  return {
    averageRating: reviewCount > 0 && row?.average != null ? Number(row.average) : null,
    reviewCount,
  };
}

/** `GET /api/review/lihakauppa/`: one page of a product's reviews, newest first. */
export async function reviewPage(
  db: Database,
  query: { productId: number; page: number; pageSize: number },
): Promise<ReviewPage> {
  const product = await reviewedProduct(db, query.productId);
  return pageOfCode(db, product.id, product.code, query.page, query.pageSize);
}

async function pageOfCode(
  db: Database,
  productId: number,
  code: string,
  page: number,
  pageSize: number,
  pages = 1,
): Promise<ReviewPage> {
  const offset = (page - 1) * pageSize;
  const [hits, { reviewCount }] = await Promise.all([
    reviewsOfCode(db, code, offset, pageSize * pages),
    ratingOfCode(db, code),
  ]);
  return {
    hits,
    hasMore: offset + hits.length < reviewCount,
    totalCount: reviewCount,
    productId,
  };
}

/**
 * What a product page shows when opened with `page` (spec §4: above 1, every page up to it,
 * concatenated; at most `REVIEW_PAGES_MAX`), with the product's rating.
 */
export async function reviewsForProductPage(
  db: Database,
  product: { id: number; code: string },
  page: number,
): Promise<ReviewPage & { pages: number; averageRating: number | null }> {
  const pages = Math.min(Math.max(1, Math.trunc(page) || 1), REVIEW_PAGES_MAX);
  const [list, rating] = await Promise.all([
    pageOfCode(db, product.id, product.code, 1, REVIEW_PAGE_SIZE, pages),
    ratingOfCode(db, product.code),
  ]);
  return { ...list, pages, averageRating: rating.averageRating };
}

/** Whether the customer has a paid order with a line of the code. */
async function boughtCode(db: Database, customerId: string, code: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(orders)
    .innerJoin(orderLines, eq(orderLines.orderId, orders.id))
    .where(
      and(
        eq(orders.siteId, SHOP_SITE_ID),
        eq(orders.customerId, customerId),
        eq(orders.status, 'paid'),
        eq(orderLines.code, code),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * The state of the customer's review of the product's code, or null when they have not written
 * one (one review each): the product page tells its author that it waits or was not published.
 */
export async function ownReviewState(
  db: Database,
  customerId: string,
  code: string,
): Promise<ReviewState | null> {
  const [row] = await db
    .select({ state: productReviews.state })
    .from(productReviews)
    .where(
      and(
        eq(productReviews.siteId, SHOP_SITE_ID),
        eq(productReviews.code, code),
        eq(productReviews.customerId, customerId),
      ),
    )
    .limit(1);
  return row?.state ?? null;
}

/**
 * 403 problem: reviews count from customers who proved their address only (decision 082); the
 * refusal names `email`, and the mailed link (or a new one from 'Oma tili') verifies it.
 */
export class ReviewNeedsVerifiedEmail extends AppError {
  constructor() {
    super(
      403,
      'email-unverified',
      'E-mail address not verified',
      'Verify your e-mail address to review products.',
      { errors: { email: 'review.error.verifyEmail' } },
    );
  }
}

/** 409 problem: the customer has reviewed the product (any of its language versions) already. */
export class AlreadyReviewed extends Conflict {
  constructor() {
    super('You have already reviewed this product.');
  }
}

/**
 * `POST /api/review/lihakauppa/`: the customer's review of a product. Only a customer whose
 * e-mail address is verified writes one (403 otherwise, decision 082). The text is stored as the
 * plain text typed (trimmed); unique indexes on (site, code, customer) and (site, code, mailbox
 * key) keep one review per account and per mailbox even when posts race: a second insert does
 * nothing and answers 409. Under pre-moderation the review is `pending` (shown nowhere until staff
 * approve it), under post-moderation `published` at once (decision 148).
 */
export async function postReview(
  db: Database,
  input: {
    customerId: string;
    body: ReviewInput;
    limitKeySecret: string;
    moderation: 'pre' | 'post';
  },
): Promise<{ review: Review; state: 'pending' | 'published' }> {
  const { body } = input;
  const product = await reviewedProduct(db, body.productId);
  const [customer] = await db
    .select({ id: customers.id, email: customers.email, verifiedAt: customers.emailVerifiedAt })
    .from(customers)
    .where(eq(customers.id, input.customerId));
  if (!customer) throw new ReviewNeedsLogin();
  if (!customer.verifiedAt) throw new ReviewNeedsVerifiedEmail();
  const isVerified = await boughtCode(db, input.customerId, product.code);
  const [row] = await db
    .insert(productReviews)
    .values({
      siteId: SHOP_SITE_ID,
      productId: product.id,
      code: product.code,
      customerId: input.customerId,
      language: product.lang,
      userName: body.userName,
      rating: body.rating,
      text: body.text,
      isVerified,
      reviewerKey: mailboxKey(input.limitKeySecret, customer.email),
      state: input.moderation === 'pre' ? 'pending' : 'published',
    })
    // Either unique index: the account's or the mailbox's review of the code.
    .onConflictDoNothing()
    .returning({ ...reviewColumns, state: productReviews.state });
  if (!row) throw new AlreadyReviewed();
  const { state, ...review } = row;
  return { review, state: state === 'published' ? 'published' : 'pending' };
}
