import {
  type FocusEvent,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
  type RefObject,
  useEffect,
  useId,
  useRef,
} from 'react';
import { useT } from '../../i18n/react.tsx';
import { MIN_QUERY_LENGTH, siteSearchLink } from './params.ts';
import styles from './quick-search.module.css';
import type { SearchHit } from './schemas.ts';
import { type SuggestionStatus, useSuggestions } from './use-suggestions.ts';

export { SUGGESTIONS_PATH } from './use-suggestions.ts';

export type HitLayout = 'mobile' | 'quick' | 'full';

/** Page types whose thumbnails are packs on white: shown whole, not cropped. */
const PRODUCT_TYPES = new Set(['retail-product', 'broiler-product']);

/**
 * The header's search box with quick results (spec §2 Quick search, §4, §8): a GET form to the
 * search page with `q`, so Enter and the button work before any script runs. From three
 * characters on, suggestions are asked 500 ms after the last keystroke; a new request aborts the
 * one in flight (an aborted request is ignored and 'Etsitään...' stays until the new one answers).
 * The box is a combobox with a listbox of hits (WAI-ARIA combobox pattern); a live region tells
 * the number of hits. The first Escape closes the list and keeps the text (Enter then searches
 * it), a second one clears the box; only an Escape with nothing to close or clear reaches the
 * panel or menu around the box. The list also closes when focus leaves the form or on a press
 * outside, and Down Arrow opens it again. An empty box goes to the search page without `q`.
 *
 * `layout` (spec §2 hit layouts): 'mobile' shows title, category and teaser in a panel that
 * lies in the flow of the mobile search panel or side menu; 'quick' adds a thumbnail; 'full'
 * gives a wider panel with a larger thumbnail and the teaser in full. Thumbnails come in the
 * preset the server chose for the hit's page type (product-thumbnail-medium for retail and
 * broiler products, thumbnail-medium otherwise).
 */
export function QuickSearch(props: {
  /** The search page (`/haku`): where Enter, the button and 'see all results' go with `q`. */
  action: string;
  /** Name of the search landmark and label of the box. */
  label: string;
  showLabel?: boolean;
  /** The 216 px box of the sticky desktop bar, with an icon button. */
  compact?: boolean;
  className?: string;
  inputRef?: Ref<HTMLInputElement>;
  layout?: HitLayout;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const root = useRef<HTMLFormElement>(null);
  const suggestions = useSuggestions();
  const { query, status, result, hits, active, setActive, close } = suggestions;

  const open = status !== 'idle';
  const layout = props.layout ?? 'quick';
  useListEffects(root, suggestions, open, listId);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // The list (shown, loading or about to be asked) closes first and the text stays; then the
      // box clears. Either keeps the key from the panel or menu around the box, which an Escape
      // in an empty box closes.
      if (open || suggestions.pending()) close();
      else if (query) suggestions.setQuery('');
      else return;
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === 'ArrowDown' && !open && query.trim().length >= MIN_QUERY_LENGTH) {
      event.preventDefault();
      suggestions.askNow();
    } else if (event.key === 'ArrowDown' && hits.length) {
      event.preventDefault();
      setActive((i) => (i + 1) % hits.length);
    } else if (event.key === 'ArrowUp' && hits.length) {
      event.preventDefault();
      setActive((i) => (i <= 0 ? hits.length - 1 : i - 1));
    } else if (event.key === 'Enter' && active >= 0 && hits[active]) {
      event.preventDefault();
      window.location.assign(hits[active].url);
    }
  };

  // Focus leaving the form (Tab, Shift+Tab, a click on a link outside) closes the list, so it
  // never hides what has focus. Switching windows keeps it: the box still has focus there.
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    if (!next && !document.hasFocus()) return;
    close();
  };

  // The browser would send an empty `q=`: the search page is asked without it.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (query.trim()) return;
    event.preventDefault();
    close();
    window.location.assign(props.action);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a search landmark also where <search> is unknown
    <form
      ref={root}
      role="search"
      aria-label={props.label}
      action={props.action}
      method="get"
      className={`${styles.form} ${styles[layout] ?? ''} ${props.compact ? styles.compact : ''} ${props.className ?? ''}`}
      onBlur={onBlur}
      onSubmit={onSubmit}
    >
      <label htmlFor={id} className={props.showLabel ? styles.label : 'visually-hidden'}>
        {props.label}
      </label>
      <QuickSearchField
        id={id}
        listId={listId}
        inputRef={props.inputRef}
        compact={props.compact}
        query={query}
        onChange={suggestions.change}
        onKeyDown={onKeyDown}
        expanded={open && hits.length > 0}
        active={active}
      />
      <SuggestionPanel
        listId={listId}
        status={status}
        hits={hits}
        totalCount={result?.totalCount ?? hits.length}
        active={active}
        layout={layout}
        allResults={siteSearchLink(props.action, query)}
        onClose={close}
      />
    </form>
  );
}

/**
 * What the list does beside the keys: text typed before the box hydrated is asked for, a press
 * outside closes the list, and the option chosen with the arrows stays in view.
 */
