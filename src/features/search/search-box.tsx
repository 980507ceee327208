import type { Ref } from 'react';
import { useT } from '../../i18n/react.tsx';
import styles from './search-box.module.css';

/**
 * The query field and its 'Hae' button of a search page's form (the site search, the facet
 * searches), labelled for screen readers; the form around it is the page's.
 */
export function SearchBox(props: {
  id: string;
  label: string;
  placeholder: string;
  query: string;
  onQuery: (query: string) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** More of the field's own class (its width on the page). */
  className?: string;
  /** A name and value the submit button sends with the term (a choice to keep without script). */
  submit?: { name: string; value: string };
}) {
  const t = useT();
  return (
    <>
      <label htmlFor={props.id} className="visually-hidden">
        {props.label}
      </label>
      <span className={props.className ? `${styles.field} ${props.className}` : styles.field}>
        <input
          ref={props.inputRef}
          id={props.id}
          className={styles.input}
          type="search"
          name="q"
          value={props.query}
          onChange={(event) => props.onQuery(event.target.value)}
          placeholder={props.placeholder}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className={styles.button} {...props.submit}>
          {t('search.button')}
        </button>
      </span>
    </>
  );
}

/**
 * 'Näytä lisää': a link to the next page of results, which with script loads it in place
 * (`onMore`); `busy` marks it while a page loads.
 */
export function MoreResults(props: { href: string; onMore: () => void; busy?: boolean }) {
  const t = useT();
  return (
    <a
      href={props.href}
      className={styles.more}
      aria-disabled={props.busy || undefined}
      onClick={(event) => {
        event.preventDefault();
        props.onMore();
      }}
    >
      {t('search.showMore')}
    </a>
  );
}
