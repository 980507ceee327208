import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { formatNumber } from '../../../i18n/format.ts';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import shop from '../shop.module.css';
import type { ReviewState } from '../statuses.ts';
import { fetchReviews } from './api.ts';
import styles from './reviews.module.css';
import type { Review } from './schemas.ts';
import { RATING_MAX, REVIEW_PAGE_SIZE, REVIEW_TRUNCATE_AT } from './values.ts';

const loadDialog = () => import('./review-dialog.tsx');
const ReviewDialog = lazy(() => loadDialog().then((m) => ({ default: m.ReviewDialog })));

/** What the product page hands the island (`reviewsWidget` in widgets.server.tsx). */
export interface ProductReviewsProps {
  productId: number;
  productName: string;
  hits: Review[];
  hasMore: boolean;
  totalCount: number;
  /** Pages shown: the product page opened with `page` shows every page up to it (spec §4). */
  pages: number;
  averageRating: number | null;
  /**
   * The logged-in customer's first name (may be empty) and, when they have reviewed the product
   * already, their review's state (then there is no button: one review each); null for a visitor.
   */
  writer: { firstName: string; reviewed?: ReviewState } | null;
  /** The login page, coming back to this product. */
  loginUrl: string;
}

/** Stars as a picture with its text alternative ('Arvosana 4/5'). */
export function Stars(props: { value: number; label: string }) {
  const full = Math.round(props.value);
  return (
    <span className={styles.stars} role="img" aria-label={props.label}>
      <span aria-hidden="true">{'★'.repeat(full)}</span>
      <span aria-hidden="true" className={styles.starsEmpty}>
        {'★'.repeat(Math.max(0, RATING_MAX - full))}
      </span>
    </span>
  );
}

/** The first 170 characters, cut back to a word's end when one is near, with an ellipsis. */
function truncated(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= REVIEW_TRUNCATE_AT) return text;
  const cut = chars.slice(0, REVIEW_TRUNCATE_AT).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > REVIEW_TRUNCATE_AT - 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function ReviewItem(props: { review: Review }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const textId = useId();
  const { review } = props;
  const long = Array.from(review.text).length > REVIEW_TRUNCATE_AT;
  return (
    <li className={styles.item} data-review={review.id} tabIndex={-1}>
      <Stars value={review.stars} label={t('review.stars', { stars: review.stars })} />
      {/* Plain text: React escapes it; a review never becomes markup. */}
      <p id={textId} className={styles.text}>
        {long && !open ? truncated(review.text) : review.text}
      </p>
      {long ? (
        <button
          type="button"
          className={styles.more}
          aria-expanded={open}
          aria-controls={textId}
          onClick={() => setOpen(!open)}
        >
          {open ? t('review.showLess') : t('review.continue')}
        </button>
      ) : null}
      <p className={styles.author}>
        <span>{review.userName}</span>
        {review.isVerified ? <span className={styles.verified}>{t('review.verified')}</span> : null}
      </p>
    </li>
  );
}

/**
 * The reviews shown, and 'load more': the next page is added, the focus goes to its first review
 * and the address gets `page` (so a reload shows the same). A review just written goes first.
 */
function useReviewPages(props: ProductReviewsProps) {
  const [hits, setHits] = useState(props.hits);
  const [hasMore, setHasMore] = useState(props.hasMore);
  const [totalCount, setTotalCount] = useState(props.totalCount);
  const [pages, setPages] = useState(props.pages);
  const [loading, setLoading] = useState(false);
  const [status, setStatus] = useState<'idle' | 'loaded' | 'error'>('idle');
  /** The first review a 'load more' added: the focus goes there, once per load. */
  const [firstNew, setFirstNew] = useState<{ id: number } | null>(null);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!firstNew) return;
    list.current?.querySelector<HTMLElement>(`[data-review="${firstNew.id}"]`)?.focus();
  }, [firstNew]);

  const loadMore = async () => {
    if (loading) return;
    setLoading(true);
    try {
      const next = pages + 1;
      const page = await fetchReviews(props.productId, next, REVIEW_PAGE_SIZE);
      // A review written since the first page moved the pages on by one: skip what is shown.
      const shown = new Set(hits.map((h) => h.id));
      const added = page.hits.filter((h) => !shown.has(h.id));
      setFirstNew(added[0] ? { id: added[0].id } : null);
      setHits([...hits, ...added]);
      setHasMore(page.hasMore);
      setTotalCount(page.totalCount);
      setPages(next);
      setStatus('loaded');
      const url = new URL(window.location.href);
      url.searchParams.set('page', String(next));
      url.hash = 'reviews';
      window.history.replaceState(window.history.state, '', url);
    } catch {
      setStatus('error');
    } finally {
      setLoading(false);
    }
  };

  const prepend = (review: Review) => {
    setHits((shown) => [review, ...shown.filter((h) => h.id !== review.id)]);
    setTotalCount((count) => count + 1);
  };

  return { hits, hasMore, totalCount, pages, loading, status, list, loadMore, prepend };
}

