import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../i18n/react.tsx';
import {
  checkAreaAvailability,
  POSTAL_CODE_EVENT,
  rememberedPostalCode,
  rememberPostalCode,
  ShopApiError,
} from './api.ts';
import { PostalCodeCheck } from './postal-code-check.tsx';
import type { DeliveryDates } from './schemas.ts';
import styles from './shop.module.css';
import { normalisePostalCode, POSTAL_CODE_PATTERN } from './values.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'available'; postalCode: string }
  | { kind: 'notAvailable' }
  | { kind: 'unrecognised' }
  | { kind: 'error' };

/** sessionStorage key: the visitor hid the sticky bar in this tab's session (spec §4). */
export const STICKY_HIDDEN_KEY = 'shop.deliveryBarHidden';

/**
 * The cart's delivery answer (`checkout/delivery`) at a postal code; `answer` null when it could
 * not be had.
 */
export interface DeliveryVerdict {
  postalCode: string;
  answer: DeliveryDates | null;
}

export interface DeliveryCheckProps {
  /**
   * Called with the postal code once the area is found to be delivered to, and with '' when a
   * later check finds no delivered area (the page's other checks then drop the old code's result).
   */
  onPostalCode?(postalCode: string): void;
  /**
   * On the cart page: the cart's own delivery answer at the postal code the page uses (null
   * until there is one). The check's result then agrees with the lines: when some of them cannot
   * come to the area, or it has no free time, the answer's message (which says what to do)
   * stands instead of the positive text; when they only share no date, after it.
   */
  verdict?: DeliveryVerdict | null;
}

/**
 * The delivery-area check (spec §4, §8): idle, available, not available, or an error. A code the
 * area check takes is remembered in the `lkPostalCode` cookie for 7 days and announced to the
 * page's other shop widgets.
 */
export function DeliveryCheck(props: DeliveryCheckProps) {
  const t = useT();
  const id = useId();
  const [value, setValue] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  const { onPostalCode } = props;

  useEffect(() => {
    const remembered = rememberedPostalCode();
    if (remembered) {
      setValue(remembered);
      onPostalCode?.(remembered);
    }
  }, [onPostalCode]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.kind === 'checking') return;
    const postalCode = normalisePostalCode(value);
    if (!POSTAL_CODE_PATTERN.test(postalCode)) {
      setState({ kind: 'unrecognised' });
      onPostalCode?.('');
      input.current?.focus();
      return;
    }
    setState({ kind: 'checking' });
    try {
      if (await checkAreaAvailability(postalCode)) {
        setState({ kind: 'available', postalCode });
        rememberPostalCode(postalCode);
        onPostalCode?.(postalCode);
        window.dispatchEvent(new CustomEvent(POSTAL_CODE_EVENT, { detail: postalCode }));
      } else {
        setState({ kind: 'notAvailable' });
        onPostalCode?.('');
      }
    } catch (error) {
      onPostalCode?.('');
      setState({
        kind: error instanceof ShopApiError && error.status === 400 ? 'unrecognised' : 'error',
      });
      input.current?.focus();
    }
  };

  // On the cart page, the cart's verdict at the code this check accepted, or at the remembered
  // code it was opened with (the lines show their availability at it).
  const shownCode =
    state.kind === 'available'
      ? state.postalCode
      : state.kind === 'idle'
        ? normalisePostalCode(value)
        : '';
  const cartMode = props.verdict !== undefined;
  const verdict =
    cartMode && shownCode !== '' && props.verdict?.postalCode === shownCode ? props.verdict : null;
  return (
    <PostalCodeCheck
      id={id}
      className={styles.deliveryCheck}
      heading={t('shop.delivery.heading')}
      label={t('shop.delivery.postalCode')}
      inputRef={input}
      value={value}
      onChange={setValue}
      invalid={state.kind === 'unrecognised' || state.kind === 'error'}
      busy={state.kind === 'checking'}
      answered={state.kind !== 'idle'}
      onSubmit={submit}
      submitText={
        state.kind === 'checking' ? t('shop.delivery.checking') : t('shop.delivery.check')
      }
      submitProps={{
        disabled: value.trim() === '',
        'aria-disabled': state.kind === 'checking' || undefined,
      }}
    >
      {cartMode && (state.kind === 'available' || state.kind === 'idle') ? (
        <CartVerdict verdict={verdict} />
      ) : state.kind === 'available' ? (
        <p className={styles.positive}>
          {t('shop.delivery.available', { postalCode: state.postalCode })}
        </p>
      ) : state.kind === 'notAvailable' ? (
        <p className={styles.statusError}>{t('shop.delivery.notAvailable')}</p>
      ) : state.kind === 'unrecognised' ? (
        <p className={styles.statusError}>{t('shop.delivery.unrecognised')}</p>
      ) : state.kind === 'error' ? (
        <p className={styles.statusError}>{t('shop.delivery.error')}</p>
      ) : null}
    </PostalCodeCheck>
  );
}

