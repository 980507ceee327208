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

/**
 * The review dialog (spec §2, §4, §5, §8): a rating of 1–5 stars, the text (at most 500
 * characters, a counter under it) and the name shown with it, prefilled from the customer. A
 * failed submit lists the fields to fix in a summary that takes the focus, each field names its
 * error, the page title says 'Virhe' and what was typed stays; a refusal of the server says
 * 'Jokin meni vikaan' (or why). After a success, a thank-you. A React Aria dialog: the focus
 * stays inside, Escape closes it, the focus goes back to its button; closing it resets the form
 * (the next opening starts afresh).
 */
export function ReviewDialog(props: {
  productId: number;
  productName: string;
  firstName: string;
  onPosted: (review: Review) => void;
  /** The server says the customer has reviewed the product already (another tab sent it). */
  onAlreadyReviewed?: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const id = useId();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState('');
  const [userName, setUserName] = useState(props.firstName);
  const [errors, setErrors] = useState<Partial<Record<Field, MessageKey>>>({});
  const [failure, setFailure] = useState<MessageKey | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<'form' | 'sending' | 'done'>('form');
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

  const fieldId = (field: Field) => `${id}${field}`;
  const errorId = (field: Field) => `${id}${field}-error`;
  const labels: Record<Field, string> = {
    rating: t('review.field.rating'),
    text: t('review.field.text'),
    userName: t('review.field.userName'),
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state === 'sending') return;
    const body = { productId: props.productId, rating, text, userName };
    const checked = reviewPostSchema.safeParse(body);
    if (!checked.success) {
      setErrors(fieldErrors(checked.error.issues));
      setFailure(null);
      setAttempt((n) => n + 1);
      return;
    }
    setState('sending');
    try {
      const answer = await sendReview(body);
      setErrors({});
      setFailure(null);
      setState('done');
      props.onPosted(answer.review);
    } catch (error) {
      const status = error instanceof ReviewApiError ? error.status : 0;
      // The account's e-mail address is not verified: no field of the form to show it beside.
      const { email: unverified, ...fields } = error instanceof ReviewApiError ? error.errors : {};
      const named = fieldErrors(
        Object.entries(fields).map(([path, message]) => ({ path: [path], message })),
      );
      if (status === 409) props.onAlreadyReviewed?.();
      setErrors(named);
      setFailure(
        Object.keys(named).length > 0
          ? null
          : unverified
            ? 'review.error.verifyEmail'
            : status === 409
              ? 'review.error.duplicate'
              : status === 401
                ? 'review.error.login'
                : 'review.error',
      );
      setState('form');
      setAttempt((n) => n + 1);
    }
  };

  const focusField = (field: Field) => {
    const target =
      field === 'rating'
        ? document.querySelector<HTMLInputElement>(
            `input[name="${id}rating"]:checked, input[name="${id}rating"]`,
          )
        : document.getElementById(fieldId(field));
    target?.focus();
  };

  const describedBy = (field: Field, extra?: string) =>
    [extra, errors[field] ? errorId(field) : undefined].filter(Boolean).join(' ') || undefined;

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
          {state === 'done' ? (
            <div className={styles.thanks}>
              <Heading slot="title" ref={thanks} tabIndex={-1} className={styles.modalTitle}>
                {t('review.thanks.title')}
              </Heading>
              <p>{t('review.thanks.text')}</p>
              <button
                type="button"
                className={`${shop.primary} ${styles.button}`}
                onClick={props.onClose}
              >
                {t('review.close')}
              </button>
            </div>
          ) : (
            <form noValidate onSubmit={submit} className={styles.form}>
              <Heading slot="title" className={styles.modalTitle}>
                {t('review.dialog.title', { name: props.productName })}
              </Heading>
              {attempt > 0 && failed ? (
                <div
                  ref={summary}
                  className={styles.errorSummary}
                  role="alert"
                  tabIndex={-1}
                  aria-labelledby={`${id}summary`}
                >
                  <h3 id={`${id}summary`}>{failure ? t(failure) : t('review.summary.heading')}</h3>
                  {failure ? null : (
                    <ul>
                      {FIELDS.filter((field) => errors[field]).map((field) => (
                        <li key={field}>
                          <a
                            href={`#${fieldId(field)}`}
                            onClick={(event) => {
                              event.preventDefault();
                              focusField(field);
                            }}
                          >
                            {labels[field]}: {t(errors[field] as MessageKey)}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                </div>
              ) : null}

              <fieldset
                id={fieldId('rating')}
                className={styles.rating}
                aria-describedby={describedBy('rating')}
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
                        name={`${id}rating`}
                        value={stars}
                        checked={rating === stars}
                        aria-invalid={errors.rating ? true : undefined}
                        onChange={() => setRating(stars)}
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
                {errors.rating ? (
                  <p id={errorId('rating')} className={styles.error}>
                    {t(errors.rating)}
                  </p>
                ) : null}
              </fieldset>

              <div className={styles.field}>
                <label htmlFor={fieldId('text')} className={styles.label}>
                  {labels.text}
                </label>
                <textarea
                  id={fieldId('text')}
                  className={styles.input}
                  rows={6}
                  maxLength={REVIEW_TEXT_MAX}
                  value={text}
                  aria-required
                  aria-invalid={errors.text ? true : undefined}
                  aria-describedby={describedBy('text', `${id}text-count`)}
                  onChange={(event) => setText(event.target.value)}
                />
                <p id={`${id}text-count`} className={styles.hint}>
                  {t('form.remaining', {
                    remaining: REVIEW_TEXT_MAX - text.length,
                    max: REVIEW_TEXT_MAX,
                  })}
                </p>
                {errors.text ? (
                  <p id={errorId('text')} className={styles.error}>
                    {t(errors.text)}
                  </p>
                ) : null}
              </div>

              <div className={styles.field}>
                <label htmlFor={fieldId('userName')} className={styles.label}>
                  {labels.userName}
                </label>
                <input
                  id={fieldId('userName')}
                  className={styles.input}
                  type="text"
                  autoComplete="nickname"
                  maxLength={USER_NAME_MAX}
                  value={userName}
                  aria-required
                  aria-invalid={errors.userName ? true : undefined}
                  aria-describedby={describedBy('userName', `${id}userName-hint`)}
                  onChange={(event) => setUserName(event.target.value)}
                />
                <p id={`${id}userName-hint`} className={styles.hint}>
                  {t('review.field.userNameHint')}
                </p>
                {errors.userName ? (
                  <p id={errorId('userName')} className={styles.error}>
                    {t(errors.userName)}
                  </p>
                ) : null}
              </div>

              <div className={styles.actions}>
                <button
                  type="submit"
                  className={`${shop.primary} ${styles.button}`}
                  aria-disabled={state === 'sending' || undefined}
                >
                  {state === 'sending' ? t('review.sending') : t('review.submit')}
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
