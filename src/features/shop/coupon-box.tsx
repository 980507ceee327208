import type { MessageKey } from '../../i18n/fi.ts';
import { useT } from '../../i18n/react.tsx';
import type { Translate } from '../../i18n/translate.ts';
import { addCouponCode, removeCouponCode, ShopApiError } from './api.ts';
import { CART_ACTIONS } from './cart-form.ts';
import type { CartFormProps } from './cart-form-fields.tsx';
import { CodeEntryBox, type CodeEntryOutcome } from './code-entry-box.tsx';
import { COUPON_ERRORS } from './message-keys.ts';
import type { Cart } from './schemas.ts';
import { normaliseCouponCode } from './values.ts';

const couponMessages = new Set<string>(Object.values(COUPON_ERRORS));

/** The text of a refusal: the API's message key for the code field, else the general one. */
export function couponRefusal(t: Translate, error: unknown): string {
  if (error instanceof ShopApiError && error.fieldError && couponMessages.has(error.fieldError)) {
    // The minimum-order refusal names its amount in `minOrder` (coupons.server.ts).
    const amount = error.body.minOrder;
    const key = error.fieldError as MessageKey;
    return typeof amount === 'string' || typeof amount === 'number'
      ? t(key, { amount: String(amount) })
      : t(key);
  }
  return t(COUPON_ERRORS.general);
}

/**
 * The coupon box (spec §4, §5, §8): add a code, remove one; an empty or duplicate code is refused
 * here already, the rest with the API's texts. The box itself is the shared `CodeEntryBox`.
 */
export function CouponBox(props: {
  couponCodes: string[];
  onCart(cart: Cart): void;
  /** Without script the box is a plain form posting to the cart page (decision 022). */
  form?: CartFormProps | undefined;
}) {
  const t = useT();
  const add = async (typed: string): Promise<CodeEntryOutcome> => {
    const code = normaliseCouponCode(typed);
    if (!code) return { refused: t(COUPON_ERRORS.empty) };
    if (props.couponCodes.includes(code)) return { refused: t(COUPON_ERRORS.duplicate) };
    try {
      const cart = await addCouponCode(code);
      props.onCart(cart);
      // The server answers the cart; a code it does not hold is not valid (spec §5).
      return cart.couponCodes.includes(code)
        ? { done: t('shop.couponBox.added', { code }) }
        : { refused: t(COUPON_ERRORS.invalid) };
    } catch (caught) {
      return { refused: couponRefusal(t, caught) };
    }
  };

  const remove = async (code: string): Promise<CodeEntryOutcome> => {
    try {
      props.onCart(await removeCouponCode(code));
      return { done: t('shop.couponBox.removed', { code }) };
    } catch (caught) {
      return { refused: couponRefusal(t, caught) };
    }
  };

  return (
    <CodeEntryBox
      kind="coupon"
      items={props.couponCodes.map((code) => ({
        key: code,
        label: code,
        removeLabel: t('shop.couponBox.remove', { code }),
        removeAction: `${CART_ACTIONS.removeCoupon}:${code}`,
      }))}
      form={props.form}
      done={(notice) =>
        notice.done === 'couponAdded' || notice.done === 'couponRemoved'
          ? t(notice.done === 'couponAdded' ? 'shop.couponBox.added' : 'shop.couponBox.removed', {
              code: notice.doneCode ?? '',
            })
          : ''
      }
      add={add}
      remove={(item) => remove(item.key)}
    />
  );
}
