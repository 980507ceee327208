import { type FormEvent, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import { useHydrated } from '../../render/use-hydrated.ts';
import {
  CART_ACTIONS,
  CART_FORM_PATH,
  type CartNotice,
  COUPON_FIELD,
  GIFT_CARD_FIELD,
  noticeText,
} from './cart-form.ts';
import {
  type CartFormProps,
  couponErrors,
  giftCardErrors,
  submitButton,
  XsrfField,
} from './cart-form-fields.tsx';
import checkoutStyles from './checkout/checkout.module.css';
import styles from './shop.module.css';

/**
 * The cart page's code boxes (the coupon box and the gift-card box, spec §4, §5, §8): a heading, a
 * labelled field with its button, what is entered as a list of chips each with its remove button,
 * and a polite announcement of what was done. What is checked and called is the box's own (its
 * `add` and `remove`); this part keeps what they share: busy while a call runs (one at a time),
 * the field keeps what was typed after a refusal and gets the focus with its error tied to it, a
 * removal puts the focus back in the field.
 *
 * Without script the box is a plain form posting to the cart page (decision 022): the add button
 * sends `addAction` with the field, a chip's button its `removeAction`. A refused post comes back
 * with the typed value and an error summary that takes the focus (the failed-submit pattern).
 */

/**
 * The two boxes: the plain form's field and add button, the texts (`<messages>.heading`, `.label`,
 * `.add`, `.busy`, `.applied`) and which refusals of a post's notice are the box's.
 */
const KINDS = {
  coupon: {
    field: COUPON_FIELD,
    addAction: CART_ACTIONS.addCoupon,
    messages: 'shop.couponBox',
    refusals: couponErrors,
  },
  giftCard: {
    field: GIFT_CARD_FIELD,
    addAction: CART_ACTIONS.addGiftCard,
    messages: 'shop.giftCardBox',
    refusals: giftCardErrors,
  },
} as const;

/** One thing entered: what its chip shows and how it is removed. */
export interface CodeEntryItem {
  key: string;
  label: string;
  /** The remove button's name. */
  removeLabel: string;
  /** The plain form's `action` of the remove button. */
  removeAction: string;
}

/** What an add or a remove came to: the announcement of what was done, or the refusal's text. */
export type CodeEntryOutcome = { done: string } | { refused: string };

export interface CodeEntryBoxProps {
  kind: keyof typeof KINDS;
  items: CodeEntryItem[];
  /** The plain form's anti-forgery token and the notice of its last post. */
  form: CartFormProps | undefined;
  /** The announcement of what the last post did, from its notice ('' for nothing). */
  done(notice: CartNotice): string;
  /** Checks and sends a typed code; a refusal keeps the typed value. */
  add(typed: string): Promise<CodeEntryOutcome>;
  remove(item: CodeEntryItem): Promise<CodeEntryOutcome>;
}

export function CodeEntryBox(props: CodeEntryBoxProps) {
  const t = useT();
  const id = useId();
  const kind = KINDS[props.kind];
  const { messages } = kind;
  const notice = props.form?.notice;
  const [refusal] = kind.refusals(notice);
  const refused = refusal ? noticeText(t, refusal) : null;
  const [code, setCode] = useState(refused ? (notice?.[props.kind] ?? '') : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(refused);
  // The summary of a refused plain-form post, until the field changes or is sent again.
  const [summary, setSummary] = useState(refused);
  const [done, setDone] = useState(() => (notice ? props.done(notice) : ''));
  const input = useRef<HTMLInputElement>(null);
  const running = useRef(false);

  const run = async (call: () => Promise<CodeEntryOutcome>, after: 'clear' | 'focus') => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    setSummary(null);
    try {
      const outcome = await call();
      if ('refused' in outcome) {
        setError(outcome.refused);
        setDone('');
        input.current?.focus();
      } else {
        setDone(outcome.done);
        if (after === 'clear') setCode('');
        else input.current?.focus();
      }
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void run(() => props.add(code), 'clear');
  };

  const fieldId = `${id}-code`;
  const errorId = `${id}-error`;
  const formId = `${id}-form`;
  return (
    <section className={styles.codeBox} aria-labelledby={`${id}-h`} data-box={props.kind}>
      <h2 id={`${id}-h`}>{t(`${messages}.heading`)}</h2>
      {summary ? <RefusalSummary id={id} fieldId={fieldId} summary={summary} /> : null}
      <form
        id={formId}
        method="post"
        action={CART_FORM_PATH}
        onSubmit={onSubmit}
        noValidate
        aria-busy={busy}
      >
        <XsrfField token={props.form?.token} />
        <label htmlFor={fieldId}>{t(`${messages}.label`)}</label>
        <div className={styles.inline}>
          <input
            ref={input}
            id={fieldId}
            name={kind.field}
            className={styles.textInput}
            value={code}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            readOnly={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setCode(event.target.value);
              setError(null);
              setSummary(null);
            }}
          />
          <button
            type="submit"
            name="action"
            value={kind.addAction}
            className={styles.secondary}
            aria-disabled={busy || undefined}
          >
            {t(busy ? `${messages}.busy` : `${messages}.add`)}
          </button>
        </div>
        <div aria-live="assertive">
          {error ? (
            <p id={errorId} className={styles.fieldError}>
              {error}
            </p>
          ) : null}
        </div>
      </form>
      <AppliedCodes
        items={props.items}
        label={t(`${messages}.applied`)}
        formId={formId}
        busy={busy}
        onRemove={(item) => void run(() => props.remove(item), 'focus')}
      />
      <p className="visually-hidden" role="status" aria-live="polite">
        {done}
      </p>
    </section>
  );
}

/** The summary of a refused plain-form post: it takes the focus on arrival and links the field. */
function RefusalSummary(props: { id: string; fieldId: string; summary: string }) {
  const t = useT();
  return (
    <div
      className={checkoutStyles.errorSummary}
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: a refused post's summary takes the focus on arrival (the failed-submit pattern), also without script
      autoFocus
      aria-labelledby={`${props.id}-summary`}
      data-error-summary
    >
      <p id={`${props.id}-summary`}>{t('shop.cart.errorSummary')}</p>
      <ul>
        <li>
          <a href={`#${props.fieldId}`}>{props.summary}</a>
        </li>
      </ul>
    </div>
  );
}

/** The codes or cards in the cart, each with its remove button (a plain-form submit too). */
function AppliedCodes(props: {
  items: CodeEntryItem[];
  label: string;
  formId: string;
  busy: boolean;
  onRemove: (item: CodeEntryItem) => void;
}) {
  const hydrated = useHydrated();
  if (props.items.length === 0) return null;
  return (
    <ul className={styles.codeChips} aria-label={props.label}>
      {props.items.map((item) => (
        <li key={item.key}>
          <span>{item.label}</span>
          <button
            {...submitButton(hydrated, item.removeAction)}
            form={props.formId}
            className={styles.removeButton}
            disabled={props.busy}
            onClick={() => props.onRemove(item)}
          >
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">{item.removeLabel}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
