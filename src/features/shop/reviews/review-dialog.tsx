import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import shop from '../shop.module.css';
import { ReviewApiError, sendReview } from './api.ts';
import styles from './reviews.module.css';
import {
  RATING_MAX,
  REVIEW_TEXT_MAX,
  type Review,
  reviewPostSchema,
  USER_NAME_MAX,
} from './schemas.ts';

type Field = 'rating' | 'text' | 'userName';
const FIELDS: readonly Field[] = ['rating', 'text', 'userName'];

/** The field errors of a post, first per field, as message keys. */
function fieldErrors(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const errors: Partial<Record<Field, MessageKey>> = {};
  for (const issue of issues) {
    const field = issue.path[0] as Field;
    if (FIELDS.includes(field)) errors[field] ??= issue.message as MessageKey;
  }
  return errors;
}

/** What the refusal of the server says when it names no field. */
function failureOf(status: number, unverified: boolean): MessageKey {
  if (unverified) return 'review.error.verifyEmail';
  if (status === 409) return 'review.error.duplicate';
  if (status === 401) return 'review.error.login';
  return 'review.error';
}

interface ReviewFormProps {
  productId: number;
  productName: string;
  firstName: string;
  /** The review written, and whether it is listed now or waits for a moderator. */
  onPosted: (review: Review, state: 'pending' | 'published') => void;
  /** The server says the customer has reviewed the product already (another tab sent it). */
  onAlreadyReviewed?: () => void;
  onClose: () => void;
}

/**
 * The form's values and its posting: checked in the browser with the API's schema, then sent; a
 * failed submit keeps the values, names the fields (or why the server refused) and moves the focus
 * to the summary, and prefixes the page's title; a success moves it to the thank-you.
 */
function useReviewForm(props: ReviewFormProps) {
  const t = useT();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [userName, setUserName] = useState(props.firstName);
  const [errors, setErrors] = useState<Partial<Record<Field, MessageKey>>>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<'form' | 'sending' | 'done'>('form');
  const [waits, setWaits] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const thanks = useRef<HTMLHeadingElement>(null);
  const pageTitle = useRef<string | null>(null);
  const failed = Object.keys(errors).length > 0 || failure !== null;

  // A failed submit prefixes the page's title; closing or a success gives it back.
  useEffect(() => {
    if (typeof document === 'undefined') return;
    pageTitle.current ??= document.title;
    const base = pageTitle.current;
    document.title = failed && state !== 'done' ? t('review.errorTitle', { title: base }) : base;
  }, [failed, state, t]);
  useEffect(
    () => () => {
      if (pageTitle.current !== null) document.title = pageTitle.current;
    },
    [],
  );

  // Each failed submit moves the focus to the summary; a success to the thank-you.
  useEffect(() => {
    if (attempt > 0) summary.current?.focus();
  }, [attempt]);
  useEffect(() => {
    if (state === 'done') thanks.current?.focus();
  }, [state]);

  const refuse = (named: Partial<Record<Field, MessageKey>>, why: MessageKey | null) => {
    setErrors(named);
    setFailure(why);
    setAttempt((n) => n + 1);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state === 'sending') return;
    const body = { productId: props.productId, rating, text, userName };
    const checked = reviewPostSchema.safeParse(body);
    if (!checked.success) {
      refuse(fieldErrors(checked.error.issues), null);
      return;
    }
    setState('sending');
    try {
      const answer = await sendReview(body);
      setErrors({});
      setFailure(null);
      setWaits(answer.state === 'pending');
      setState('done');
      props.onPosted(answer.review, answer.state);
    } catch (error) {
      const status = error instanceof ReviewApiError ? error.status : 0;
      // The account's e-mail address is not verified: no field of the form to show it beside.
      const { email: unverified, ...fields } = error instanceof ReviewApiError ? error.errors : {};
      const named = fieldErrors(
        Object.entries(fields).map(([path, message]) => ({ path: [path], message })),
      );
      if (status === 409) props.onAlreadyReviewed?.();
      setState('form');
      refuse(named, Object.keys(named).length > 0 ? null : failureOf(status, Boolean(unverified)));
    }
  };

  return {
    values: { rating, text, userName },
    setRating,
    setText,
    setUserName,
    errors,
    failure,
    failed,
    attempt,
    state,
    waits,
    submit,
    summary,
    thanks,
  };
}