function useListEffects(
  root: RefObject<HTMLFormElement | null>,
  suggestions: ReturnType<typeof useSuggestions>,
  open: boolean,
  listId: string,
) {
  const { change, close, active } = suggestions;
  // Text typed before the box hydrated (the header loads its code when the visitor reaches for
  // it, decision 160) is taken up as if typed now.
  const typedTaken = useRef(false);
  useEffect(() => {
    if (typedTaken.current) return;
    typedTaken.current = true;
    const typed = root.current?.querySelector<HTMLInputElement>('input[name="q"]')?.value ?? '';
    if (typed) change(typed);
  }, [change, root]);

  // A press outside closes the panel.
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, close, root]);

  // The option chosen with the arrows stays in view in a panel that scrolls.
  useEffect(() => {
    if (active >= 0)
      document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);
}

/** The combobox of the quick search and its submit button. */
function QuickSearchField(props: {
  id: string;
  listId: string;
  inputRef: Ref<HTMLInputElement> | undefined;
  compact: boolean | undefined;
  query: string;
  onChange: (value: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  expanded: boolean;
  active: number;
}) {
  const t = useT();
  return (
    <span className={styles.field}>
      <input
        ref={props.inputRef}
        id={props.id}
        className={styles.input}
        type="search"
        name="q"
        value={props.query}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyDown={props.onKeyDown}
        placeholder={t('search.placeholder')}
        autoComplete="off"
        enterKeyHint="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={props.expanded}
        aria-controls={props.listId}
        aria-activedescendant={props.active >= 0 ? `${props.listId}-${props.active}` : undefined}
        // Tools and browser extensions style search boxes before hydration (a hidden caret,
        // autofill colours); that must not count as a mismatch of the server's markup.
        suppressHydrationWarning
      />
      <button type="submit" className={styles.button}>
        {props.compact ? (
          <>
            <SearchIcon />
            <span className="visually-hidden">{t('search.button')}</span>
          </>
        ) : (
          t('search.button')
        )}
      </button>
    </span>
  );
}

/**
 * The live region that tells the number of suggestions, and their panel below the box: the
 * listbox, 'see all results' and 'close'.
 */
function SuggestionPanel(props: {
  listId: string;
  status: SuggestionStatus;
  hits: SearchHit[];
  totalCount: number;
  active: number;
  layout: HitLayout;
  allResults: string;
  onClose: () => void;
}) {
  const t = useT();
  const { listId, status, hits } = props;
  const announcement =
    status === 'loading'
      ? t('search.loading')
      : status === 'done'
        ? hits.length
          ? t('search.resultCount', { count: props.totalCount })
          : t('search.noResults')
        : '';
  return (
    <>
      <span role="status" className="visually-hidden">
        {announcement}
      </span>
      {/* A press in the panel keeps focus in the box (a link or button there still works), so
          the list does not close under the pointer. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: only keeps focus where it is */}
      <div
        className={styles.panel}
        hidden={status === 'idle'}
        onMouseDown={(event) => event.preventDefault()}
      >
        {status === 'loading' ? <p className={styles.message}>{t('search.loading')}</p> : null}
        {status === 'done' && hits.length === 0 ? (
          <p className={styles.message}>{t('search.noResults')}</p>
        ) : null}
        <div id={listId} role="listbox" aria-label={t('search.results')} className={styles.list}>
          {status === 'done'
            ? hits.map((hit, i) => (
                <Hit
                  key={`${hit.type}:${hit.contentId}`}
                  id={`${listId}-${i}`}
                  hit={hit}
                  active={i === props.active}
                  layout={props.layout}
                />
              ))
            : null}
        </div>
        {status === 'done' ? (
          <div className={styles.footer}>
            <a href={props.allResults} className={styles.all}>
              {t('search.showAll')}
            </a>
            <button type="button" className={styles.close} onClick={props.onClose}>
              {t('search.close')}
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}

function Hit(props: { id: string; hit: SearchHit; active: boolean; layout: HitLayout }) {
  const { hit } = props;
  const size = props.layout === 'full' ? 96 : 64;
  const thumbClass = `${styles.thumb} ${PRODUCT_TYPES.has(hit.type) ? styles.productThumb : ''}`;
  return (
    <a
      id={props.id}
      role="option"
      aria-selected={props.active}
      href={hit.url}
      tabIndex={-1}
      className={`${styles.hit} ${props.active ? styles.active : ''}`}
    >
      {props.layout === 'mobile' ? null : hit.image ? (
        <img className={thumbClass} src={hit.image} alt="" width={size} height={size} />
      ) : (
        <span className={thumbClass} />
      )}
      <span className={styles.text}>
        <span className={styles.title}>{hit.title}</span>
        {hit.category ? <span className={styles.category}>{hit.category}</span> : null}
        {hit.teaserText ? <span className={styles.teaser}>{hit.teaserText}</span> : null}
      </span>
    </a>
  );
}

function SearchIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="m15.5 15.5 5 5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}
