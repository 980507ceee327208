import { useEffect, useId, useMemo, useState } from 'react';
import { useLang, useT } from '../../../i18n/react.tsx';
import type { MessageKey } from '../../../i18n/translate.ts';
import { PRODUCTS_PATH } from '../forms.ts';
import { PRODUCT_FILTER_MIN, type ProductListItem } from '../schemas.ts';
import { getJson } from './api.ts';
import { ErrorText, Label } from './field-base.tsx';
import styles from './forms.module.css';

const SHOWN = 100;
const cache = new Map<string, Promise<ProductListItem[]>>();

function loadProducts(language: string): Promise<ProductListItem[]> {
  let products = cache.get(language);
  if (!products) {
    products = getJson<ProductListItem[]>(`${PRODUCTS_PATH}?language=${language}`);
    products.catch(() => cache.delete(language));
    cache.set(language, products);
  }
  return products;
}

/** A query of 1 or 2 characters: too short to filter by (the hint asks for 3). */
export function tooShortToFilter(query: string): boolean {
  const length = query.trim().length;
  return length > 0 && length < PRODUCT_FILTER_MIN;
}

/**
 * The products a query offers: every one for an empty query (the list opened to browse it), none
 * for a query too short to filter by, else those whose title contains it, case-insensitively.
 */
export function filterProducts(products: ProductListItem[], query: string): ProductListItem[] {
  const q = query.trim().toLowerCase();
  if (q.length === 0) return products;
  if (tooShortToFilter(q)) return [];
  return products.filter((p) => p.title.toLowerCase().includes(q));
}

/**
 * A combobox over the site's products: closed or open, loading while the list loads, filtering
 * from 3 characters (1 or 2 typed show no list, only the hint that asks for 3; an empty field
 * opens on the arrow keys to the whole list), clearable back to productId 0 and an empty title.
 */
export function ProductSelect(props: {
  id: string;
  label: string;
  required: boolean;
  value: ProductListItem;
  onChange: (value: ProductListItem) => void;
  error: MessageKey | undefined;
  inputRef?: (element: HTMLInputElement | null) => void;
}) {
  const t = useT();
  const listId = `${useId().replace(/[^\w-]/g, '')}-products`;
  const { products, failed, ensureLoaded } = useProducts();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState(props.value.title);
  const [active, setActive] = useState(-1);

  useEffect(() => setQuery(props.value.title), [props.value.title]);

  const typed = query === props.value.title ? '' : query;
  const tooShort = tooShortToFilter(typed);
  const matches = useMemo(
    () => filterProducts(products ?? [], typed).slice(0, SHOWN),
    [products, typed],
  );

  const choose = (item: ProductListItem) => {
    props.onChange(item);
    setQuery(item.title);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      ensureLoaded();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => Math.max(0, Math.min(matches.length - 1, i + step)));
    } else if (event.key === 'Enter' && open && active >= 0 && matches[active]) {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  const expanded = open && !tooShort && (products !== undefined || !failed);
  const describedBy = [props.error ? `${props.id}-error` : '', `${props.id}-hint`]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={styles.field}>
      <Label htmlFor={props.id} text={props.label} required={props.required} />
      <div className={styles.combobox}>
        <div className={styles.comboRow}>
          <input
            id={props.id}
            ref={props.inputRef}
            className={styles.input}
            type="text"
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={
              expanded && active >= 0 ? `${listId}-${matches[active]?.productId}` : undefined
            }
            aria-required={props.required || undefined}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={describedBy}
            aria-busy={open && !products && !failed ? true : undefined}
            value={query}
            onFocus={ensureLoaded}
            onChange={(event) => {
              ensureLoaded();
              setQuery(event.target.value);
              setOpen(true);
              setActive(-1);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              setOpen(false);
              setQuery(props.value.title);
            }}
          />
          {props.value.productId !== 0 || props.value.title ? (
            <button
              type="button"
              className={styles.secondary}
              onClick={() => choose({ productId: 0, title: '' })}
            >
              {t('form.product.clear')}
            </button>
          ) : null}
        </div>
        <p id={`${props.id}-hint`} className={styles.hint} aria-live="polite">
          {open && !products && !failed
            ? t('form.product.loading')
            : open && products && !tooShort && matches.length === 0
              ? t('form.product.noMatches')
              : t('form.product.placeholder')}
        </p>
        <ProductListbox
          listId={listId}
          label={props.label}
          hidden={!expanded || matches.length === 0}
          matches={matches}
          active={active}
          onChoose={choose}
        />
      </div>
      <ErrorText id={`${props.id}-error`} error={props.error} />
    </div>
  );
}

/** The site's products, asked for once the field is used (`ensureLoaded`). */
function useProducts() {
  const lang = useLang();
  const [products, setProducts] = useState<ProductListItem[] | undefined>();
  const [failed, setFailed] = useState(false);
  const ensureLoaded = () => {
    if (products || failed) return;
    loadProducts(lang === 'sv' ? 'se' : lang)
      .then(setProducts)
      .catch(() => setFailed(true));
  };
  return { products, failed, ensureLoaded };
}

/**
 * The combobox's listbox (ARIA 1.2): focus stays in the input, options are reached with
 * aria-activedescendant; a press on one chooses it without taking focus from the input.
 */
function ProductListbox(props: {
  listId: string;
  label: string;
  hidden: boolean;
  matches: ProductListItem[];
  active: number;
  onChoose: (item: ProductListItem) => void;
}) {
  const { listId } = props;
  return (
    <div
      id={listId}
      role="listbox"
      className={styles.listbox}
      hidden={props.hidden}
      aria-label={props.label}
    >
      {props.matches.map((item, index) => (
        <div
          key={item.productId}
          tabIndex={-1}
          id={`${listId}-${item.productId}`}
          role="option"
          aria-selected={index === props.active}
          onMouseDown={(event) => {
            event.preventDefault();
            props.onChoose(item);
          }}
        >
          {item.title}
        </div>
      ))}
    </div>
  );
}
