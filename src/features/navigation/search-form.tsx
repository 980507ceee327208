import { type Ref, useId } from 'react';
import { useT } from '../../i18n/react.tsx';
import { Icon } from './icons.tsx';
import styles from './search-form.module.css';

/**
 * The site search box: a GET form to the language's search page with `q`, so it works before any
 * script runs. `compact` is the 216 px box of the sticky desktop bar, with an icon button.
 */
export function SearchForm(props: {
  action: string;
  /** Name of the search landmark and label of the box. */
  label: string;
  showLabel?: boolean;
  compact?: boolean;
  className?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const t = useT();
  const id = useId();
  return (
    // biome-ignore lint/a11y/useSemanticElements: a search landmark also where <search> is unknown
    <form
      role="search"
      aria-label={props.label}
      action={props.action}
      method="get"
      className={`${styles.form} ${props.compact ? styles.compact : ''} ${props.className ?? ''}`}
    >
      <label htmlFor={id} className={props.showLabel ? styles.label : 'visually-hidden'}>
        {props.label}
      </label>
      <span className={styles.field}>
        <input
          ref={props.inputRef}
          id={id}
          className={styles.input}
          type="search"
          name="q"
          placeholder={t('search.placeholder')}
          autoComplete="off"
          enterKeyHint="search"
          // Tools and browser extensions style search boxes before hydration (a hidden caret,
          // autofill colours); that must not count as a mismatch of the server's markup.
          suppressHydrationWarning
        />
        <button type="submit" className={styles.button}>
          {props.compact ? (
            <>
              <Icon name="search" size={20} />
              <span className="visually-hidden">{t('search.button')}</span>
            </>
          ) : (
            t('search.button')
          )}
        </button>
      </span>
    </form>
  );
}
