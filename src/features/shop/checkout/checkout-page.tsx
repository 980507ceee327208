import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { MessageKey } from '../../../i18n/fi.ts';
import { useT } from '../../../i18n/react.tsx';
import { useHydrated } from '../../../render/use-hydrated.ts';
import { pushCheckoutEvent } from '../analytics.ts';
import { CART_EVENT, cartDeliveryDates, ShopApiError } from '../api.ts';
import { XsrfField } from '../cart-form-fields.tsx';
import { CartSummary, money } from '../cart-page.tsx';
import type { Customer } from '../customer/schemas.ts';
import { paymentTypeLabel } from '../payment/payment-type.ts';
import { type Cart, type DeliveryDates, payableCents } from '../schemas.ts';
import shop from '../shop.module.css';
import { CartAddressModal } from './address-modal.tsx';
import {
  type CheckoutHold,
  type CheckoutState,
  loadCheckout,
  storeCustomer,
  takeHold,
} from './api.ts';
import styles from './checkout.module.css';
import {
  ACTION_FIELD,
  ACTIONS,
  BILLING_FIELD,
  CHECKOUT_ID_FIELD,
  CHECKOUT_PAGE_PATH,
  type CheckoutNotice,
  DATE_FIELD,
  GIFT_CARD_AMOUNT_FIELD,
  PAYMENT_METHOD_FIELD,
  POSTAL_CODE_PARAM,
  PURCHASE_FORM_ID,
  SLOT_FIELD,
  STEPS,
  type Step,
  TIME_FIELD,
  TOTAL_FIELD,
} from './checkout-form.ts';

export interface CheckoutPageProps {
  cart: Cart;
  hold: CheckoutHold | null;
  /** The delivery postal code (`postinumero`), checked by the server. */
  postalCode: string;
  /** The delivery dates of the cart to the postal code, as the server found them. */
  delivery: DeliveryDates;
  customer: Customer;
  /** The configured payment provider's method code (the `PaymentMethodCode` field). */
  paymentMethodCode: string;
  /** The anti-forgery field's value and the notice of the last refused post. */
  form: { token: string; notice: CheckoutNotice | null };
  /** Back from a cancelled payment (`maksu=peruttu`): the order's lines are in the cart again. */
  paymentCancelled?: boolean;
}

type Errors = Record<string, MessageKey>;

/** The step a hash names; anything else is the delivery step. */
export function stepOfHash(hash: string): Step {
  return hash === `#${STEPS.payment}` ? STEPS.payment : STEPS.delivery;
}

/**
 * The cart pays nothing (spec §2 "total 0,00": a 100 % coupon, or gift cards paying all of it):
 * the order is confirmed at once.
 */
export function paysNothing(cart: Pick<Cart, 'total' | 'usedGiftCardAmount'>): boolean {
  return payableCents(cart) === 0;
}

/** A hold's end as the shopper reads it: `14.35` (Helsinki time, as the delivery times). */
export function clockOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return clockFormat.format(date);
}

const clockFormat = new Intl.DateTimeFormat('fi-FI', {
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Europe/Helsinki',
});

/** The times of a date, [] when the date is not offered. */
export function timesOf(delivery: DeliveryDates | null, date: string) {
  return delivery?.dates.find((d) => d.value === date)?.times ?? [];
}

/**
 * Which fields the delivery step's next button still needs. A cart of gift cards only (`mailed`)
 * needs no delivery time: its hold is taken by the button itself.
 */
