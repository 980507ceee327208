import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import { type AnalyticsItem, lineItem, productItem, pushEcommerce } from './analytics.ts';
import { addToCart } from './api.ts';
import type { CartSyncConfig } from './cart-sync/site-cart.ts';
import styles from './shop.module.css';
import {
  ACTION_FIELD,
  ADD_QUANTITY_FIELD,
  addAction,
  CART_FORM_PATH,
  MAX_QUANTITY,
  MIN_QUANTITY,
} from './values.ts';

/**
 * The spec's buy control allows 100 (§5), but one line of the cart holds at most `MAX_QUANTITY`
 * (99): the control offers no more than the cart takes, nor more than the stock.
 */
export const BUY_CONTROL_MAX = Math.min(100, MAX_QUANTITY);

export interface BuyControlProps {
  code: string;
  name: string;
  category: string | null;
  /** Money of the contract (`12,90`), for analytics. */
  price: string | null;
  svhPrice: string | null;
  /** null: no limit; 0: sold out (the control is not offered). */
  stock: number | null;
  /** Smaller, for cards. */
  compact?: boolean;
  /**
   * Where the form goes without script, when not to the shop's cart: a content card's control
   * names its product's page. Without it the shop's own controls post `add:<code>` to the cart
   * page's plain form (decision 055); a brand site's (`sync`) stays on the page.
   */
  action?: string;
  /** Push `view_item` once hydrated: the control stands on the product's own page or modal. */
  viewItem?: boolean;
  /**
   * On a brand site that sells through the shop: the shop frame to add through (cart sync, spec
   * §4). Without it the control adds with the shop's cart API directly.
   */
  sync?: CartSyncConfig | null;
}

/**
 * How an add reaches the shop: resolves with the cart's warnings and, where the answer has it,
 * the `add_to_cart` item made from the cart's line of the product; throws when refused or lost.
 */
type AddTransport = (
  code: string,
  quantity: number,
) => Promise<{ warnings: string[]; item: AnalyticsItem | null }>;

/**
 * On the shop: its cart API (the header's badge follows through the cart event). The event's
 * item is the cart's line, as the cart page's own events are, so an add reads the same from a
 * product page, a card or the modal, with the product's category.
 */
const shopApi: AddTransport = async (code, quantity) => {
  const cart = await addToCart(code, quantity);
  const line = cart.lineItems.find((item) => item.code === code);
  return {
    warnings: [...cart.warnings, ...cart.checkoutWarnings],
    item: line ? lineItem(line, cart.couponCodes, quantity) : null,
  };
};

/**
 * The cart sync with the shop frame, only on the brand sites that sell through the shop: the
 * shop's own product pages do not load it (their buy control hydrates on load).
 */
const siteCart = () => import('./cart-sync/site-cart.ts');

/** On a brand site: a message to the shop frame, which adds with the cart API in its session. */
const shopFrame: AddTransport = async (code, quantity) => {
  const { addThroughShop } = await siteCart();
  const outcome = await addThroughShop(code, quantity);
  if (!outcome.ok) throw new Error('the shop refused the add or did not answer');
  return { warnings: outcome.warnings, item: null };
};

type Status =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'added'; warnings: string[] }
  | { kind: 'error' };

/**
 * Quantity (min 1, max 99, step 1, 'kpl') and 'Lisää ostoskoriin' (spec §5, §8). The control is
 * locked while its request runs, so a double click adds once. On success it says so, or shows the
 * cart's warnings joined by commas instead; a failure shows 'Tapahtui virhe'. The header's badge
 * follows through the cart event (`announceCart`).
 */
