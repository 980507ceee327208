import { useT } from '../../i18n/react.tsx';
import styles from './cart-form.module.css';
import { ACTION_FIELD, type CartNotice, noticeText, XSRF_FIELD } from './cart-form.ts';
import { COUPON_ERRORS } from './message-keys.ts';
import { GIFT_CARD_ERRORS } from './orders/schemas.ts';

/** The cart page's forms: the anti-forgery token and the notice of the last post (no script). */
export interface CartFormProps {
  token: string;
  notice: CartNotice | null;
}

export function XsrfField(props: { token: string | undefined }) {
  return props.token ? <input type="hidden" name={XSRF_FIELD} value={props.token} /> : null;
}

const couponKeys = new Set<string>(Object.values(COUPON_ERRORS));
const giftCardKeys = new Set<string>(Object.values(GIFT_CARD_ERRORS));

/** Refusals of the quantities (the coupon and gift-card boxes show their own). */
export function quantityErrors(notice: CartNotice | null | undefined) {
  return (notice?.errors ?? []).filter(
    (error) => !couponKeys.has(error.key) && !giftCardKeys.has(error.key),
  );
}

export function couponErrors(notice: CartNotice | null | undefined) {
  return (notice?.errors ?? []).filter((error) => couponKeys.has(error.key));
}

export function giftCardErrors(notice: CartNotice | null | undefined) {
  return (notice?.errors ?? []).filter((error) => giftCardKeys.has(error.key));
}

/**
 * What the last post did, above the lines: 'Ostoskoria ei muutettu:' with each refusal and the
 * product it is about, or 'Ostoskori päivitetty.' (or that the held delivery time was let go).
 */
export function CartNoticeBox(props: {
  notice: CartNotice | null | undefined;
  names: Map<string, string>;
}) {
  const t = useT();
  const errors = quantityErrors(props.notice);
  if (errors.length > 0) {
    return (
      <div className={styles.formNotice} role="alert" data-notice="refused">
        <p>{t('shop.cart.notChanged')}</p>
        <ul>
          {errors.map((error) => (
            <li key={`${error.code}:${error.key}`}>
              {error.code && props.names.has(error.code)
                ? `${props.names.get(error.code)}: ${noticeText(t, error)}`
                : noticeText(t, error)}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  const done = props.notice?.done;
  if (done === 'updated' || done === 'added' || done === 'holdReleased') {
    return (
      <p className={styles.formDone} role="status" data-notice={done}>
        {t(
          done === 'added'
            ? 'shop.buy.added'
            : done === 'holdReleased'
              ? 'shop.cart.unlocked'
              : 'shop.cart.updated',
        )}
      </p>
    );
  }
  return null;
}

/**
 * A button that acts in place once the island runs, and until then submits the plain form with
 * `action=<value>` (decision 022).
 */
export function submitButton(hydrated: boolean, value: string) {
  return hydrated
    ? { type: 'button' as const }
    : { type: 'submit' as const, name: ACTION_FIELD, value };
}