export function deliveryStepErrors(input: {
  customer: Customer;
  date: string;
  time: string;
  hold: CheckoutHold | null;
  mailed?: boolean;
}): Errors {
  const errors: Errors = {};
  if (!input.customer.deliveryAddress.streetAddress) errors.address = 'checkout.error.address';
  if (input.mailed) return errors;
  if (!input.date) errors[DATE_FIELD] = 'checkout.error.chooseDate';
  else if (!input.time) errors[TIME_FIELD] = 'checkout.error.chooseTime';
  else if (!input.hold || input.hold.date !== input.date || input.hold.time !== input.time) {
    errors[TIME_FIELD] = 'checkout.error.holdExpired';
  }
  return errors;
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

const fieldOf: Record<string, string> = {
  address: 'checkout-address',
  [DATE_FIELD]: 'checkout-date',
  [TIME_FIELD]: 'checkout-time',
  [SLOT_FIELD]: 'checkout-slot',
  _: 'checkout-next',
};

/** The field a summary line leads to: before script the date and time are one select. */
export function summaryTarget(field: string, hydrated: boolean): string {
  if (!hydrated && (field === DATE_FIELD || field === TIME_FIELD)) return fieldOf[SLOT_FIELD] ?? '';
  return fieldOf[field] ?? fieldOf._ ?? '';
}

/**
 * The checkout page `/kassa` (decision 029): the delivery step `#toimitus` (the address, the
 * delivery date and time, the billing-address box) and the payment step `#maksu` (the items read
 * only, the sums, the payment button). Without script both steps show as plain forms posting to
 * `/kassa`; with it the hash picks the step, choosing a time takes the delivery hold at once, and
 * the next-step button confirms an order of 0,00 € at once through `purchase-form`.
 */
export function CheckoutPage(props: CheckoutPageProps) {
  const t = useT();
  const hydrated = useHydrated();
  const id = useId();
  const notice = props.form.notice;
  const [cart, setCart] = useState(props.cart);
  const [hold, setHold] = useState(props.hold);
  const [delivery, setDelivery] = useState<DeliveryDates | null>(props.delivery);
  const [deliveryFailed, setDeliveryFailed] = useState(false);
  const [customer, setCustomer] = useState(props.customer);
  const [addressOpen, setAddressOpen] = useState(false);
  const [date, setDate] = useState(notice?.typed?.date ?? props.hold?.date ?? '');
  const [time, setTime] = useState(notice?.typed?.time ?? props.hold?.time ?? '');
  const [billing, setBilling] = useState(
    notice?.typed?.useDeliveryAddressForBilling ?? props.hold?.useDeliveryAddressForBilling ?? true,
  );
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>(notice?.errors ?? {});
  const [soldOut, setSoldOut] = useState<string[]>(notice?.products ?? []);
  const [step, setStep] = useState<Step>(notice?.step ?? STEPS.delivery);
  const summary = useRef<HTMLDivElement>(null);
  const deliveryHeading = useRef<HTMLHeadingElement>(null);
  const paymentHeading = useRef<HTMLHeadingElement>(null);
  const title = useRef('');
  const analytics = useRef({ shipping: '', payment: false });

  // The customer kept in session storage (spec §3) for the header and the address modal.
  useEffect(() => storeCustomer(props.customer), [props.customer]);

  // begin_checkout once on entering the checkout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cart the shopper came with, once
  useEffect(() => {
    pushCheckoutEvent('begin_checkout', props.cart);
  }, []);

  // The delivery times from the API (spec §7), also after the cart changed.
  const loadDelivery = useCallback(async () => {
    try {
      setDelivery(await cartDeliveryDates(props.postalCode));
      setDeliveryFailed(false);
    } catch {
      setDelivery(null);
      setDeliveryFailed(true);
    }
  }, [props.postalCode]);
  useEffect(() => {
    void loadDelivery();
  }, [loadDelivery]);

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
      void loadDelivery();
    };
    window.addEventListener(CART_EVENT, onCart);
    return () => window.removeEventListener(CART_EVENT, onCart);
  }, [loadDelivery]);

  // The step follows the hash (a refused post comes back on its own step); the payment step
  // needs a hold. A step change by hash moves the focus to the step's heading.
  const cameWithNotice = useRef(notice !== null);
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
    if (step === STEPS.payment && hold && !analytics.current.payment) {
      analytics.current.payment = true;
      pushCheckoutEvent('add_payment_info', cart, {
        payment_type: paymentTypeLabel(props.paymentMethodCode),
      });
    }
    if (step === STEPS.delivery) analytics.current.payment = false;
  }, [step, hold, cart, props.paymentMethodCode]);

  // Failed submits: the title is prefixed and the summary takes the focus.
  const failed = Object.keys(errors).length > 0;
  useEffect(() => {
    const refused = Object.keys(errors).length > 0;
    if (!title.current) title.current = document.title.replace(/^[^:]*: /, '');
    const base = title.current;
    document.title = refused ? t('checkout.errorTitle', { title: base }) : base;
    if (refused) summary.current?.focus();
  }, [errors, t]);

  // Gift cards only: nothing is delivered, the codes are mailed (decision 030).
  const mailed = cart.hasGiftCardsOnly;

  /** Takes the hold of the chosen time (of no time for gift cards); answers it, null if refused. */
  const hold$ = async (next: {
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
              postalCode: props.postalCode,
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
      if (analytics.current.shipping !== `${next.date} ${next.time}`) {
        analytics.current.shipping = `${next.date} ${next.time}`;
        pushCheckoutEvent('add_shipping_info', state.cart, { shipping_tier: label });
      }
      return state.hold;
    } catch (error) {
      setHold(null);
      const refused = holdErrors(error);
      setErrors(refused.errors);
      setSoldOut(refused.products);
      if (error instanceof ShopApiError && error.status === 409) void loadDelivery();
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
    if (value && date) void hold$({ date, time: value, billing });
    else setHold(null);
  };
  const chooseBilling = (value: boolean) => {
    setBilling(value);
    if (hold && (mailed || (date && time))) void hold$({ date, time, billing: value });
  };

  const next = async (event: FormEvent) => {
    if (!hydrated) return; // the plain form posts
    event.preventDefault();
    if (busy) return;
    const found = deliveryStepErrors({ customer, date, time, hold, mailed });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let held = hold;
    if (!held && mailed) {
      held = await hold$({ date: '', time: '', billing });
      if (!held) return;
    }
    if (paysNothing(cart)) {
      const form = document.getElementById(PURCHASE_FORM_ID) as HTMLFormElement | null;
      // The hold may be a moment old: its id goes in before the state has rendered it.
      const field = form?.elements.namedItem(CHECKOUT_ID_FIELD);
      if (field instanceof HTMLInputElement && held) field.value = held.checkoutId;
      form?.requestSubmit();
      return;
    }
    window.location.hash = STEPS.payment;
  };

  const names = new Map(cart.lineItems.map((line) => [line.code, line.name]));
  const dates = delivery?.dates ?? [];
  const times = timesOf(delivery, date);
  const showDelivery = !hydrated || step === STEPS.delivery;
  const showPayment = !hydrated || step === STEPS.payment;
  const address = customer.deliveryAddress;

  return (
    <div className={styles.checkout} data-step={hydrated ? step : undefined}>
      <nav aria-label={t('checkout.steps')} className={styles.steps}>
        <ol>
          <li>
            <a
              href={`#${STEPS.delivery}`}
              aria-current={step === STEPS.delivery ? 'step' : undefined}
            >
              {t('checkout.step.delivery')}
            </a>
          </li>
          <li>
            {hold ? (
              <a
                href={`#${STEPS.payment}`}
                aria-current={step === STEPS.payment ? 'step' : undefined}
              >
                {t('checkout.step.payment')}
              </a>
            ) : (
              <span>{t('checkout.step.payment')}</span>
            )}
          </li>
        </ol>
      </nav>

      {props.paymentCancelled ? (
        <PaymentCancelledNotice text={t('shop.order.paymentCancelled')} />
      ) : null}

      {failed ? (
        <div
          ref={summary}
          className={styles.errorSummary}
          role="alert"
          tabIndex={-1}
          // biome-ignore lint/a11y/noAutofocus: a refused step's summary takes the focus (the failed-submit pattern), also in the page without script
          autoFocus
          id="error-summary"
          aria-labelledby={`${id}-summary`}
        >
          <h2 id={`${id}-summary`}>{t('checkout.errorSummary')}</h2>
          <ul>
            {Object.entries(errors).map(([field, key]) => (
              <li key={field}>
                <a href={`#${summaryTarget(field, hydrated)}`}>
                  {t(key)}
                  {key === 'checkout.error.soldOut' && soldOut.length > 0
                    ? ` (${soldOut.map((code) => names.get(code) ?? code).join(', ')})`
                    : ''}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <section
        id={STEPS.delivery}
        className={styles.step}
        hidden={!showDelivery}
        aria-labelledby={`${id}-delivery`}
      >
        <h2 id={`${id}-delivery`} ref={deliveryHeading} tabIndex={-1}>
          {t('checkout.delivery.title')}
        </h2>
        <div className={styles.box} id="checkout-address" tabIndex={-1}>
          <h3>{t('checkout.delivery.address')}</h3>
          {address.streetAddress ? (
            <p data-address>
              {`${address.firstName} ${address.lastName}`}
              <br />
              {address.streetAddress}
              <br />
              {`${address.postalCode} ${address.city}`}
            </p>
          ) : (
            <p>{t('checkout.delivery.noAddress')}</p>
          )}
          {hydrated ? (
            <button type="button" className={shop.secondary} onClick={() => setAddressOpen(true)}>
              {address.streetAddress
                ? t('checkout.delivery.editAddress')
                : t('checkout.delivery.addAddress')}
            </button>
          ) : (
            <a href="/oma-tili" className={shop.secondary}>
              {address.streetAddress
                ? t('checkout.delivery.editAddress')
                : t('checkout.delivery.addAddress')}
            </a>
          )}
        </div>

        <form
          method="post"
          action={CHECKOUT_PAGE_PATH}
          className={styles.deliveryForm}
          onSubmit={next}
          noValidate
          aria-busy={busy}
        >
          <XsrfField token={props.form.token} />
          <input type="hidden" name={ACTION_FIELD} value={ACTIONS.hold} />
          <input type="hidden" name={POSTAL_CODE_PARAM} value={props.postalCode} />
          {mailed ? (
            <div className={styles.box} data-delivery="email">
              <h3>{t('checkout.byEmail.title')}</h3>
              <p>{t('checkout.byEmail.intro', { email: customer.email })}</p>
            </div>
          ) : (
            <p className={styles.postalCode}>
              {t('checkout.delivery.postalCode', { postalCode: props.postalCode })}{' '}
              <a href="/ostoskori#kirjaudu">{t('checkout.delivery.changePostalCode')}</a>
            </p>
          )}
          {mailed ? null : deliveryFailed ? (
            <p className={shop.statusError} role="alert">
              {t('checkout.delivery.loadError')}
            </p>
          ) : delivery && !delivery.isAvailable ? (
            <p className={shop.statusError}>{t('shop.delivery.notAvailable')}</p>
          ) : dates.length === 0 ? (
            // Why there is no date and what to change (the message says which products), with
            // the way to the cart beside the postal code's change above.
            <div className={styles.noDates} data-no-dates={delivery?.reason ?? ''}>
              <p className={shop.statusError}>
                {delivery?.message ?? t('checkout.delivery.noDates')}
              </p>
              <p>
                <a href="/ostoskori#tuotteet">{t('checkout.delivery.editCart')}</a>
              </p>
            </div>
          ) : hydrated ? (
            <div className={styles.selects}>
              <p className={styles.field}>
                <label htmlFor="checkout-date">{t('checkout.delivery.date')}</label>
                <select
                  id="checkout-date"
                  name={DATE_FIELD}
                  value={date}
                  aria-invalid={errors[DATE_FIELD] ? true : undefined}
                  onChange={(event) => chooseDate(event.target.value)}
                >
                  <option value="">{t('checkout.delivery.chooseDate')}</option>
                  {dates.map((d) => (
                    <option key={d.value} value={d.value}>
                      {d.label}
                    </option>
                  ))}
                </select>
              </p>
              <p className={styles.field}>
                <label htmlFor="checkout-time">{t('checkout.delivery.time')}</label>
                <select
                  id="checkout-time"
                  name={TIME_FIELD}
                  value={time}
                  disabled={!date}
                  aria-invalid={errors[TIME_FIELD] ? true : undefined}
                  aria-describedby={`${id}-hold`}
                  onChange={(event) => chooseTime(event.target.value)}
                >
                  <option value="">
                    {date ? t('checkout.delivery.chooseTime') : t('checkout.delivery.dateFirst')}
                  </option>
                  {times.map((time) => (
                    <option key={time.value} value={time.value}>
                      {time.label}
                    </option>
                  ))}
                </select>
              </p>
              <p id={`${id}-hold`} role="status" className={styles.holdStatus}>
                {busy
                  ? t('checkout.delivery.holding')
                  : hold && hold.date === date && hold.time === time
                    ? t('checkout.delivery.held', {
                        label: hold.label,
                        until: clockOf(hold.expiresAt),
                      })
                    : ''}
              </p>
            </div>
          ) : (
            <p className={styles.field}>
              <label htmlFor="checkout-slot">{t('checkout.delivery.slot')}</label>
              <select
                id="checkout-slot"
                name={SLOT_FIELD}
                defaultValue={date && time ? `${date} ${time}` : ''}
                aria-invalid={errors[TIME_FIELD] || errors[DATE_FIELD] ? true : undefined}
              >
                <option value="">{t('checkout.delivery.chooseSlot')}</option>
                {dates.map((d) => (
                  <optgroup key={d.value} label={d.label}>
                    {d.times.map((time) => (
                      <option key={time.value} value={`${d.value} ${time.value}`}>
                        {`${d.label} ${time.label}`}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </p>
          )}
          <p className={styles.checkboxRow}>
            <input
              id="checkout-billing"
              type="checkbox"
              name={BILLING_FIELD}
              value="on"
              checked={billing}
              onChange={(event) => chooseBilling(event.target.checked)}
            />
            <label htmlFor="checkout-billing">{t('checkout.delivery.billing')}</label>
          </p>
          <button
            type="submit"
            id="checkout-next"
            className={shop.primary}
            aria-disabled={busy || undefined}
          >
            {paysNothing(cart) ? t('checkout.confirm') : t('checkout.toPayment')}
          </button>
        </form>
      </section>

      <section
        id={STEPS.payment}
        className={styles.step}
        hidden={!showPayment}
        aria-labelledby={`${id}-payment`}
      >
        <h2 id={`${id}-payment`} ref={paymentHeading} tabIndex={-1}>
          {t('checkout.payment.title')}
        </h2>
        {hold ? (
          <div className={styles.box}>
            <h3>{t(mailed ? 'checkout.byEmail.title' : 'checkout.payment.deliveryTime')}</h3>
            <p data-hold>{hold.label}</p>
            {mailed ? null : (
              <p>
                <a href={`#${STEPS.delivery}`}>{t('checkout.payment.change')}</a>
              </p>
            )}
          </div>
        ) : null}
        <ReadOnlyLines cart={{ ...cart, isEditable: false }} />
        {/* The summary shows what the gift cards pay and what is left to pay. */}
        <CartSummary cart={cart} />
        <button
          type="submit"
          form={PURCHASE_FORM_ID}
          className={shop.primary}
          id="checkout-pay"
          disabled={!hold}
        >
          {paysNothing(cart) ? t('checkout.confirm') : t('checkout.pay')}
        </button>
        <p className={styles.hint}>{t('checkout.payment.note')}</p>
      </section>

      <form id={PURCHASE_FORM_ID} method="post" action={CHECKOUT_PAGE_PATH} hidden>
        <XsrfField token={props.form.token} />
        <input type="hidden" name={ACTION_FIELD} value={ACTIONS.purchase} />
        <input type="hidden" name={POSTAL_CODE_PARAM} value={props.postalCode} />
        <input type="hidden" name={CHECKOUT_ID_FIELD} value={hold?.checkoutId ?? ''} />
        <input type="hidden" name={PAYMENT_METHOD_FIELD} value={props.paymentMethodCode} />
        {/* What the summary shows: the order charges exactly this (decision 080). */}
        <input type="hidden" name={TOTAL_FIELD} value={cart.total} />
        <input type="hidden" name={GIFT_CARD_AMOUNT_FIELD} value={cart.usedGiftCardAmount} />
      </form>

      {hydrated ? (
        <CartAddressModal
          cartLoaded
          customer={customer}
          onCustomer={(fresh) => {
            setCustomer(fresh);
            setErrors((old) => {
              const { address: _, ...rest } = old;
              return rest;
            });
          }}
          open={addressOpen}
          onOpenChange={setAddressOpen}
        />
      ) : null}
    </div>
  );
}

/** The items on the payment step: read only (`isEditable` false, spec §2, §4). */
/**
 * After a cancelled payment (also shown by the server's page when the cart came back empty): above both steps, since the order's hold went with the order and the
 * page opens on the delivery step to choose a time again.
 */
export function PaymentCancelledNotice(props: { text: string }) {
  return (
    <p role="status" data-notice="payment-cancelled" className={styles.notice}>
      {props.text}
    </p>
  );
}

function ReadOnlyLines(props: { cart: Cart }) {
  const t = useT();
  return (
    <ul className={styles.lines} aria-label={t('shop.cart.items')}>
      {props.cart.lineItems.map((line) => (
        <li key={line.code} className={styles.line} data-code={line.code}>
          <span className={styles.lineName}>{line.name}</span>
          <span>{`${line.quantity} ${t('shop.buy.unit')}`}</span>
          <span className={styles.linePrice}>{money(line.linePrice)}</span>
        </li>
      ))}
    </ul>
  );
}
