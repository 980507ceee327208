import { type FormEvent, useId, useRef, useState } from 'react';
import type { MessageKey } from '../../i18n/fi.ts';
import { useT } from '../../i18n/react.tsx';
import { addCouponCode, removeCouponCode, ShopApiError } from './api.ts';
import { CART_FORM_PATH } from './cart-form.ts';
import {
  type CartFormProps,
  couponErrors,
  submitButton,
  useHydrated,
  XsrfField,
} from './cart-form-fields.tsx';
import type { Cart } from './schemas.ts';
import styles from './shop.module.css';
import { COUPON_ERRORS, normaliseCouponCode } from './values.ts';

const couponMessages = new Set<string>(Object.values(COUPON_ERRORS));

/** The text of a refusal: the API's message key for the code field, else the general one. */
function refusalOf(error: unknown): { key: MessageKey; amount?: string } {
  if (error instanceof ShopApiError && error.fieldError && couponMessages.has(error.fieldError)) {
    // The minimum-order refusal names its amount in `minOrder` (coupons.server.ts).
    const amount = error.body.minOrder;
    return {
      key: error.fieldError as MessageKey,
      ...(typeof amount === 'string' || typeof amount === 'number'
        ? { amount: String(amount) }
        : {}),
    };
  }
  return { key: COUPON_ERRORS.general };
}

/**
 * The coupon box (spec §4, §5, §8): add a code, remove one; busy while a call runs; an empty or
 * duplicate code is refused here already, the rest with the API's texts. The field keeps what was
 * typed after a refusal and gets the focus with its error tied to it.
 */
export function CouponBox(props: {
  couponCodes: string[];
  onCart(cart: Cart): void;
  /** Without script the box is a plain form posting to the cart page (decision 022). */
  form?: CartFormProps | undefined;
}) {
  const t = useT();
  const id = useId();
  const hydrated = useHydrated();
  const notice = props.form?.notice;
  const [refusal] = couponErrors(notice);
  const [code, setCode] = useState(refusal ? (notice?.coupon ?? '') : '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ key: MessageKey; amount?: string } | null>(
    refusal ? { key: refusal.key, ...(refusal.amount ? { amount: refusal.amount } : {}) } : null,
  );
  const [done, setDone] = useState(() =>
    notice?.done === 'couponAdded' || notice?.done === 'couponRemoved'
      ? t(notice.done === 'couponAdded' ? 'shop.couponBox.added' : 'shop.couponBox.removed', {
          code: notice.doneCode ?? '',
        })
      : '',
  );
  const input = useRef<HTMLInputElement>(null);
  const running = useRef(false);

  const fail = (refusal: { key: MessageKey; amount?: string }) => {
    setError(refusal);
    setDone('');
    input.current?.focus();
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (running.current) return;
    const normalised = normaliseCouponCode(code);
    if (!normalised) return fail({ key: COUPON_ERRORS.empty });
    if (props.couponCodes.includes(normalised)) return fail({ key: COUPON_ERRORS.duplicate });
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      const cart = await addCouponCode(normalised);
      // The server answers the cart; a code it does not hold is not valid (spec §5).
      if (!cart.couponCodes.includes(normalised)) {
        props.onCart(cart);
        fail({ key: COUPON_ERRORS.invalid });
      } else {
        props.onCart(cart);
        setCode('');
        setDone(t('shop.couponBox.added', { code: normalised }));
      }
    } catch (caught) {
      fail(refusalOf(caught));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const remove = async (coupon: string) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      props.onCart(await removeCouponCode(coupon));
      setDone(t('shop.couponBox.removed', { code: coupon }));
      input.current?.focus();
    } catch (caught) {
      fail(refusalOf(caught));
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const errorId = `${id}-error`;
  return (
    <section className={styles.couponBox} aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('shop.couponBox.heading')}</h2>
      <form
        id={`${id}-form`}
        method="post"
        action={CART_FORM_PATH}
        onSubmit={add}
        noValidate
        aria-busy={busy}
      >
        <XsrfField token={props.form?.token} />
        <label htmlFor={`${id}-code`}>{t('shop.couponBox.label')}</label>
        <div className={styles.inline}>
          <input
            ref={input}
            id={`${id}-code`}
            name="code"
            className={styles.textInput}
            value={code}
            autoComplete="off"
            readOnly={busy}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setCode(event.target.value);
              setError(null);
            }}
          />
          <button
            type="submit"
            name="action"
            value="add-coupon"
            className={styles.secondary}
            aria-disabled={busy || undefined}
          >
            {busy ? t('shop.couponBox.busy') : t('shop.couponBox.add')}
          </button>
        </div>
        <div aria-live="assertive">
          {error ? (
            <p id={errorId} className={styles.fieldError}>
              {error.amount === undefined ? t(error.key) : t(error.key, { amount: error.amount })}
            </p>
          ) : null}
        </div>
      </form>
      {props.couponCodes.length > 0 ? (
        <ul className={styles.coupons} aria-label={t('shop.couponBox.applied')}>
          {props.couponCodes.map((coupon) => (
            <li key={coupon}>
              <span>{coupon}</span>
              <button
                {...submitButton(hydrated, `remove-coupon:${coupon}`)}
                form={`${id}-form`}
                className={styles.removeButton}
                disabled={busy}
                onClick={() => void remove(coupon)}
              >
                <span aria-hidden="true">×</span>
                <span className="visually-hidden">
                  {t('shop.couponBox.remove', { code: coupon })}
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {done}
      </p>
    </section>
  );
}