/**
 * The cart page's answer at a postal code: nothing until the cart's verdict is there (so the
 * area's answer never contradicts the lines for a moment), then the positive text, or the
 * verdict's message instead of it (some lines cannot come, or no free time) or after it (the
 * lines share no date). A verdict that could not be had leaves the area's positive text.
 */
function CartVerdict(props: { verdict: DeliveryVerdict | null }) {
  const t = useT();
  const { verdict } = props;
  if (!verdict) return null;
  const { answer, postalCode } = verdict;
  if (answer && !answer.isAvailable) {
    return <p className={styles.statusError}>{t('shop.delivery.notAvailable')}</p>;
  }
  const positive = (
    <p className={styles.positive}>{t('shop.delivery.available', { postalCode })}</p>
  );
  if (!answer?.message) return positive;
  const message = <p className={styles.statusError}>{answer.message}</p>;
  return answer.reason === 'noCommonDate' ? (
    <>
      {positive}
      {message}
    </>
  ) : (
    message
  );
}

/**
 * The island: the check in a bar that stays at the bottom of the screen (its `sticky` form), which
 * the visitor can hide for the rest of the tab's session, or the check in the page's flow.
 */
/** The custom property `global.css` adds to the page's bottom scroll padding. */
const STICKY_FOOTER_PROPERTY = '--sticky-footer-height';

export function DeliveryCheckIsland(props: { sticky: boolean }) {
  const t = useT();
  const id = useId();
  // Hidden until hydrated: the stored choice is known only in the browser.
  const [hidden, setHidden] = useState(true);
  const [open, setOpen] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!props.sticky) return;
    let stored: string | null = null;
    try {
      stored = window.sessionStorage.getItem(STICKY_HIDDEN_KEY);
    } catch {
      // storage refused: show the bar
    }
    setHidden(stored === '1');
  }, [props.sticky]);

  // The page keeps its focus targets clear of the bar (global.css adds this to the page's scroll
  // padding), as it does for the sticky header.
  useEffect(() => {
    const bar = barRef.current;
    if (!props.sticky || hidden || !bar) return;
    const root = document.documentElement;
    const publish = () =>
      root.style.setProperty(STICKY_FOOTER_PROPERTY, `${Math.ceil(bar.offsetHeight)}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty(STICKY_FOOTER_PROPERTY);
    };
  }, [props.sticky, hidden]);

  if (!props.sticky) return <DeliveryCheck />;
  if (hidden) return null;
  const hide = () => {
    try {
      window.sessionStorage.setItem(STICKY_HIDDEN_KEY, '1');
    } catch {
      // storage refused: hidden for this page only
    }
    setHidden(true);
  };
  return (
    <div ref={barRef} className={styles.stickyBar} data-open={open || undefined}>
      <div className={styles.stickyRow}>
        <button
          type="button"
          className={styles.stickyToggle}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((o) => !o)}
        >
          {t('shop.delivery.stickyOpen')}
        </button>
        <button
          type="button"
          className={styles.removeButton}
          aria-label={t('shop.delivery.stickyHide')}
          onClick={hide}
        >
          ×
        </button>
      </div>
      <div id={`${id}-panel`} hidden={!open} className={styles.stickyPanel}>
        {open ? <DeliveryCheck /> : null}
      </div>
    </div>
  );
}
