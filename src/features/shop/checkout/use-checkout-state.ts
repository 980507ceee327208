import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageKey } from '../../../i18n/fi.ts';
import type { Translate } from '../../../i18n/translate.ts';
import { pushCheckoutEvent } from '../analytics.ts';
import { CART_EVENT, cartDeliveryDates, ShopApiError } from '../api.ts';
import { paymentTypeLabel } from '../payment/payment-type.ts';
import type { Cart, DeliveryDates } from '../schemas.ts';
import { type CheckoutHold, type CheckoutState, loadCheckout, takeHold } from './api.ts';
import { type CheckoutNotice, STEPS, type Step, TIME_FIELD } from './checkout-form.ts';

/**
 * The checkout page's state (`CheckoutPage`): the delivery dates, the chosen time and the hold
 * taken for it, and the step shown.
 */

export type Errors = Record<string, MessageKey>;

/** The step a hash names; anything else is the delivery step. */
export function stepOfHash(hash: string): Step {
  return hash === `#${STEPS.payment}` ? STEPS.payment : STEPS.delivery;
}

/** The delivery dates from the API (spec §7); `reload` after the cart changed. */
export function useDeliveryDates(postalCode: string, first: DeliveryDates) {
  const [delivery, setDelivery] = useState<DeliveryDates | null>(first);
  const [failed, setFailed] = useState(false);
  const reload = useCallback(async () => {
    try {
      setDelivery(await cartDeliveryDates(postalCode));
      setFailed(false);
    } catch {
      setDelivery(null);
      setFailed(true);
    }
  }, [postalCode]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { delivery, failed, reload };
}

/** A refusal of `POST /checkout/hold` as the step shows it. */
function holdErrors(error: unknown): { errors: Errors; products: string[] } {
  if (error instanceof ShopApiError && error.status === 409) {
    const fields = (error.body.errors ?? {}) as Record<string, string>;
    if (fields.time) return { errors: { [TIME_FIELD]: 'checkout.error.slotFull' }, products: [] };
    const codes = Object.keys(fields);
    if (codes.length > 0) {
      return { errors: { [TIME_FIELD]: 'checkout.error.soldOut' }, products: codes };
    }
  }
  return { errors: { [TIME_FIELD]: 'checkout.error.general' }, products: [] };
}

interface ChoiceStart {
  cart: Cart;
  hold: CheckoutHold | null;
  postalCode: string;
  /** The notice of the last refused post: what was chosen and why it was refused. */
  notice: CheckoutNotice | null;
  /** Loads the delivery dates again (a refused hold, a changed cart). */
  reloadDelivery: () => Promise<void>;
}

/**
 * The delivery choice: the date, the time and the billing box, and the hold that choosing a time
 * takes at once (of no time, for a cart of gift cards only). The cart comes back with each hold.
 */
export function useDeliveryChoice(start: ChoiceStart) {
  const { notice, reloadDelivery } = start;
  const [cart, setCart] = useState(start.cart);
  const [hold, setHold] = useState(start.hold);
  const [date, setDate] = useState(notice?.typed?.date ?? start.hold?.date ?? '');
  const [time, setTime] = useState(notice?.typed?.time ?? start.hold?.time ?? '');
  const [billing, setBilling] = useState(
    notice?.typed?.useDeliveryAddressForBilling ?? start.hold?.useDeliveryAddressForBilling ?? true,
  );
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>(notice?.errors ?? {});
  const [soldOut, setSoldOut] = useState<string[]>(notice?.products ?? []);
  const shipping = useRef('');
  // Gift cards only: nothing is delivered, the codes are mailed (decision 030).
  const mailed = cart.hasGiftCardsOnly;

  // A change of the cart (another tab's widget, the header) clears the date and the time (spec
  // §4); the server dropped the hold with the change.
  useEffect(() => {
    const onCart = () => {
      setDate('');
      setTime('');
      setHold(null);
      void loadCheckout().then(
        (state: CheckoutState) => {
          setCart(state.cart);
          setHold(state.hold);
        },
        () => undefined,
      );
      void reloadDelivery();
    };
    window.addEventListener(CART_EVENT, onCart);
    return () => window.removeEventListener(CART_EVENT, onCart);
  }, [reloadDelivery]);

  /** Takes the hold of the chosen time (of no time for gift cards); answers it, null if refused. */
  const takeHoldOf = async (next: {
    date: string;
    time: string;
    billing: boolean;
  }): Promise<CheckoutHold | null> => {
    setBusy(true);
    try {
      const state = await takeHold(
        mailed
          ? { useDeliveryAddressForBilling: next.billing }
          : {
              postalCode: start.postalCode,
              date: next.date,
              time: next.time,
              useDeliveryAddressForBilling: next.billing,
            },
      );
      setCart(state.cart);
      setHold(state.hold);
      setErrors({});
      setSoldOut([]);
      const label = state.hold?.label ?? next.time;
      if (shipping.current !== `${next.date} ${next.time}`) {
        shipping.current = `${next.date} ${next.time}`;
        pushCheckoutEvent('add_shipping_info', state.cart, { shipping_tier: label });
      }
      return state.hold;
    } catch (error) {
      setHold(null);
      const refused = holdErrors(error);
      setErrors(refused.errors);
      setSoldOut(refused.products);
      if (error instanceof ShopApiError && error.status === 409) void reloadDelivery();
      return null;
    } finally {
      setBusy(false);
    }
  };

  const chooseDate = (value: string) => {
    setDate(value);
    setTime('');
    setHold(null);
    setErrors({});
  };
  const chooseTime = (value: string) => {
    setTime(value);
    if (value && date) void takeHoldOf({ date, time: value, billing });
    else setHold(null);
  };
  const chooseBilling = (value: boolean) => {
    setBilling(value);
    if (hold && (mailed || (date && time))) void takeHoldOf({ date, time, billing: value });
  };

  return {
    cart,
    hold,
    mailed,
    date,
    time,
    billing,
    busy,
    errors,
    setErrors,
    soldOut,
    takeHoldOf,
    chooseDate,
    chooseTime,
    chooseBilling,
  };
}

/**
 * The step shown: it follows the hash (a refused post comes back on its own step, named by its
 * notice), and a step change by hash moves the focus to the step's heading. The payment step
 * needs a hold; entering it with one counts `add_payment_info` once.
 */
export function useCheckoutStep(input: {
  notice: CheckoutNotice | null;
  hold: CheckoutHold | null;
  cart: Cart;
  paymentMethodCode: string;
}) {
  const { hold, cart, paymentMethodCode } = input;
  const [step, setStep] = useState<Step>(input.notice?.step ?? STEPS.delivery);
  const deliveryHeading = useRef<HTMLHeadingElement>(null);
  const paymentHeading = useRef<HTMLHeadingElement>(null);
  const paymentCounted = useRef(false);
  const cameWithNotice = useRef(input.notice !== null);
  useEffect(() => {
    const follow = () => {
      const wanted = stepOfHash(window.location.hash);
      setStep(wanted);
      (wanted === STEPS.payment ? paymentHeading : deliveryHeading).current?.focus();
    };
    if (!cameWithNotice.current) setStep(stepOfHash(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    if (step === STEPS.payment && !hold) {
      window.history.replaceState(null, '', `#${STEPS.delivery}`);
      setStep(STEPS.delivery);
    }
    if (step === STEPS.payment && hold && !paymentCounted.current) {
      paymentCounted.current = true;
      pushCheckoutEvent('add_payment_info', cart, {
        payment_type: paymentTypeLabel(paymentMethodCode),
      });
    }
    if (step === STEPS.delivery) paymentCounted.current = false;
  }, [step, hold, cart, paymentMethodCode]);
  return { step, deliveryHeading, paymentHeading };
}

/**
 * Failed submits (the failed-submit pattern): while there are errors the title is prefixed and
 * the summary takes the focus. Answers the summary's ref.
 */
export function useFailedSubmit(errors: Errors, t: Translate) {
  const summary = useRef<HTMLDivElement>(null);
  const title = useRef('');
  useEffect(() => {
    const refused = Object.keys(errors).length > 0;
    if (!title.current) title.current = document.title.replace(/^[^:]*: /, '');
    const base = title.current;
    document.title = refused ? t('checkout.errorTitle', { title: base }) : base;
    if (refused) summary.current?.focus();
  }, [errors, t]);
  return summary;
}
