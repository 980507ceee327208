import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import type {
  ReviewApprove,
  ReviewReject,
  ReviewRow,
  ReviewState,
  REVIEWS_API as ReviewsApi,
  ReviewsList,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceRadios,
  DialogActions,
  DialogButton,
  ErrorSummary,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { formErrors, ListPages, offsetOf, type Said, SaidText } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const REVIEWS_API: typeof ReviewsApi = '/api/admin/reviews';

const STATES: Record<ReviewState, null> = { pending: null, published: null, rejected: null };
const states = Object.keys(STATES) as ReviewState[];
const stateOf = (params: URLSearchParams): ReviewState => {
  const asked = params.get('state');
  return states.find((s) => s === asked) ?? 'pending';
};

/** What a moderator does to one review: approve (publish) or reject with a reason. */
type Moderate = (review: ReviewRow, change: ReviewApprove | ReviewReject) => Promise<void>;

/**
 * The shop's reviews for moderation (decision 148): the waiting ones first, oldest first, each
 * with its product, stars, text, author, the verified-purchase mark and when it was written;
 * approved with a button, rejected in a dialog that asks for the reason. A change names the
 * state the moderator saw: one that someone else decided meanwhile is said in an alert and the
 * list is read again. After a decision the focus goes to the next review in the list.
 */
export function ReviewsScreen() {
  const { t } = useT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = stateOf(params);
  const offset = offsetOf(params);
  const query = new URLSearchParams({ state });
  if (offset) query.set('offset', String(offset));
  const list = useQuery({
    queryKey: ['reviews', query.toString()],
    queryFn: () => get<ReviewsList>(`${REVIEWS_API}?${query}`),
    placeholderData: keepPreviousData,
  });
  const [said, setSaid] = useState<Said>(null);
  const [error, setError] = useState<unknown>(null);
  /** Where the focus goes once the list is read again after a decision: that place in it. */
  const [focusAt, setFocusAt] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const reviews = list.data?.reviews;
  useEffect(() => {
    if (focusAt === null || !reviews || list.isFetching) return;
    const items = listRef.current?.querySelectorAll<HTMLElement>('[data-review]');
    const target = items?.[Math.min(focusAt, (items?.length ?? 1) - 1)] ?? headingRef.current;
    target?.focus();
    setFocusAt(null);
  }, [focusAt, reviews, list.isFetching]);

  const moderate: Moderate = async (review, change) => {
    setSaid(null);
    setError(null);
    const product = review.productName ?? review.code;
    const approving = !('reason' in change);
    const index = reviews?.findIndex((r) => r.id === review.id) ?? 0;
    try {
      await post<ReviewRow>(
        `${REVIEWS_API}/${review.id}/${approving ? 'approve' : 'reject'}`,
        change,
      );
      setSaid({
        text: t(approving ? 'admin.reviews.didApprove' : 'admin.reviews.didReject', { product }),
        alert: false,
      });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
      // The answer names the state someone else moved it to.
      const moved = states.find((s) => s === e.problem.state) ?? review.state;
      setSaid({
        text: t('admin.reviews.moved', { state: t(`admin.reviews.stateName.${moved}`) }),
        alert: true,
      });
    }
    await client.invalidateQueries({ queryKey: ['reviews'] });
    setFocusAt(Math.max(0, index));
  };

  const counts = list.data?.counts;
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.reviews.heading')}</Heading>
      {list.data ? (
        <p>
          {t(list.data.moderation === 'pre' ? 'admin.reviews.leadPre' : 'admin.reviews.leadPost')}
        </p>
      ) : null}
      <ChoiceRadios
        label={t('admin.reviews.filter')}
        options={states.map((s) => [
          s,
          t(`admin.reviews.filter.${s}`, { count: counts?.[s] ?? 0 }),
        ])}
        value={state}
        onChange={(next) => {
          setSaid(null);
          setParams(next === 'pending' ? {} : { state: next });
        }}
      />
      <SaidText said={said} />
      <ErrorSummary error={error} />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <section aria-labelledby={headingId}>
        <Heading level={2} id={headingId} ref={headingRef} tabIndex={-1}>
          {t(`admin.reviews.listHeading.${state}`)}
        </Heading>
        {reviews && reviews.length === 0 ? <p>{t(`admin.reviews.empty.${state}`)}</p> : null}
        <ul ref={listRef} className={styles.plainList}>
          {reviews?.map((review) => (
            <ReviewItem
              key={review.id}
              review={review}
              onModerate={async (r, change) => {
                try {
                  await moderate(r, change);
                } catch (e) {
                  setError(e);
                }
              }}
            />
          ))}
        </ul>
      </section>
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

/** Stars as a picture with its text alternative ('Arvosana 4/5'). */
function Stars({ value }: { value: number }) {
  const { t } = useT();
  return (
    <span
      role="img"
      aria-label={t('admin.reviews.stars', { stars: value })}
      className={styles.stars}
    >
      <span aria-hidden="true">{'★'.repeat(value)}</span>
      <span aria-hidden="true" className={styles.starsEmpty}>
        {'★'.repeat(Math.max(0, 5 - value))}
      </span>
    </span>
  );
}

function ReviewItem({ review, onModerate }: { review: ReviewRow; onModerate: Moderate }) {
  const { t, dateTime } = useT();
  const headingId = useId();
  const product = review.productName ?? t('admin.reviews.productGone');
  const names = { name: review.userName, product };
  return (
    <li data-review={review.id} tabIndex={-1} aria-labelledby={headingId} className={styles.card}>
      <Heading level={3} id={headingId} className={styles.reviewProduct}>
        {review.productUrl ? <a href={review.productUrl}>{product}</a> : product}{' '}
        <span className={styles.muted}>{t('admin.reviews.code', { code: review.code })}</span>
      </Heading>
      <Stars value={review.stars} />
      {/* Plain text as the shopper wrote it: React escapes it. */}
      <p className={styles.quote}>{review.text}</p>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.reviews.author')}</dt>
          <dd>{review.userName}</dd>
        </div>
        <div>
          <dt>{t('admin.reviews.purchase')}</dt>
          <dd>
            {review.isVerified ? (
              <span className={styles.verified}>{t('admin.reviews.verified')}</span>
            ) : (
              t('admin.reviews.notVerified')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('admin.reviews.written')}</dt>
          <dd>{dateTime(review.createdAt)}</dd>
        </div>
        {review.moderatedAt ? (
          <div>
            <dt>{t('admin.reviews.decided')}</dt>
            <dd>
              {t('admin.reviews.decidedBy', {
                name: review.moderatedBy ?? '–',
                date: dateTime(review.moderatedAt),
              })}
            </dd>
          </div>
        ) : null}
        {review.rejectionReason ? (
          <div>
            <dt>{t('admin.reviews.reason')}</dt>
            <dd>{review.rejectionReason}</dd>
          </div>
        ) : null}
      </dl>
      <div className={styles.actions}>
        {review.state === 'published' ? null : (
          <Button
            className={styles.primary}
            aria-label={t(
              review.state === 'pending'
                ? 'admin.reviews.approveLabel'
                : 'admin.reviews.publishLabel',
              names,
            )}
            onPress={() =>
              void onModerate(review, { from: review.state === 'pending' ? 'pending' : 'rejected' })
            }
          >
            {t(review.state === 'pending' ? 'admin.reviews.approve' : 'admin.reviews.publish')}
          </Button>
        )}
        {review.state === 'rejected' ? null : (
          <RejectDialog review={review} onModerate={onModerate} />
        )}
      </div>
    </li>
  );
}

function RejectDialog({ review, onModerate }: { review: ReviewRow; onModerate: Moderate }) {
  const { t } = useT();
  const product = review.productName ?? t('admin.reviews.productGone');
  return (
    <DialogButton
      label={t('admin.reviews.reject')}
      ariaLabel={t('admin.reviews.rejectLabel', { name: review.userName, product })}
    >
      {(close) => <RejectForm review={review} close={close} onModerate={onModerate} />}
    </DialogButton>
  );
}

function RejectForm({
  review,
  close,
  onModerate,
}: {
  review: ReviewRow;
  close: () => void;
  onModerate: Moderate;
}) {
  const { t } = useT();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const product = review.productName ?? t('admin.reviews.productGone');
  return (
    <>
      <Heading slot="title">{t('admin.reviews.rejectHeading', { product })}</Heading>
      <p>{t('admin.reviews.rejectLead')}</p>
      <p className={`${styles.quote} ${styles.dialogQuote}`}>{review.text}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
          if (!reason) {
            setError(formErrors({ reason: 'admin.error.required' }));
            return;
          }
          setPending(true);
          setError(null);
          try {
            const from = review.state === 'published' ? 'published' : 'pending';
            close();
            await onModerate(review, { from, reason });
          } finally {
            setPending(false);
          }
        }}
      >
        <TextAreaField
          name="reason"
          label={t('admin.reviews.reason')}
          description={t('admin.reviews.reasonHint')}
          rows={3}
          maxLength={500}
          isRequired
          autoFocus
        />
        <DialogActions
          confirm={t('admin.reviews.rejectConfirm')}
          cancel={t('admin.reviews.cancel')}
          close={close}
          danger
        />
      </AdminForm>
    </>
  );
}
