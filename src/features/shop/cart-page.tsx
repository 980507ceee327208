import {
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { formatNumber, formatPrice } from '../../i18n/format.ts';
import { useLang, useT } from '../../i18n/react.tsx';
import { useHydrated } from '../../render/use-hydrated.ts';
import { lineItem, pushEcommerce, pushViewCart } from './analytics.ts';
import { cartDeliveryDates, changeQuantity, loadCart, ShopApiError } from './api.ts';
import { LineAvailability } from './availability-check.tsx';
import formStyles from './cart-form.module.css';
import { CART_ACTIONS, CART_FORM_PATH, type CartNotice, quantityField } from './cart-form.ts';
import { type CartFormProps, CartNoticeBox, submitButton, XsrfField } from './cart-form-fields.tsx';
import { CartAddressModal, useCustomer } from './checkout/address-modal.tsx';
import { releaseHold } from './checkout/api.ts';
import checkoutStyles from './checkout/checkout.module.css';
import { CHECKOUT_PAGE_PATH, checkoutUrl, STEPS } from './checkout/checkout-form.ts';
import { CouponBox } from './coupon-box.tsx';
import { withReturn } from './customer/return-path.ts';
import { DeliveryCheck, type DeliveryVerdict } from './delivery-check.tsx';
import { GiftCardBox } from './gift-card-box.tsx';
import { money } from './money.ts';
import { PostalCodeInput } from './postal-code-input.tsx';
import type { Cart, LineItem } from './schemas.ts';
import styles from './shop.module.css';
import {
  ACTION_FIELD,
  centsOfMoney,
  normalisePostalCode,
  POSTAL_CODE_PATTERN,
  payableCents,
} from './values.ts';

/** A quantity change is sent after this long without another (spec §4, §9). */
export const QUANTITY_DEBOUNCE_MS = 1000;

export interface CartPageProps {
  cart: Cart;
  /** The plain form's anti-forgery token and the notice of its last post (decision 022). */
  form?: CartFormProps;
  /**
   * Who is shopping, for the step to the order details (spec §2): logged in or not, and the
   * customer's delivery postal code ('' when none). An address saved on the page replaces it.
   */
  shopper?: { loggedIn: boolean; postalCode: string };
  /**
   * The delivery time the cart holds (decision 101): while it counts, the lines read only and
   * the page offers the way on to the payment step and the way to let the hold go.
   */
  hold?: CartHold | null;
}

/** What the cart page shows of a held delivery time. */
export interface CartHold {
  /** `ti 24.11.2026 klo 8.00–12.00`, or how gift cards come. */
  label: string;
  /** When the hold stops counting (ISO 8601). */
  expiresAt: string;
  /** The delivery postal code; null for gift cards only (they are mailed). */
  postalCode: string | null;
}

/** A hold's end as the shopper reads it: `14.35` (Helsinki time, as the delivery times). */
const clockFormat = new Intl.DateTimeFormat('fi-FI', {
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Europe/Helsinki',
});

/** The login and register pages (decision 025); `paluu` brings the shopper back. */
const LOGIN_PAGE = '/kirjaudu';
const REGISTER_PAGE = '/rekisteroidy';
/** The cart page's login view (spec §2). */
export const LOGIN_VIEW = 'kirjaudu';

/**
 * Where 'Siirry tilaustietoihin' leads (spec §2): a logged-in customer with a delivery postal
 * code straight to the checkout's delivery step, anyone else to the cart's login view.
 */
export function toDetailsHref(shopper: { loggedIn: boolean; postalCode: string }): string {
  return shopper.loggedIn && shopper.postalCode
    ? checkoutUrl(shopper.postalCode)
    : `#${LOGIN_VIEW}`;
}

export { money };

/**
 * The delivery time the cart holds (decision 101): it stops counting at its end, and the page's
 * button lets it go (`release`); then the page says the lines can be changed, with the focus.
 */
function useCartHold(first: CartHold | null, onCart: (cart: Cart) => void) {
  const [hold, setHold] = useState(first);
  const [released, setReleased] = useState(false);
  const releasedText = useRef<HTMLParagraphElement>(null);

  // A hold stops counting at its end: the lines can be changed again from then on.
  useEffect(() => {
    if (!hold) return;
    const left = Date.parse(hold.expiresAt) - Date.now();
    const timer = window.setTimeout(() => setHold(null), Math.max(0, left));
    return () => window.clearTimeout(timer);
  }, [hold]);

  useEffect(() => {
    if (released) releasedText.current?.focus();
  }, [released]);

  const release = async () => {
    try {
      await releaseHold();
      onCart(await loadCart());
      setHold(null);
      setReleased(true);
    } catch {
      // The page stays as it was; the button can be pressed again, and works without script.
    }
  };

  return { hold, setHold, released, releasedText, release };
}

/**
 * The cart's own delivery verdict at the visitor's postal code (spec §8): asked again whenever
 * the lines or their quantities change, and shown by the delivery check, so the area's answer and
 * the lines' availability agree.
 */
function useDeliveryVerdict(postalCode: string, cart: Cart): DeliveryVerdict | null {
  const lines = cart.lineItems.map((line) => `${line.code}:${line.quantity}`).join(',');
  const [verdict, setVerdict] = useState<DeliveryVerdict | null>(null);
  useEffect(() => {
    const code = normalisePostalCode(postalCode);
    if (!POSTAL_CODE_PATTERN.test(code) || lines === '') {
      setVerdict(null);
      return;
    }
    let current = true;
    cartDeliveryDates(code).then(
      (answer) => current && setVerdict({ postalCode: code, answer }),
      () => current && setVerdict({ postalCode: code, answer: null }),
    );
    return () => {
      current = false;
    };
  }, [postalCode, lines]);
  return verdict;
}

/**
 * The cart page's items (`/ostoskori#tuotteet`, spec §2): each line with its quantity control and
 * the product's delivery dates for the visitor's postal code, the summary, the coupon box, the
 * link back to the products and the step to the order details. Rendered with the page, so the
 * items and sums show before (and without) JavaScript.
 */
export function CartPage(props: CartPageProps) {
  const t = useT();
  const [cart, setCart] = useState(props.cart);
  const [announcement, setAnnouncement] = useState('');
  const [postalCode, setPostalCode] = useState('');
  const headingId = useId();
  const hydrated = useHydrated();
  const { shopper, customer, onCustomer } = useShopper(props.shopper);
  // The notice of a plain-form post shows until the cart changes here.
  const [notice, setNotice] = useState(props.form?.notice ?? null);
  const { hold, setHold, released, releasedText, release } = useCartHold(
    props.hold ?? null,
    setCart,
  );
  const empty = cart.lineItems.length === 0;
  const emptyText = useFocusWhenEmptied(empty);
  // The lines read only while the cart holds a delivery time (decision 101).
  const locked = !cart.isEditable && hold !== null && !empty;
  const verdict = useDeliveryVerdict(postalCode, cart);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the cart the visitor came to see, once
  useEffect(() => {
    pushViewCart(props.cart);
  }, []);

  const onCart = useCallback(
    (next: Cart) => {
      setCart(next);
      setNotice(null);
      // A change of the cart lets its hold go (decision 027).
      if (next.isEditable) setHold(null);
    },
    [setHold],
  );

  // One postal-code check on the page: while the login view shows its own (spec §2: not logged
  // in, or no delivery postal code), the cart's check steps aside. Without script the view is
  // always on the page, with script while `#kirjaudu` is open.
  const [loginViewOpen, setLoginViewOpen] = useState(false);
  const loginViewChecks =
    !empty && (!shopper.loggedIn || !shopper.postalCode) && (!hydrated || loginViewOpen);

  return (
    <div className={empty ? styles.cartPageEmpty : styles.cartPage} id="tuotteet">
      <section aria-labelledby={headingId} className={styles.cartItems}>
        <h2 id={headingId} className="visually-hidden">
          {t('shop.cart.items')}
        </h2>
        {released ? (
          <p ref={releasedText} tabIndex={-1} className={styles.cartNote} data-cart-unlocked>
            {t('shop.cart.unlocked')}
          </p>
        ) : null}
        {locked && hold ? (
          <CartLockedNotice
            hold={hold}
            token={props.form?.token}
            hydrated={hydrated}
            onRelease={release}
          />
        ) : null}
        {empty ? (
          <EmptyCart textRef={emptyText} />
        ) : (
          <CartLinesForm
            cart={cart}
            token={props.form?.token}
            notice={notice}
            editable={!locked}
            postalCode={postalCode}
            onCart={onCart}
            announce={setAnnouncement}
            hydrated={hydrated}
          />
        )}
        <p className="visually-hidden" role="status" aria-live="polite">
          {announcement}
        </p>
      </section>
      {empty ? null : (
        <CartSide
          cart={cart}
          onCart={onCart}
          form={props.form}
          // The login view's check stands in for the cart's own while it shows.
          deliveryCheck={
            loginViewChecks ? null : (
              <DeliveryCheck onPostalCode={setPostalCode} verdict={verdict} />
            )
          }
          detailsHref={toDetailsHref(shopper)}
        />
      )}
      {empty ? null : (
        <LoginView
          shopper={shopper}
          checkedPostalCode={postalCode}
          onPostalCode={setPostalCode}
          verdict={verdict}
          onOpen={setLoginViewOpen}
          hydrated={hydrated}
        />
      )}
      {hydrated && shopper.loggedIn ? (
        <CartAddressModal cartLoaded customer={customer} onCustomer={onCustomer} />
      ) : null}
    </div>
  );
}

/**
 * The shopper as the page's customer-dependent parts see them: everything follows an address
 * saved on the page (the address modal's `onCustomer`).
 */
function useShopper(initial: CartPageProps['shopper']) {
  const [shopper, setShopper] = useState(initial ?? { loggedIn: false, postalCode: '' });
  const [customer, setCustomer] = useCustomer();
  const onCustomer = (saved: NonNullable<typeof customer>) => {
    setCustomer(saved);
    setShopper({
      loggedIn: saved.loggedIn,
      postalCode: saved.loggedIn ? saved.deliveryAddress.postalCode : '',
    });
  };
  return { shopper, customer, onCustomer };
}

/** The last line removed: the focus goes to what the cart now says (its button is gone). */
function useFocusWhenEmptied(empty: boolean) {
  const text = useRef<HTMLParagraphElement>(null);
  const hadLines = useRef(!empty);
  useEffect(() => {
    if (empty && hadLines.current) text.current?.focus();
    hadLines.current = !empty;
  }, [empty]);
  return text;
}

/** An empty cart says so and offers the way back to the products, nothing else. */
function EmptyCart(props: { textRef: RefObject<HTMLParagraphElement | null> }) {
  const t = useT();
  return (
    <div className={styles.emptyCart}>
      <p ref={props.textRef} tabIndex={-1} className={styles.empty}>
        {t('shop.cart.empty')}
      </p>
      <a href="/tuotteet" className={styles.primary}>
        {t('shop.cart.continue')}
      </a>
    </div>
  );
}

/** Beside the lines: the sums, the code boxes, the delivery check and the ways on. */
function CartSide(props: {
  cart: Cart;
  onCart(cart: Cart): void;
  form: CartFormProps | undefined;
  deliveryCheck: ReactNode;
  detailsHref: string;
}) {
  const t = useT();
  const { cart, onCart } = props;
  return (
    <aside className={styles.cartSide}>
      <CartSummary cart={cart} />
      <CouponBox couponCodes={cart.couponCodes} onCart={onCart} form={props.form} />
      <GiftCardBox giftCards={cart.giftCards} onCart={onCart} form={props.form} />
      {props.deliveryCheck}
      <div className={styles.cartActions}>
        <a href={props.detailsHref} className={styles.primary} data-to-details>
          {t('shop.cart.toDetails')}
        </a>
        <a href="/tuotteet" className={styles.secondary}>
          {t('shop.cart.continue')}
        </a>
      </div>
    </aside>
  );
}

/**
 * The lines: without script a plain form (decision 022) whose buttons post; with it the lines
 * change in place. The notice of the last post shows above them.
 */
function CartLinesForm(props: {
  cart: Cart;
  token: string | undefined;
  notice: CartNotice | null;
  editable: boolean;
  postalCode: string;
  onCart(cart: Cart): void;
  announce(text: string): void;
  hydrated: boolean;
}) {
  const t = useT();
  const { cart, notice } = props;
  return (
    <form
      method="post"
      action={CART_FORM_PATH}
      className={formStyles.cartForm}
      onSubmit={(event) => event.preventDefault()}
    >
      <XsrfField token={props.token} />
      {/* The form's default button: Enter in a quantity field sends the update, also when
          the island's script failed to load (then the <noscript> button is not there). */}
      <button type="submit" name="action" value="update" hidden tabIndex={-1} />
      {/* Shown after the lines (cart-form.module.css). */}
      <noscript>
        <button type="submit" name="action" value="update" className={styles.secondary}>
          {t('shop.cart.update')}
        </button>
      </noscript>
      <CartNoticeBox
        notice={notice}
        names={new Map(cart.lineItems.map((line) => [line.code, line.name]))}
      />
      <ul className={styles.lines}>
        {cart.lineItems.map((line) => (
          <CartLine
            key={line.code}
            line={line}
            editable={props.editable}
            postalCode={props.postalCode}
            onCart={props.onCart}
            announce={props.announce}
            hydrated={props.hydrated}
            typed={notice?.typed?.[line.code]}
          />
        ))}
      </ul>
    </form>
  );
}

/**
 * A cart that holds a delivery time (decision 101): what is held and until when, the way on to
 * the payment step, and a button that lets the hold go so the lines can be changed (with script
 * in place, without it a plain form post).
 */
function CartLockedNotice(props: {
  hold: CartHold;
  token: string | undefined;
  hydrated: boolean;
  onRelease(): Promise<void>;
}) {
  const t = useT();
  const { hold } = props;
  const [busy, setBusy] = useState(false);
  const until = Number.isNaN(Date.parse(hold.expiresAt))
    ? ''
    : clockFormat.format(new Date(hold.expiresAt));
  const onwards = hold.postalCode
    ? checkoutUrl(hold.postalCode, STEPS.payment)
    : `${CHECKOUT_PAGE_PATH}#${STEPS.payment}`;
  return (
    <div className={styles.lockedNotice} data-cart-locked>
      <p>{t('shop.cart.locked', { label: hold.label, until })}</p>
      <div className={styles.lockedActions}>
        <a href={onwards} className={styles.primary}>
          {t('shop.cart.toPayment')}
        </a>
        <form
          method="post"
          action={CART_FORM_PATH}
          onSubmit={(event) => {
            if (!props.hydrated) return;
            event.preventDefault();
            if (busy) return;
            setBusy(true);
            void props.onRelease().finally(() => setBusy(false));
          }}
        >
          <XsrfField token={props.token} />
          <button
            type="submit"
            name={ACTION_FIELD}
            value={CART_ACTIONS.releaseHold}
            className={styles.secondary}
            aria-disabled={busy || undefined}
          >
            {t('shop.cart.unlock')}
          </button>
        </form>
      </div>
    </div>
  );
}

/**
 * The login view `#kirjaudu` (spec §2): the login and register links only for visitors (with
 * `paluu` back to the checkout), the postal-code check when not logged in or without a delivery
 * postal code, and with a postal code the way on to the checkout's delivery step. Without script
 * the check is a plain form that opens the checkout with the typed postal code.
 */
function LoginView(props: {
  shopper: { loggedIn: boolean; postalCode: string };
  /** A postal code the delivery check accepted on this page (or remembered), '' for none. */
  checkedPostalCode: string;
  onPostalCode(postalCode: string): void;
  /** The cart's delivery verdict at that postal code (see `DeliveryCheck`). */
  verdict: DeliveryVerdict | null;
  /** Told whether the view shows (with script: the hash is `#kirjaudu`). */
  onOpen(open: boolean): void;
  hydrated: boolean;
}) {
  const t = useT();
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [shown, setShown] = useState(true);
  const postalInput = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const { loggedIn } = props.shopper;
  const postalCode = props.shopper.postalCode || props.checkedPostalCode;
  const { onOpen } = props;
  const back = postalCode ? checkoutUrl(postalCode) : `/ostoskori#${LOGIN_VIEW}`;

  // With script the view shows when the hash asks for it, and takes the focus.
  useEffect(() => {
    const follow = (focus: boolean) => {
      const wanted = window.location.hash === `#${LOGIN_VIEW}`;
      setShown(wanted);
      onOpen(wanted);
      if (wanted && focus) window.setTimeout(() => heading.current?.focus(), 0);
    };
    follow(false);
    const onHash = () => follow(true);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [onOpen]);

  return (
    <section
      id={LOGIN_VIEW}
      className={checkoutStyles.loginView}
      aria-labelledby={`${id}-h`}
      hidden={props.hydrated && !shown}
    >
      <h2 id={`${id}-h`} ref={heading} tabIndex={-1}>
        {t('checkout.login.title')}
      </h2>
      {loggedIn ? null : (
        <>
          <p>{t('checkout.login.intro')}</p>
          <div className={checkoutStyles.loginLinks}>
            <a href={withReturn(LOGIN_PAGE, back)} className={styles.primary} data-login>
              {t('checkout.login.login')}
            </a>
            <a href={withReturn(REGISTER_PAGE, back)} className={styles.secondary} data-register>
              {t('checkout.login.register')}
            </a>
          </div>
        </>
      )}
      {!loggedIn || !props.shopper.postalCode ? (
        props.hydrated ? (
          // Rendered only while the view shows; the cart's own check is away meanwhile.
          shown ? (
            <DeliveryCheck onPostalCode={props.onPostalCode} verdict={props.verdict} />
          ) : null
        ) : (
          <form method="get" action={CHECKOUT_PAGE_PATH} className={checkoutStyles.postalForm}>
            <label htmlFor={`${id}-pc`}>{t('shop.delivery.postalCode')}</label>
            <PostalCodeInput
              id={`${id}-pc`}
              inputRef={postalInput}
              value={typed}
              onChange={setTyped}
              invalid={false}
              describedBy={undefined}
            />
            <button type="submit" className={styles.secondary}>
              {t('checkout.login.toCheckout')}
            </button>
          </form>
        )
      ) : null}
      {loggedIn && postalCode ? (
        <p>
          <a href={checkoutUrl(postalCode)} className={styles.primary} data-to-checkout>
            {t('checkout.login.continue', { postalCode })}
          </a>
        </p>
      ) : null}
    </section>
  );
}

export function CartSummary(props: { cart: Cart }) {
  const t = useT();
  const lang = useLang();
  const { cart } = props;
  const id = useId();
  const discount = centsOfMoney(cart.orderDiscount) ?? 0;
  // What the gift cards pay and what is left to pay (the checkout's summary shows them too).
  const giftCards = centsOfMoney(cart.usedGiftCardAmount) ?? 0;
  return (
    <section aria-labelledby={id} className={styles.summary}>
      <h2 id={id}>{t('shop.cart.summary')}</h2>
      <dl className={styles.sums} aria-live="polite">
        <dt>{t('shop.cart.subTotal')}</dt>
        <dd data-sum="subTotal">{money(cart.subTotal)}</dd>
        {discount !== 0 ? (
          <>
            <dt>{t('shop.cart.orderDiscount')}</dt>
            <dd data-sum="orderDiscount">-{money(cart.orderDiscount.replace(/^-/, ''))}</dd>
          </>
        ) : null}
        <dt>{t('shop.cart.shipping')}</dt>
        <dd data-sum="shippingTotal">{money(cart.shippingTotal)}</dd>
        {cart.vatTotal !== null ? (
          <>
            <dt>
              {cart.vatPercent !== null
                ? t('shop.cart.vatPercent', { percent: formatNumber(cart.vatPercent, lang) })
                : t('shop.cart.vat')}
            </dt>
            <dd data-sum="vatTotal">{money(cart.vatTotal)}</dd>
          </>
        ) : null}
        <dt className={styles.totalTerm}>{t('shop.cart.total')}</dt>
        <dd data-sum="total" className={styles.totalValue}>
          {money(cart.total)}
        </dd>
        {giftCards !== 0 ? (
          <>
            <dt>{t('shop.cart.giftCards')}</dt>
            <dd data-sum="usedGiftCardAmount">{`-${money(cart.usedGiftCardAmount)}`}</dd>
            <dt className={styles.payableTerm}>{t('shop.cart.payable')}</dt>
            <dd className={styles.payableValue} data-sum="payable">
              {formatPrice(payableCents(cart))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

interface CartLineProps {
  line: LineItem;
  editable: boolean;
  postalCode: string;
  onCart(cart: Cart): void;
  announce(text: string): void;
  /** False until the island runs: the buttons submit the plain form until then. */
  hydrated: boolean;
  /** The quantity as typed in a refused plain-form post. */
  typed?: string | undefined;
}

/**
 * A line's quantity as the shopper changes it: a change waits 1 s for the next one, then goes as
 * one request, while which the line is busy. The cart's warnings of the answer are kept; a failure
 * puts the server's quantity back and says so (with the most the shop has, when that refused it).
 */
function useLineQuantity(props: CartLineProps) {
  const t = useT();
  const { line } = props;
  const [value, setValue] = useState(props.typed ?? String(line.quantity));
  const [busy, setBusy] = useState(false);
  /** The popover's state: closed, or open with the most the shop has (a refusal beyond stock). */
  const [failed, setFailed] = useState<false | { max?: number }>(false);
  /** The warnings of the last change's answer, joined by commas; null when there were none. */
  const [warning, setWarning] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(timer.current), []);
  useEffect(() => {
    if (!busy) setValue(String(line.quantity));
  }, [line.quantity, busy]);

  const send = async (quantity: number) => {
    window.clearTimeout(timer.current);
    if (quantity === line.quantity) return;
    setBusy(true);
    setFailed(false);
    props.announce(t('shop.cart.updating'));
    try {
      const cart = await changeQuantity(line.code, quantity);
      // What the cart now holds: the server may have set less than was typed (decision 100).
      const now = cart.lineItems.find((item) => item.code === line.code);
      const delta = (now?.quantity ?? 0) - line.quantity;
      if (delta !== 0) {
        pushEcommerce(delta > 0 ? 'add_to_cart' : 'remove_from_cart', [
          lineItem(now ?? line, cart.couponCodes, Math.abs(delta)),
        ]);
      }
      const warnings = [...cart.warnings, ...cart.checkoutWarnings].join(', ');
      setWarning(warnings || null);
      props.onCart(cart);
      props.announce(warnings || t('shop.cart.updated'));
    } catch (error) {
      setValue(String(line.quantity));
      setFailed({
        max: error instanceof ShopApiError && error.status === 409 ? error.maxQuantity : undefined,
      });
      props.announce('');
    } finally {
      setBusy(false);
    }
  };

  const schedule = (next: string) => {
    setValue(next);
    setFailed(false);
    setWarning(null);
    window.clearTimeout(timer.current);
    const trimmed = next.trim();
    if (!/^\d{1,3}$/.test(trimmed)) return;
    // As typed: more than the line may hold is set to what it may hold by the server, which
    // says so (decision 100).
    const quantity = Number(trimmed);
    timer.current = window.setTimeout(() => void send(quantity), QUANTITY_DEBOUNCE_MS);
  };

  const current = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : line.quantity;
  return { value, busy, failed, setFailed, warning, send, schedule, current };
}

/**
 * One line: − / quantity / + and remove. A change waits 1 s for the next one, then goes as one
 * request; while it runs the control is locked. 0 removes the line. The cart's warnings (a
 * quantity beyond the stock set to the stock, decision 100) show under the line, joined by
 * commas, instead of 'Ostoskori päivitetty.' (spec §8). A failure puts the server's quantity back
 * and opens a popover with 'Tapahtui virhe päivitettäessä lukumäärää.'
 */
function CartLine(props: CartLineProps) {
  const t = useT();
  const lang = useLang();
  const { line } = props;
  const id = useId();
  const quantity = useLineQuantity(props);
  const { failed, warning } = quantity;
  const input = useRef<HTMLInputElement>(null);
  const errorId = `${id}-error`;
  const warningId = `${id}-warning`;
  const describedBy = [failed ? errorId : '', warning ? warningId : ''].filter(Boolean).join(' ');
  const dismiss = () => {
    quantity.setFailed(false);
    if (!input.current?.closest('li')?.contains(document.activeElement)) input.current?.focus();
  };
  return (
    <li
      className={styles.line}
      data-code={line.code}
      aria-busy={quantity.busy}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && failed) {
          event.preventDefault();
          dismiss();
        }
      }}
    >
      {line.imageUrl ? <img src={line.imageUrl} alt="" className={styles.lineImage} /> : null}
      <div className={styles.lineBody}>
        <a href={line.url} className={styles.lineName}>
          {line.name}
        </a>
        <span className={styles.unitPrice}>
          {t('shop.cart.unitPrice', { price: money(line.unitPrice) })}
        </span>
        <div className={styles.lineControls}>
          <QuantityControls
            props={props}
            quantity={quantity}
            input={input}
            inputId={`${id}-q`}
            describedBy={describedBy || undefined}
          />
          {failed ? (
            <div id={errorId} className={styles.popover} role="alert">
              <span>
                {t('shop.cart.quantityError')}
                {failed.max !== undefined
                  ? ` ${t('shop.quantity.tooMany', { max: failed.max })}`
                  : ''}
              </span>
              <button
                type="button"
                className={styles.popoverClose}
                aria-label={t('shop.modal.close')}
                onClick={() => {
                  quantity.setFailed(false);
                  input.current?.focus();
                }}
              >
                ×
              </button>
            </div>
          ) : null}
        </div>
        {warning ? (
          <p id={warningId} className={styles.lineWarning} data-line-warning>
            {warning}
          </p>
        ) : null}
        <LineAvailability
          productId={line.productId}
          postalCode={props.postalCode}
          lang={lang}
          quantity={line.quantity}
        />
      </div>
      <span className={styles.linePrice} data-line-price>
        {money(line.linePrice)}
      </span>
    </li>
  );
}

/**
 * − / quantity / + and ×. Before the island runs they are the plain form's buttons and field;
 * while a change runs the buttons are only marked unavailable (not disabled), so the one that was
 * pressed keeps the focus through the request and its failure.
 */
function QuantityControls(props: {
  props: CartLineProps;
  quantity: ReturnType<typeof useLineQuantity>;
  input: RefObject<HTMLInputElement | null>;
  inputId: string;
  describedBy: string | undefined;
}) {
  const t = useT();
  const { line, hydrated, editable } = props.props;
  const { value, busy, failed, current, schedule, send } = props.quantity;
  const max = Math.max(line.maxQuantity, line.quantity);
  const locked = busy || !editable;
  return (
    <>
      <label htmlFor={props.inputId} className="visually-hidden">
        {t('shop.cart.quantityOf', { name: line.name })}
      </label>
      <div className={styles.stepper}>
        <button
          {...submitButton(hydrated, `set:${line.code}:${Math.max(0, current - 1)}`)}
          className={styles.stepButton}
          aria-label={`${t('shop.buy.decrease')}, ${line.name}`}
          disabled={!editable || current <= 0}
          aria-disabled={busy || undefined}
          onClick={() => !busy && schedule(String(Math.max(0, current - 1)))}
        >
          −
        </button>
        <input
          ref={props.input}
          id={props.inputId}
          name={quantityField(line.code)}
          className={styles.quantityInput}
          type="number"
          inputMode="numeric"
          min={0}
          max={max}
          step={1}
          value={value}
          readOnly={locked}
          aria-describedby={props.describedBy}
          aria-invalid={failed ? true : undefined}
          onChange={(event) => schedule(event.target.value)}
        />
        <span className={styles.unit}>{t('shop.buy.unit')}</span>
        <button
          {...submitButton(hydrated, `set:${line.code}:${Math.min(max, current + 1)}`)}
          className={styles.stepButton}
          aria-label={`${t('shop.buy.increase')}, ${line.name}`}
          disabled={!editable || current >= max}
          aria-disabled={busy || undefined}
          onClick={() => !busy && schedule(String(Math.min(max, current + 1)))}
        >
          +
        </button>
      </div>
      <button
        {...submitButton(hydrated, `set:${line.code}:0`)}
        className={styles.removeButton}
        disabled={!editable}
        aria-disabled={busy || undefined}
        onClick={() => !busy && void send(0)}
      >
        <span aria-hidden="true">×</span>
        <span className="visually-hidden">{t('shop.cart.remove', { name: line.name })}</span>
      </button>
    </>
  );
}