/**
 * The product's reviews (spec §2, §4, §5, §8): 9 at a time, newest first, 'load more' by page;
 * a text over 170 characters is cut with 'continue reading'. A logged-in customer writes a review
 * in a dialog (the spec's "user name": the customer's first name, prefilled); a visitor gets a
 * link to log in. Without JavaScript, 'load more' is a link to the page with `page` one higher.
 */
export function ProductReviews(props: ProductReviewsProps) {
  const t = useT();
  const lang = useLang();
  const headingId = useId();
  const reviews = useReviewPages(props);
  const { hits, totalCount, status } = reviews;
  const average = props.averageRating;
  return (
    <section id="reviews" className={styles.reviews} aria-labelledby={headingId}>
      <h2 id={headingId}>{t('review.heading')}</h2>
      {average !== null && props.totalCount > 0 ? (
        <p className={styles.summary}>
          <Stars
            value={average}
            label={t('review.average', { average: formatNumber(average, lang) })}
          />
          <span aria-hidden="true">{formatNumber(average, lang)} / 5</span>
          <span>
            {totalCount === 1 ? t('review.countOne') : t('review.count', { count: totalCount })}
          </span>
        </p>
      ) : null}
      <WriteReview props={props} onPosted={reviews.prepend} />
      {hits.length === 0 ? <p>{t('review.empty')}</p> : null}
      <ul className={styles.list} ref={reviews.list}>
        {hits.map((review) => (
          <ReviewItem key={review.id} review={review} />
        ))}
      </ul>
      <p role="status" className={status === 'error' ? styles.error : styles.status}>
        {status === 'error'
          ? t('review.error')
          : status === 'loaded'
            ? t('review.shown', { shown: hits.length, total: totalCount })
            : ''}
      </p>
      {reviews.hasMore ? (
        <a
          className={`${shop.secondary} ${styles.button}`}
          href={`?page=${reviews.pages + 1}#reviews`}
          aria-disabled={reviews.loading || undefined}
          onClick={(event) => {
            event.preventDefault();
            void reviews.loadMore();
          }}
        >
          {t('review.loadMore')}
        </a>
      ) : null}
    </section>
  );
}

/**
 * The customer's own review: its state, or `written` when another tab sent it and the server
 * only said so (409).
 */
type OwnReview = ReviewState | 'written';

/** What the customer is told in place of the button, by where their review stands. */
const OWN_REVIEW_TEXT: Record<OwnReview, MessageKey> = {
  published: 'review.reviewed',
  written: 'review.reviewed',
  pending: 'review.reviewedPending',
  rejected: 'review.reviewedRejected',
};

/**
 * 'Kirjoita arvostelu' and its dialog for a logged-in customer, or the way to log in. Once the
 * review is sent (or was sent before) the button gives way to a thank-you, which says when the
 * review waits for a moderator: one review each.
 */
function WriteReview(props: { props: ProductReviewsProps; onPosted: (review: Review) => void }) {
  const t = useT();
  const { writer, productId, productName, loginUrl } = props.props;
  const [writing, setWriting] = useState(false);
  const [own, setOwn] = useState<OwnReview | null>(writer?.reviewed ?? null);
  const reviewed = own !== null;
  const trigger = useRef<HTMLButtonElement>(null);
  const reviewedText = useRef<HTMLParagraphElement>(null);
  const wasWriting = useRef(false);

  useEffect(() => {
    // React Aria gives the focus back to what had it when the dialog opened; a browser that does
    // not focus a clicked button (Safari) had none, so the button takes it. Once the review is
    // sent the button is gone, and the text that took its place takes the focus.
    const target = reviewed ? reviewedText.current : trigger.current;
    if (wasWriting.current && !writing && target !== document.activeElement) target?.focus();
    wasWriting.current = writing;
  }, [writing, reviewed]);

  return (
    <>
      <div className={styles.write}>
        {writer && reviewed && !writing ? (
          <p ref={reviewedText} tabIndex={-1} className={styles.reviewed} data-reviewed={own}>
            {t(OWN_REVIEW_TEXT[own ?? 'written'])}
          </p>
        ) : writer ? (
          <button
            ref={trigger}
            type="button"
            className={`${shop.primary} ${styles.button}`}
            aria-haspopup="dialog"
            aria-expanded={writing}
            onPointerEnter={() => void loadDialog()}
            onFocus={() => void loadDialog()}
            onClick={() => setWriting(true)}
          >
            {t('review.write')}
          </button>
        ) : (
          <a className={`${shop.secondary} ${styles.button}`} href={loginUrl}>
            {t('review.loginToWrite')}
          </a>
        )}
      </div>
      {writing && writer ? (
        <Suspense fallback={null}>
          <ReviewDialog
            productId={productId}
            productName={productName}
            firstName={writer.firstName}
            onPosted={(review, state) => {
              // A review that waits for a moderator is not listed yet.
              if (state === 'published') props.onPosted(review);
              setOwn(state);
            }}
            onAlreadyReviewed={() => setOwn((now) => now ?? 'written')}
            onClose={() => setWriting(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