type ReviewForm = ReturnType<typeof useReviewForm>;

/** The ids of a field, its error and what describes it, under the dialog's own id. */
function fieldIds(id: string, errors: ReviewForm['errors']) {
  const field = (name: Field) => `${id}${name}`;
  const error = (name: Field) => `${id}${name}-error`;
  const describedBy = (name: Field, extra?: string) =>
    [extra, errors[name] ? error(name) : undefined].filter(Boolean).join(' ') || undefined;
  return { field, error, describedBy };
}

type Ids = ReturnType<typeof fieldIds>;

/**
 * The review dialog (spec §2, §4, §5, §8): a rating of 1–5 stars, the text (at most 500
 * characters, a counter under it) and the name shown with it, prefilled from the customer. A
 * failed submit lists the fields to fix in a summary that takes the focus, each field names its
 * error, the page title says 'Virhe' and what was typed stays; a refusal of the server says
 * 'Jokin meni vikaan' (or why). After a success, a thank-you, which says when the review waits
 * for a moderator before it is shown (decision 148). A React Aria dialog: the focus
 * stays inside, Escape closes it, the focus goes back to its button; closing it resets the form
 * (the next opening starts afresh).
 */
export function ReviewDialog(props: ReviewFormProps) {
  const t = useT();
  const id = useId();
  const form = useReviewForm(props);
  const ids = fieldIds(id, form.errors);
  return (
    <ModalOverlay
      className={shop.overlay}
      isOpen
      isKeyboardDismissDisabled={false}
      onOpenChange={(open) => {
        if (!open) props.onClose();
      }}
    >
      <Modal className={styles.modalFrame}>
        <Dialog className={shop.modal}>
          <button
            type="button"
            className={`${shop.popoverClose} ${shop.modalClose}`}
            aria-label={t('review.close')}
            onClick={props.onClose}
          >
            ×
          </button>
          {form.state === 'done' ? (
            <div className={styles.thanks}>
              <Heading slot="title" ref={form.thanks} tabIndex={-1} className={styles.modalTitle}>
                {t('review.thanks.title')}
              </Heading>
              <p>{form.waits ? t('review.thanks.pending') : t('review.thanks.text')}</p>
              <button
                type="button"
                className={`${shop.primary} ${styles.button}`}
                onClick={props.onClose}
              >
                {t('review.close')}
              </button>
            </div>
          ) : (
            <form noValidate onSubmit={form.submit} className={styles.form}>
              <Heading slot="title" className={styles.modalTitle}>
                {t('review.dialog.title', { name: props.productName })}
              </Heading>
              {form.attempt > 0 && form.failed ? (
                <ErrorSummary
                  form={form}
                  ids={ids}
                  summaryId={`${id}summary`}
                  ratingName={`${id}rating`}
                />
              ) : null}
              <RatingField form={form} ids={ids} name={`${id}rating`} />
              <TextFields form={form} ids={ids} />
              <div className={styles.actions}>
                <button
                  type="submit"
                  className={`${shop.primary} ${styles.button}`}
                  aria-disabled={form.state === 'sending' || undefined}
                >
                  {form.state === 'sending' ? t('review.sending') : t('review.submit')}
                </button>
                <button
                  type="button"
                  className={`${shop.secondary} ${styles.button}`}
                  onClick={props.onClose}
                >
                  {t('review.cancel')}
                </button>
              </div>
            </form>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

function useLabels(): Record<Field, string> {
  const t = useT();
  return {
    rating: t('review.field.rating'),
    text: t('review.field.text'),
    userName: t('review.field.userName'),
  };
}

/** Why the post was refused: the server's word, or each field's error with a link to the field. */
function ErrorSummary(props: {
  form: ReviewForm;
  ids: Ids;
  summaryId: string;
  /** The rating's radio group: its link focuses the chosen star, or the first. */
  ratingName: string;
}) {
  const t = useT();
  const labels = useLabels();
  const { form, ids } = props;
  const focusField = (field: Field) => {
    const target =
      field === 'rating'
        ? document.querySelector<HTMLInputElement>(
            `input[name="${props.ratingName}"]:checked, input[name="${props.ratingName}"]`,
          )
        : document.getElementById(ids.field(field));
    target?.focus();
  };
  return (
    <div
      ref={form.summary}
      className={styles.errorSummary}
      role="alert"
      tabIndex={-1}
      aria-labelledby={props.summaryId}
    >
      <h3 id={props.summaryId}>{form.failure ? t(form.failure) : t('review.summary.heading')}</h3>
      {form.failure ? null : (
        <ul>
          {FIELDS.filter((field) => form.errors[field]).map((field) => (
            <li key={field}>
              <a
                href={`#${ids.field(field)}`}
                onClick={(event) => {
                  event.preventDefault();
                  focusField(field);
                }}
              >
                {labels[field]}: {t(form.errors[field] as MessageKey)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A field's error under it, named by `aria-describedby`. */
function FieldError(props: { form: ReviewForm; ids: Ids; field: Field }) {
  const t = useT();
  const error = props.form.errors[props.field];
  return error ? (
    <p id={props.ids.error(props.field)} className={styles.error}>
      {t(error)}
    </p>
  ) : null;
}

/** The rating: five stars as radio buttons. */
function RatingField(props: { form: ReviewForm; ids: Ids; name: string }) {
  const t = useT();
  const labels = useLabels();
  const { form, ids } = props;
  const { rating } = form.values;
  return (
    <fieldset
      id={ids.field('rating')}
      className={styles.rating}
      aria-describedby={ids.describedBy('rating')}
    >
      <legend className={styles.label}>{labels.rating}</legend>
      <div className={styles.ratingOptions}>
        {Array.from({ length: RATING_MAX }, (_, i) => i + 1).map((stars) => (
          <label
            key={stars}
            className={`${styles.ratingOption} ${stars <= rating ? styles.ratingOn : ''}`}
          >
            <input
              type="radio"
              name={props.name}
              value={stars}
              checked={rating === stars}
              aria-invalid={form.errors.rating ? true : undefined}
              onChange={() => form.setRating(stars)}
            />
            <span aria-hidden="true" className={styles.ratingStar}>
              ★
            </span>
            <span className="visually-hidden">
              {stars === 1
                ? t('review.field.ratingOne')
                : t('review.field.ratingOption', { stars })}
            </span>
          </label>
        ))}
      </div>
      <FieldError form={form} ids={ids} field="rating" />
    </fieldset>
  );
}

/** The review's text with its counter, and the name shown with it. */
function TextFields(props: { form: ReviewForm; ids: Ids }) {
  const t = useT();
  const labels = useLabels();
  const { form, ids } = props;
  const { text, userName } = form.values;
  return (
    <>
      <div className={styles.field}>
        <label htmlFor={ids.field('text')} className={styles.label}>
          {labels.text}
        </label>
        <textarea
          id={ids.field('text')}
          className={styles.input}
          rows={6}
          maxLength={REVIEW_TEXT_MAX}
          value={text}
          aria-required
          aria-invalid={form.errors.text ? true : undefined}
          aria-describedby={ids.describedBy('text', `${ids.field('text')}-count`)}
          onChange={(event) => form.setText(event.target.value)}
        />
        <p id={`${ids.field('text')}-count`} className={styles.hint}>
          {t('form.remaining', {
            remaining: REVIEW_TEXT_MAX - text.length,
            max: REVIEW_TEXT_MAX,
          })}
        </p>
        <FieldError form={form} ids={ids} field="text" />
      </div>

      <div className={styles.field}>
        <label htmlFor={ids.field('userName')} className={styles.label}>
          {labels.userName}
        </label>
        <input
          id={ids.field('userName')}
          className={styles.input}
          type="text"
          autoComplete="nickname"
          maxLength={USER_NAME_MAX}
          value={userName}
          aria-required
          aria-invalid={form.errors.userName ? true : undefined}
          aria-describedby={ids.describedBy('userName', `${ids.field('userName')}-hint`)}
          onChange={(event) => form.setUserName(event.target.value)}
        />
        <p id={`${ids.field('userName')}-hint`} className={styles.hint}>
          {t('review.field.userNameHint')}
        </p>
        <FieldError form={form} ids={ids} field="userName" />
      </div>
    </>
  );
}
