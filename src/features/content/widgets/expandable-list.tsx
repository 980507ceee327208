import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import styles from './widgets.module.css';

/** Spec shop-and-widgets §9: 9 shown at first, 5 more per click. */
export const LIST_INITIAL = 9;
export const LIST_STEP = 5;

export interface ExpandableListProps {
  header?: string;
  items: { text: string; link?: string }[];
}

/**
 * A list shown 9 items at a time, 5 more per click; focus moves to the first new item, so a
 * keyboard or screen reader user goes on reading where the list grew. Every item is in the
 * server's HTML and shown there, so the list is whole without script.
 */
export function ExpandableList(props: ExpandableListProps) {
  const t = useT();
  const id = useId();
  // The server (and a page without script) shows every item; the island collapses to 9.
  const [shown, setShown] = useState(props.items.length);
  useEffect(() => setShown(Math.min(LIST_INITIAL, props.items.length)), [props.items.length]);
  const focusIndex = useRef<number | null>(null);
  const itemRefs = useRef<(HTMLLIElement | null)[]>([]);
  useEffect(() => {
    if (focusIndex.current === null) return;
    itemRefs.current[focusIndex.current]?.focus();
    focusIndex.current = null;
  });
  const total = props.items.length;
  return (
    <section
      className={`container ${styles.blockSpacing}`}
      aria-labelledby={props.header ? `${id}h` : undefined}
    >
      {props.header ? <h2 id={`${id}h`}>{props.header}</h2> : null}
      <ul className={styles.expandList} id={`${id}list`}>
        {props.items.map((item, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a static list in its own order
            key={index}
            hidden={index >= shown}
            tabIndex={index >= LIST_INITIAL ? -1 : undefined}
            ref={(el) => {
              itemRefs.current[index] = el;
            }}
          >
            {item.link ? <a href={item.link}>{item.text}</a> : item.text}
          </li>
        ))}
      </ul>
      {shown < total ? (
        <div className={styles.moreRow}>
          <button
            type="button"
            className={styles.button}
            aria-controls={`${id}list`}
            onClick={() => {
              focusIndex.current = shown;
              setShown(Math.min(total, shown + LIST_STEP));
            }}
          >
            {t('widgets.list.more')}
          </button>
        </div>
      ) : null}
      <p className="visually-hidden" aria-live="polite">
        {t('widgets.list.shown', { shown: String(shown), total: String(total) })}
      </p>
    </section>
  );
}
