import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Database, Transaction } from '../../../db/client.ts';
import { siteHomeUrl } from '../../../render/render-page.tsx';
import { AppError, Forbidden, NotFound } from '../../../server/errors.ts';
import { products } from '../../content/index.server.ts';
import { actorOf, recordAudit, scopeWhere, staffMembers } from '../../staff/index.server.ts';
import { can } from '../../staff/index.ts';
import { productReviews, REVIEW_STATES, type ReviewState } from '../tables.ts';
import type { ReviewRow, ReviewsList } from './reviews-schemas.ts';

/**
 * Review moderation (decision 148): the queue of the reviews in the staff member's grants by
 * state, and approving or rejecting one. A change is made from the state the moderator saw: the
 * review's row is locked, a review already in the asked state is left as it is (a repeat writes
 * nothing), one that someone moved elsewhere meanwhile answers 409. The change and its audit row
 * are one transaction. Only published reviews show on the shop's pages and count in a product's
 * rating, so approving and rejecting are what change them.
 */

const PAGE_SIZE = 50;

function signedIn(request: FastifyRequest) {
  const staff = request.staff;
  if (!staff) throw new Forbidden();
  return staff;
}

/** The reviews the staff member may moderate: their grants' sites and languages. */
const inScope = (request: FastifyRequest): SQL =>
  scopeWhere(signedIn(request).grants, 'reviews.moderate', {
    site: productReviews.siteId,
    lang: productReviews.language,
  });

const rowColumns = {
  review: productReviews,
  productName: products.name,
  productPath: products.path,
  moderatorName: staffMembers.name,
};

type Joined = {
  review: typeof productReviews.$inferSelect;
  productName: string | null;
  productPath: string | null;
  moderatorName: string | null;
};

/** A review with its product and moderator, as the queue shows it. */
function joined(db: Database | Transaction) {
  return db
    .select(rowColumns)
    .from(productReviews)
    .leftJoin(products, eq(products.id, productReviews.productId))
    .leftJoin(staffMembers, eq(staffMembers.id, productReviews.moderatedBy));
}

function rowOf(request: FastifyRequest, r: Joined): ReviewRow {
  const { review } = r;
  return {
    id: review.id,
    siteId: review.siteId,
    lang: review.language,
    productId: review.productId,
    code: review.code,
    productName: r.productName,
    productUrl: r.productPath
      ? new URL(r.productPath, siteHomeUrl(request, review.siteId)).href
      : null,
    stars: review.rating,
    text: review.text,
    userName: review.userName,
    isVerified: review.isVerified,
    createdAt: review.createdAt.toISOString(),
    state: review.state,
    rejectionReason: review.rejectionReason,
    moderatedAt: review.moderatedAt?.toISOString() ?? null,
    moderatedBy: r.moderatorName,
  };
}

/**
 * One page (50) of the reviews of a state in the staff member's grants: the waiting ones oldest
 * first (a queue), the decided ones last decided first; with the count of each state.
 */
export async function listReviews(
  request: FastifyRequest,
  query: { state: ReviewState; offset: number },
): Promise<ReviewsList> {
  const db = request.server.db;
  const scope = inScope(request);
  const order =
    query.state === 'pending'
      ? [asc(productReviews.createdAt), asc(productReviews.id)]
      : [
          sql`${productReviews.moderatedAt} desc nulls last`,
          desc(productReviews.createdAt),
          desc(productReviews.id),
        ];
  const [rows, byState] = await Promise.all([
    joined(db)
      .where(and(scope, eq(productReviews.state, query.state)))
      .orderBy(...order)
      .limit(PAGE_SIZE)
      .offset(query.offset),
    db
      .select({ state: productReviews.state, n: count() })
      .from(productReviews)
      .where(scope)
      .groupBy(productReviews.state),
  ]);
  const counts = Object.fromEntries(
    REVIEW_STATES.map((state) => [state, Number(byState.find((s) => s.state === state)?.n ?? 0)]),
  ) as ReviewsList['counts'];
  return {
    reviews: rows.map((r) => rowOf(request, r)),
    total: counts[query.state],
    counts,
    moderation: request.server.config.reviewModeration,
  };
}

/**
 * 409 problem: someone moved the review to another state since the moderator saw it; the
 * answer names the state it is in now.
 */
export class ReviewMoved extends AppError {
  constructor(state: ReviewState) {
    super(
      409,
      'conflict',
      'Conflict',
      `The review is ${state} now: someone moderated it meanwhile. Read it again.`,
      { state },
    );
  }
}

/**
 * Moves a review from `from` (what the moderator saw) to published, or to rejected with a
 * reason. The review's row is locked for the change; the grants are checked for its own site and
 * language (403). Already at the target: nothing is written and it answers as it is.
 */
export async function moderateReview(
  request: FastifyRequest,
  id: number,
  change: { from: ReviewState } & ({ to: 'published' } | { to: 'rejected'; reason: string }),
): Promise<ReviewRow> {
  const staff = signedIn(request);
  const db = request.server.db;
  await db.transaction(async (tx) => {
    const [review] = await tx
      .select()
      .from(productReviews)
      .where(eq(productReviews.id, id))
      .for('update');
    if (!review) throw new NotFound('No such review.');
    if (!can(staff.grants, 'reviews.moderate', { siteId: review.siteId, lang: review.language })) {
      throw new Forbidden(
        `This needs the permission reviews.moderate for ${review.siteId}/${review.language}.`,
      );
    }
    if (review.state === change.to) return;
    if (review.state !== change.from) throw new ReviewMoved(review.state);
    const reason = change.to === 'rejected' ? change.reason : null;
    await tx
      .update(productReviews)
      .set({
        state: change.to,
        rejectionReason: reason,
        moderatedAt: sql`now()`,
        moderatedBy: staff.staffId,
      })
      .where(eq(productReviews.id, id));
    await recordAudit(tx, actorOf(request), {
      action: change.to === 'published' ? 'review.approve' : 'review.reject',
      subjectType: 'review',
      subjectId: String(id),
      siteId: review.siteId,
      lang: review.language,
      changes: {
        state: { before: review.state, after: change.to },
        ...(reason === null ? {} : { reason: { after: reason } }),
      },
    });
  });
  const [row] = await joined(db).where(eq(productReviews.id, id));
  if (!row) throw new NotFound('No such review.');
  return rowOf(request, row);
}
