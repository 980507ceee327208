import { type FormEvent, type ReactNode, type RefObject, useEffect, useId, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { useHydrated } from '../../../render/use-hydrated.ts';
import { pushCheckoutEvent } from '../analytics.ts';
import { XsrfField } from '../cart-form-fields.tsx';
import { CartSummary, money } from '../cart-page.tsx';
import type { Customer } from '../customer/schemas.ts';
import { type Cart, type DeliveryDates, payableCents } from '../schemas.ts';
import shop from '../shop.module.css';
import { CartAddressModal } from './address-modal.tsx';
import { type CheckoutHold, storeCustomer } from './api.ts';
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
import {
  type Errors,
  useCheckoutStep,
  useDeliveryChoice,
  useDeliveryDates,
  useFailedSubmit,
} from './use-checkout-state.ts';

export { stepOfHash } from './use-checkout-state.ts';

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
  const deliveryDates = useDeliveryDates(props.postalCode, props.delivery);
  const choice = useDeliveryChoice({
    cart: props.cart,
    hold: props.hold,
    postalCode: props.postalCode,
    notice,
    reloadDelivery: deliveryDates.reload,
  });
  const { cart, hold, errors, setErrors } = choice;
  const [customer, setCustomer] = useState(props.customer);
  const [addressOpen, setAddressOpen] = useState(false);
  const { step, deliveryHeading, paymentHeading } = useCheckoutStep({
    notice,
    hold,
    cart,
    paymentMethodCode: props.paymentMethodCode,
  });
  const summary = useFailedSubmit(errors, t);

  // The customer kept in session storage (spec §3) for the header and the address modal.
  useEffect(() => storeCustomer(props.customer), [props.customer]);

  // begin_checkout once on entering the checkout.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cart the shopper came with, once
  useEffect(() => {
    pushCheckoutEvent('begin_checkout', props.cart);
  }, []);

  const next = async (event: FormEvent) => {
    if (!hydrated) return; // the plain form posts
    event.preventDefault();
    if (choice.busy) return;
    const { date, time, mailed } = choice;
    const found = deliveryStepErrors({ customer, date, time, hold, mailed });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let held = hold;
    if (!held && mailed) {
      held = await choice.takeHoldOf({ date: '', time: '', billing: choice.billing });
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

  return (
    <div className={styles.checkout} data-step={hydrated ? step : undefined}>
      <StepLinks step={step} hold={hold} />
      {props.paymentCancelled ? (
        <PaymentCancelledNotice text={t('shop.order.paymentCancelled')} />
      ) : null}
      {Object.keys(errors).length > 0 ? (
        <ErrorSummary
          summary={summary}
          id={`${id}-summary`}
          errors={errors}
          soldOut={choice.soldOut}
          cart={cart}
          hydrated={hydrated}
        />
      ) : null}
      <DeliveryStep
        section={{
          id: `${id}-delivery`,
          heading: deliveryHeading,
          hidden: hydrated && step !== STEPS.delivery,
        }}
        hydrated={hydrated}
        props={props}
        customer={customer}
        choice={choice}
        delivery={deliveryDates}
        onEditAddress={() => setAddressOpen(true)}
        onNext={next}
      />
      <PaymentStep
        section={{
          id: `${id}-payment`,
          heading: paymentHeading,
          hidden: hydrated && step !== STEPS.payment,
        }}
        cart={cart}
        hold={hold}
        mailed={choice.mailed}
      />
      <PurchaseForm props={props} cart={cart} hold={hold} />
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

/** The two steps; the payment step is a link only once a time is held. */
function StepLinks(props: { step: Step; hold: CheckoutHold | null }) {
  const t = useT();
  const current = (step: Step) => (props.step === step ? 'step' : undefined);
  return (
    <nav aria-label={t('checkout.steps')} className={styles.steps}>
      <ol>
        <li>
          <a href={`#${STEPS.delivery}`} aria-current={current(STEPS.delivery)}>
            {t('checkout.step.delivery')}
          </a>
        </li>
        <li>
          {props.hold ? (
            <a href={`#${STEPS.payment}`} aria-current={current(STEPS.payment)}>
              {t('checkout.step.payment')}
            </a>
          ) : (
            <span>{t('checkout.step.payment')}</span>
          )}
        </li>
      </ol>
    </nav>
  );
}

/** What refused the step, each line a link to its field; sold-out products are named. */
function ErrorSummary(props: {
  summary: RefObject<HTMLDivElement | null>;
  id: string;
  errors: Errors;
  soldOut: string[];
  cart: Cart;
  hydrated: boolean;
}) {
  const t = useT();
  const names = new Map(props.cart.lineItems.map((line) => [line.code, line.name]));
  const soldOut = props.soldOut.map((code) => names.get(code) ?? code).join(', ');
  return (
    <div
      ref={props.summary}
      className={styles.errorSummary}
      role="alert"
      tabIndex={-1}
      // biome-ignore lint/a11y/noAutofocus: a refused step's summary takes the focus (the failed-submit pattern), also in the page without script
      autoFocus
      id="error-summary"
      aria-labelledby={props.id}
    >
      <h2 id={props.id}>{t('checkout.errorSummary')}</h2>
      <ul>
        {/* The placement's refusals arrive as keys (@texts shop.checkout., checkout.error.) */}
        {Object.entries(props.errors).map(([field, key]) => (
          <li key={field}>
            <a href={`#${summaryTarget(field, props.hydrated)}`}>
              {t(key)}
              {key === 'checkout.error.soldOut' && soldOut ? ` (${soldOut})` : ''}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

type DeliveryChoice = ReturnType<typeof useDeliveryChoice>;

/** Where a step stands: its heading's id and ref (a step change by hash focuses it), shown or not. */
interface StepPlace {
  id: string;
  heading: RefObject<HTMLHeadingElement | null>;
  hidden: boolean;
}

/** A step of the checkout: a section named by its heading, the target of its hash. */
function StepSection(props: StepPlace & { step: Step; title: string; children: ReactNode }) {
  return (
    <section
      id={props.step}
      className={styles.step}
      hidden={props.hidden}
      aria-labelledby={props.id}
    >
      <h2 id={props.id} ref={props.heading} tabIndex={-1}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

/** The delivery step: the address, the delivery time (or the mail of gift cards), the billing box. */
function DeliveryStep(props: {
  section: StepPlace;
  hydrated: boolean;
  props: CheckoutPageProps;
  customer: Customer;
  choice: DeliveryChoice;
  delivery: ReturnType<typeof useDeliveryDates>;
  onEditAddress: () => void;
  onNext: (event: FormEvent) => void;
}) {
  const t = useT();
  const { choice, customer } = props;
  const { postalCode, form } = props.props;
  return (
    <StepSection step={STEPS.delivery} title={t('checkout.delivery.title')} {...props.section}>
      <DeliveryAddress
        address={customer.deliveryAddress}
        hydrated={props.hydrated}
        onEdit={props.onEditAddress}
      />
      <form
        method="post"
        action={CHECKOUT_PAGE_PATH}
        className={styles.deliveryForm}
        onSubmit={props.onNext}
        noValidate
        aria-busy={choice.busy}
      >
        <XsrfField token={form.token} />
        <input type="hidden" name={ACTION_FIELD} value={ACTIONS.hold} />
        <input type="hidden" name={POSTAL_CODE_PARAM} value={postalCode} />
        {choice.mailed ? (
          <div className={styles.box} data-delivery="email">
            <h3>{t('checkout.byEmail.title')}</h3>
            <p>{t('checkout.byEmail.intro', { email: customer.email })}</p>
          </div>
        ) : (
          <>
            <p className={styles.postalCode}>
              {t('checkout.delivery.postalCode', { postalCode })}{' '}
              <a href="/ostoskori#kirjaudu">{t('checkout.delivery.changePostalCode')}</a>
            </p>
            <DeliveryTime choice={choice} delivery={props.delivery} hydrated={props.hydrated} />
          </>
        )}
        <p className={styles.checkboxRow}>
          <input
            id="checkout-billing"
            type="checkbox"
            name={BILLING_FIELD}
            value="on"
            checked={choice.billing}
            onChange={(event) => choice.chooseBilling(event.target.checked)}
          />
          <label htmlFor="checkout-billing">{t('checkout.delivery.billing')}</label>
        </p>
        <button
          type="submit"
          id="checkout-next"
          className={shop.primary}
          aria-disabled={choice.busy || undefined}
        >
          {paysNothing(choice.cart) ? t('checkout.confirm') : t('checkout.toPayment')}
        </button>
      </form>
    </StepSection>
  );
}

/** The delivery address, and the way to add or change it (the modal, or Oma tili without script). */
function DeliveryAddress(props: {
  address: Customer['deliveryAddress'];
  hydrated: boolean;
  onEdit: () => void;
}) {
  const t = useT();
  const { address } = props;
  const edit = address.streetAddress
    ? t('checkout.delivery.editAddress')
    : t('checkout.delivery.addAddress');
  return (
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
      {props.hydrated ? (
        <button type="button" className={shop.secondary} onClick={props.onEdit}>
          {edit}
        </button>
      ) : (
        <a href="/oma-tili" className={shop.secondary}>
          {edit}
        </a>
      )}
    </div>
  );
}

/**
 * The delivery date and time: two selects with script (choosing a time takes the hold), one
 * select of every slot without; or why there is none.
 */
function DeliveryTime(props: {
  choice: DeliveryChoice;
  delivery: ReturnType<typeof useDeliveryDates>;
  hydrated: boolean;
}) {
  const t = useT();
  const { delivery, failed } = props.delivery;
  const { date, time, errors } = props.choice;
  const dates = delivery?.dates ?? [];
  if (failed) {
    return (
      <p className={shop.statusError} role="alert">
        {t('checkout.delivery.loadError')}
      </p>
    );
  }
  if (delivery && !delivery.isAvailable) {
    return <p className={shop.statusError}>{t('shop.delivery.notAvailable')}</p>;
  }
  if (dates.length === 0) {
    // Why there is no date and what to change (the message says which products), with the way
    // to the cart beside the postal code's change above.
    return (
      <div className={styles.noDates} data-no-dates={delivery?.reason ?? ''}>
        <p className={shop.statusError}>{delivery?.message ?? t('checkout.delivery.noDates')}</p>
        <p>
          <a href="/ostoskori#tuotteet">{t('checkout.delivery.editCart')}</a>
        </p>
      </div>
    );
  }
  if (props.hydrated) return <DateAndTime choice={props.choice} delivery={delivery} />;
  return (
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
            {d.times.map((slot) => (
              <option key={slot.value} value={`${d.value} ${slot.value}`}>
                {`${d.label} ${slot.label}`}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </p>
  );
}

/** With script: the date, then its times; the hold's state is announced beside them. */
function DateAndTime(props: { choice: DeliveryChoice; delivery: DeliveryDates | null }) {
  const t = useT();
  const id = useId();
  const { date, time, hold, busy, errors } = props.choice;
  const dates = props.delivery?.dates ?? [];
  return (
    <div className={styles.selects}>
      <p className={styles.field}>
        <label htmlFor="checkout-date">{t('checkout.delivery.date')}</label>
        <select
          id="checkout-date"
          name={DATE_FIELD}
          value={date}
          aria-invalid={errors[DATE_FIELD] ? true : undefined}
          onChange={(event) => props.choice.chooseDate(event.target.value)}
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
          onChange={(event) => props.choice.chooseTime(event.target.value)}
        >
          <option value="">
            {date ? t('checkout.delivery.chooseTime') : t('checkout.delivery.dateFirst')}
          </option>
          {timesOf(props.delivery, date).map((slot) => (
            <option key={slot.value} value={slot.value}>
              {slot.label}
            </option>
          ))}
        </select>
      </p>
      <p id={`${id}-hold`} role="status" className={styles.holdStatus}>
        {busy
          ? t('checkout.delivery.holding')
          : hold && hold.date === date && hold.time === time
            ? t('checkout.delivery.held', { label: hold.label, until: clockOf(hold.expiresAt) })
            : ''}
      </p>
    </div>
  );
}

/** The payment step: the held time, the items read only, the sums and the payment button. */
function PaymentStep(props: {
  section: StepPlace;
  cart: Cart;
  hold: CheckoutHold | null;
  mailed: boolean;
}) {
  const t = useT();
  const { cart, hold, mailed } = props;
  return (
    <StepSection step={STEPS.payment} title={t('checkout.payment.title')} {...props.section}>
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
    </StepSection>
  );
}

/** The form that places the order: the hold, the method, and the sums the shopper was shown. */
function PurchaseForm(props: { props: CheckoutPageProps; cart: Cart; hold: CheckoutHold | null }) {
  const { form, postalCode, paymentMethodCode } = props.props;
  return (
    <form id={PURCHASE_FORM_ID} method="post" action={CHECKOUT_PAGE_PATH} hidden>
      <XsrfField token={form.token} />
      <input type="hidden" name={ACTION_FIELD} value={ACTIONS.purchase} />
      <input type="hidden" name={POSTAL_CODE_PARAM} value={postalCode} />
      <input type="hidden" name={CHECKOUT_ID_FIELD} value={props.hold?.checkoutId ?? ''} />
      <input type="hidden" name={PAYMENT_METHOD_FIELD} value={paymentMethodCode} />
      {/* What the summary shows: the order charges exactly this (decision 080). */}
      <input type="hidden" name={TOTAL_FIELD} value={props.cart.total} />
      <input type="hidden" name={GIFT_CARD_AMOUNT_FIELD} value={props.cart.usedGiftCardAmount} />
    </form>
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
