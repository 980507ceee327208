import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { formatDate } from '../../i18n/format.ts';
import { useLang, useT } from '../../i18n/react.tsx';
import type { Lang } from '../../sites/types.ts';
import {
  checkAreaAvailability,
  POSTAL_CODE_EVENT,
  productDeliveryAvailability,
  rememberedPostalCode,
  rememberPostalCode,
  ShopApiError,
} from './api.ts';
import { PostalCodeCheck } from './postal-code-check.tsx';
import type { ProductAvailability } from './schemas.ts';
import styles from './shop.module.css';
import { FEW_IN_STOCK, normalisePostalCode, POSTAL_CODE_PATTERN } from './values.ts';

type Result =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'invalid' }
  | { kind: 'notDelivered' }
  | { kind: 'none' }
  | { kind: 'dates'; postalCode: string; times: ProductAvailability['deliveryTimes'] }
  | { kind: 'error' };

/** What the product's availability is at a postal code (spec §4): four outcomes and failure. */
async function availabilityAt(productId: number, postalCode: string): Promise<Result> {
  try {
    if (!(await checkAreaAvailability(postalCode))) return { kind: 'notDelivered' };
    const { deliveryTimes } = await productDeliveryAvailability(productId, postalCode);
    return deliveryTimes.length === 0
      ? { kind: 'none' }
      : { kind: 'dates', postalCode, times: deliveryTimes };
  } catch (error) {
    return error instanceof ShopApiError && error.status === 400
      ? { kind: 'invalid' }
      : { kind: 'error' };
  }
}

function DateList(props: { times: ProductAvailability['deliveryTimes']; lang: Lang }) {
  const t = useT();
  return (
    <ul className={styles.dates}>
      {props.times.map((time) => (
        <li key={time.date}>
          <span>{formatDate(time.date, props.lang)}</span>{' '}
          <span className={styles.dateStock}>
            {time.stock !== null && time.stock < FEW_IN_STOCK
              ? t('shop.availability.only', { count: time.stock })
              : t('shop.availability.many')}
          </span>
        </li>
      ))}
    </ul>
  );
}

function ResultText(props: { result: Result; lang: Lang }) {
  const t = useT();
  const { result } = props;
  switch (result.kind) {
    case 'invalid':
      return <p className={styles.statusError}>{t('shop.availability.invalid')}</p>;
    case 'notDelivered':
      return <p className={styles.statusError}>{t('shop.availability.notDelivered')}</p>;
    case 'none':
      return <p className={styles.statusError}>{t('shop.availability.none')}</p>;
    case 'error':
      return <p className={styles.statusError}>{t('shop.availability.error')}</p>;
    case 'dates':
      return (
        <>
          <p className={styles.positive}>
            {t('shop.availability.datesFor', { postalCode: result.postalCode })}
          </p>
          <DateList times={result.times} lang={props.lang} />
        </>
      );
    default:
      return null;
  }
}

/** The product page's check: the product's delivery dates at a postal code, with what is left. */
export function AvailabilityCheck(props: { productId: number }) {
  const t = useT();
  const lang = useLang();
  const id = useId();
  const [value, setValue] = useState('');
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    setValue((v) => v || rememberedPostalCode());
    const onCode = (event: Event) => setValue((event as CustomEvent<string>).detail);
    window.addEventListener(POSTAL_CODE_EVENT, onCode);
    return () => window.removeEventListener(POSTAL_CODE_EVENT, onCode);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (result.kind === 'checking') return;
    const postalCode = normalisePostalCode(value);
    if (!POSTAL_CODE_PATTERN.test(postalCode)) {
      setResult({ kind: 'invalid' });
      input.current?.focus();
      return;
    }
    setResult({ kind: 'checking' });
    const next = await availabilityAt(props.productId, postalCode);
    setResult(next);
    if (next.kind === 'dates' || next.kind === 'none') rememberPostalCode(postalCode);
    if (next.kind === 'invalid' || next.kind === 'error') input.current?.focus();
  };

  return (
    <PostalCodeCheck
      id={id}
      className={styles.availability}
      heading={t('shop.availability.heading')}
      label={t('shop.availability.label')}
      inputRef={input}
      value={value}
      onChange={setValue}
      invalid={result.kind === 'invalid'}
      busy={result.kind === 'checking'}
      answered={result.kind !== 'idle'}
      onSubmit={submit}
      submitText={t('shop.availability.check')}
    >
      <ResultText result={result} lang={lang} />
    </PostalCodeCheck>
  );
}

/**
 * A cart line's delivery availability at the visitor's postal code, once one is known: the first
 * dates that have the line's whole quantity; none such reads as no availability.
 */
export function LineAvailability(props: {
  productId: number;
  postalCode: string;
  lang: Lang;
  quantity: number;
}) {
  const [result, setResult] = useState<Result>({ kind: 'idle' });
  const { productId, postalCode } = props;
  useEffect(() => {
    const code = normalisePostalCode(postalCode);
    if (!POSTAL_CODE_PATTERN.test(code)) {
      setResult({ kind: 'idle' });
      return;
    }
    let current = true;
    setResult({ kind: 'checking' });
    void availabilityAt(productId, code).then((next) => {
      if (current) setResult(next);
    });
    return () => {
      current = false;
    };
  }, [productId, postalCode]);
  if (result.kind === 'idle' || result.kind === 'checking') return null;
  let shown: Result = result;
  if (result.kind === 'dates') {
    const fits = result.times.filter((time) => time.stock === null || time.stock >= props.quantity);
    shown = fits.length === 0 ? { kind: 'none' } : { ...result, times: fits.slice(0, 3) };
  }
  return (
    <div className={styles.lineAvailability} data-availability={shown.kind}>
      <ResultText result={shown} lang={props.lang} />
    </div>
  );
}