export function BuyControl(props: BuyControlProps) {
  const t = useT();
  const id = useId();
  const max = props.stock === null ? BUY_CONTROL_MAX : Math.min(BUY_CONTROL_MAX, props.stock);
  const [value, setValue] = useState('1');
  const [invalid, setInvalid] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const running = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  const item = () =>
    productItem({
      code: props.code,
      name: props.name,
      category: props.category,
      price: props.price,
      svhPrice: props.svhPrice,
    });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per product shown
  useEffect(() => {
    if (props.viewItem) pushEcommerce('view_item', [item()]);
  }, [props.viewItem, props.code]);
  useEffect(() => {
    const sync = props.sync;
    if (sync) void siteCart().then(({ connectCartSync }) => connectCartSync(sync));
  }, [props.sync]);
  const add = props.sync ? shopFrame : shopApi;

  if (max < MIN_QUANTITY) return null;

  const quantity = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  const valid = quantity >= MIN_QUANTITY && quantity <= max;
  const busy = status.kind === 'busy';

  const step = (delta: number) => {
    const base = Number.isNaN(quantity) ? MIN_QUANTITY : quantity;
    setValue(String(Math.min(max, Math.max(MIN_QUANTITY, base + delta))));
    setInvalid(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (running.current) return;
    if (!valid) {
      setInvalid(true);
      input.current?.focus();
      return;
    }
    running.current = true;
    setInvalid(false);
    setStatus({ kind: 'busy' });
    try {
      const { warnings, item: added } = await add(props.code, quantity);
      setStatus({ kind: 'added', warnings });
      pushEcommerce('add_to_cart', [added ?? { ...item(), quantity }]);
    } catch {
      setStatus({ kind: 'error' });
    } finally {
      running.current = false;
    }
  };

  const errorId = `${id}-error`;
  const statusText =
    status.kind === 'added'
      ? status.warnings.length > 0
        ? status.warnings.join(', ')
        : t('shop.buy.added')
      : status.kind === 'error'
        ? t('shop.buy.error')
        : '';
  return (
    <form
      className={props.compact ? `${styles.buy} ${styles.buyCompact}` : styles.buy}
      {...(props.action
        ? { action: props.action }
        : props.sync
          ? {}
          : { method: 'post', action: CART_FORM_PATH })}
      onSubmit={submit}
      noValidate
      aria-busy={busy}
    >
      {props.action || props.sync ? null : (
        <input type="hidden" name={ACTION_FIELD} value={addAction(props.code)} />
      )}
      <QuantityStepper
        id={id}
        inputRef={input}
        value={value}
        max={max}
        busy={busy}
        invalid={invalid}
        canDecrease={!(valid && quantity <= MIN_QUANTITY)}
        canIncrease={!(valid && quantity >= max)}
        onValue={(next) => {
          setValue(next);
          setInvalid(false);
        }}
        onStep={step}
      />
      {invalid ? (
        <p id={errorId} className={styles.fieldError}>
          {t('shop.buy.range', { min: MIN_QUANTITY, max })}
        </p>
      ) : null}
      <button type="submit" className={styles.primary} aria-disabled={busy || undefined}>
        {busy ? t('shop.buy.adding') : t('shop.buy.add')}
      </button>
      <p
        className={status.kind === 'error' ? styles.statusError : styles.status}
        role="status"
        aria-live="polite"
      >
        {statusText}
      </p>
    </form>
  );
}

/** The quantity: its label, and the field between − and + with its unit. */
function QuantityStepper(props: {
  id: string;
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  max: number;
  busy: boolean;
  invalid: boolean;
  canDecrease: boolean;
  canIncrease: boolean;
  onValue: (value: string) => void;
  onStep: (delta: number) => void;
}) {
  const t = useT();
  return (
    <div className={styles.quantityRow}>
      <label htmlFor={`${props.id}-q`} className={styles.quantityLabel}>
        {t('shop.buy.quantity')}
      </label>
      <div className={styles.stepper}>
        <button
          type="button"
          className={styles.stepButton}
          aria-label={t('shop.buy.decrease')}
          onClick={() => props.onStep(-1)}
          disabled={props.busy || !props.canDecrease}
        >
          −
        </button>
        <input
          ref={props.inputRef}
          id={`${props.id}-q`}
          name={ADD_QUANTITY_FIELD}
          className={styles.quantityInput}
          type="number"
          inputMode="numeric"
          min={MIN_QUANTITY}
          max={props.max}
          step={1}
          value={props.value}
          readOnly={props.busy}
          aria-invalid={props.invalid || undefined}
          aria-describedby={
            props.invalid ? `${props.id}-error ${props.id}-unit` : `${props.id}-unit`
          }
          onChange={(event) => props.onValue(event.target.value)}
        />
        <span id={`${props.id}-unit`} className={styles.unit}>
          {t('shop.buy.unit')}
        </span>
        <button
          type="button"
          className={styles.stepButton}
          aria-label={t('shop.buy.increase')}
          onClick={() => props.onStep(1)}
          disabled={props.busy || !props.canIncrease}
        >
          +
        </button>
      </div>
    </div>
  );
}
