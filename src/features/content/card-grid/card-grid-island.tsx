import { type RefObject, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import type { CardType } from '../blocks.ts';
import { staticCard, useCardView } from '../components/card-view.tsx';
import { fetchFilteredCards } from './api.ts';
import styles from './card-grid.module.css';
import {
  type ColumnSetting,
  columnsAt,
  columnsByTier,
  columnsOfTemplate,
  hasMoreRows,
  INITIAL_ROWS,
  type Tier,
  visibleCount,
} from './layout.ts';
import type { CardDto, DropdownItem } from './schemas.ts';

export interface CardGridProps {
  header?: string;
  /** 2, 3 or 4 columns at most; otherwise by screen size (4, 3, 2, 1). */
  columns?: ColumnSetting;
  cardType: CardType;
  cards: CardDto[];
  /** The filter: its label and choices (a choice's cards come from `/api/filtered-cards`). */
  dropdown?: { label: string; items: DropdownItem[] };
  /** Two rows at first and an expand button for the rest; otherwise every card shows. */
  expandable: boolean;
}

type Status = 'idle' | 'loading' | 'done' | 'error';

const moreClass: Record<Tier, string | undefined> = {
  xs: styles.moreXs,
  sm: styles.moreSm,
  md: styles.moreMd,
  lg: styles.moreLg,
};

/**
 * The card grid (spec §2): optional header and dropdown filter, rows of cards, two rows at first
 * and 'Näytä lisää' revealing one row at a time, columns by the block's setting or the screen.
 *
 * The server renders every card. Until the island has measured the grid, CSS hides the cards
 * after two rows at each width, and the expand control is a link to the list: without script
 * (or before hydration) following it makes the list the page's target, which shows every card.
 * A link rather than showing everything without script keeps the first view the same for
 * everyone and costs nothing. Once hydrated, the island counts the columns the browser actually
 * lays out and hides the same cards itself, so nothing moves; from then on the control is a
 * button that reveals one row and moves focus to the row's first card.
 */
export function CardGridIsland(props: CardGridProps) {
  const t = useT();
  const Card = useCardView();
  const id = `cards-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const listRef = useRef<HTMLUListElement>(null);
  const [rows, setRows] = useState(INITIAL_ROWS);
  const focusIndex = useRef<number | null>(null);
  const setting = props.columns;
  const columns = useGridColumns(listRef, id, setting, setRows);
  const filter = useFilteredCards(props.cards, props.cardType, () => setRows(INITIAL_ROWS));
  const { cards, status } = filter;

  // After a row is revealed (any render may be that one), focus its first card's link.
  useEffect(() => {
    const index = focusIndex.current;
    if (index === null) return;
    focusIndex.current = null;
    listRef.current?.children[index]?.querySelector<HTMLElement>('a[href]')?.focus();
  });

  const expand = () => {
    if (columns === null) return;
    focusIndex.current = visibleCount(rows, columns, cards.length);
    setRows((r) => r + 1);
  };

  const collapsed = props.expandable && columns === null;
  const shown =
    props.expandable && columns !== null ? visibleCount(rows, columns, cards.length) : cards.length;
  const colsClass = setting ? styles[`cols${setting}`] : styles.colsAuto;

  return (
    <section
      className={`container ${styles.section}`}
      {...(props.header ? { 'aria-labelledby': `${id}-heading` } : {})}
    >
      {props.header || props.dropdown ? <CardGridHead {...props} id={id} filter={filter} /> : null}
      {status === 'error' ? (
        <div className={styles.error}>
          <p>{t('cardGrid.error')}</p>
          <button
            type="button"
            className={styles.retry}
            onClick={() => filter.choose(filter.selected)}
          >
            {t('cardGrid.retry')}
          </button>
        </div>
      ) : null}
      <ul
        id={id}
        ref={listRef}
        className={`${styles.grid} ${colsClass ?? ''} ${collapsed ? styles.collapsed : ''}`}
        aria-busy={status === 'loading'}
      >
        {cards.map((card, index) => (
          <li key={card.link} hidden={index >= shown}>
            <Card card={card} />
          </li>
        ))}
      </ul>
      {props.expandable ? (
        <ExpandControl
          id={id}
          setting={setting}
          columns={columns}
          rows={rows}
          count={cards.length}
          onExpand={expand}
        />
      ) : null}
    </section>
  );
}

/**
 * The columns the browser lays the list out in, followed as it resizes; null until measured (the
 * server's and hydration's render). A visitor who followed the no-script link before hydrating
 * sees every card already: the rows are made endless for them.
 */
function useGridColumns(
  listRef: RefObject<HTMLUListElement | null>,
  id: string,
  setting: ColumnSetting | undefined,
  setRows: (rows: number) => void,
): number | null {
  const [columns, setColumns] = useState<number | null>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const measure = () =>
      setColumns(
        columnsOfTemplate(getComputedStyle(list).gridTemplateColumns) ??
          columnsAt(window.innerWidth, setting),
      );
    measure();
    // Followed the no-script link before hydrating: the list shows every card already.
    if (window.location.hash === `#${id}`) setRows(Number.POSITIVE_INFINITY);
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    return () => observer.disconnect();
  }, [listRef, id, setting, setRows]);
  return columns;
}

/**
 * The cards of the filter's choice: the block's own for 'all', another choice's asked from
 * `/api/filtered-cards` (a newer choice aborts the request in flight). `onNewCards` runs when
 * other cards are shown.
 */
function useFilteredCards(initial: CardDto[], cardType: CardType, onNewCards: () => void) {
  const [cards, setCards] = useState(initial);
  const [selected, setSelected] = useState('');
  const [status, setStatus] = useState<Status>('idle');
  const inFlight = useRef<AbortController | undefined>(undefined);

  useEffect(() => () => inFlight.current?.abort(), []);

  const load = async (itemId: number) => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setStatus('loading');
    try {
      // Cards the server did not render need the card's code (see `staticCard`).
      const [next] = await Promise.all([
        fetchFilteredCards(itemId, cardType, controller.signal),
        staticCard.load(),
      ]);
      if (controller.signal.aborted) return;
      setCards(next);
      onNewCards();
      setStatus('done');
    } catch {
      if (controller.signal.aborted) return;
      setCards([]);
      setStatus('error');
    }
  };

  const choose = (value: string) => {
    setSelected(value);
    if (value === '') {
      inFlight.current?.abort();
      setCards(initial);
      onNewCards();
      setStatus('done');
      return;
    }
    void load(Number(value));
  };

  return { cards, selected, status, choose };
}

/** The grid's header and its filter with the filter's status. */
function CardGridHead(
  props: CardGridProps & { id: string; filter: ReturnType<typeof useFilteredCards> },
) {
  const t = useT();
  const { id, filter } = props;
  const { status, cards } = filter;
  const statusText =
    status === 'loading'
      ? t('cardGrid.loading')
      : status === 'error'
        ? t('cardGrid.error')
        : status === 'done'
          ? cards.length > 0
            ? t('cardGrid.count', { count: cards.length })
            : t('cardGrid.empty')
          : '';
  return (
    <div className={styles.head}>
      {props.header ? <h2 id={`${id}-heading`}>{props.header}</h2> : null}
      {props.dropdown ? (
        <div className={styles.filter}>
          <label htmlFor={`${id}-filter`}>{props.dropdown.label}</label>
          <select
            id={`${id}-filter`}
            className={styles.select}
            value={filter.selected}
            aria-controls={id}
            onChange={(event) => filter.choose(event.target.value)}
          >
            <option value="">{t('cardGrid.all')}</option>
            {props.dropdown.items.map((item) => (
              <option key={item.Id} value={String(item.Id)}>
                {item.Label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {props.dropdown ? (
        <p role="status" className={styles.status}>
          {statusText}
        </p>
      ) : null}
    </div>
  );
}

/**
 * 'Näytä lisää': before the grid is measured a link to the list, shown by CSS at the widths
 * where two rows do not hold every card; once measured a button that reveals one row.
 */
function ExpandControl(props: {
  id: string;
  setting: ColumnSetting | undefined;
  columns: number | null;
  rows: number;
  count: number;
  onExpand: () => void;
}) {
  const t = useT();
  const { id, columns } = props;
  if (columns === null) {
    const byTier = columnsByTier(props.setting);
    const tiers = (Object.keys(byTier) as Tier[]).filter((tier) =>
      hasMoreRows(INITIAL_ROWS, byTier[tier], props.count),
    );
    if (tiers.length === 0) return null;
    return (
      <div className={`${styles.moreRow} ${tiers.map((tier) => moreClass[tier]).join(' ')}`}>
        <a href={`#${id}`} className={styles.more}>
          {t('cardGrid.showMore')}
        </a>
      </div>
    );
  }
  if (!hasMoreRows(props.rows, columns, props.count)) return null;
  return (
    <div className={`${styles.moreRow} ${styles.moreRowLive}`}>
      <button type="button" className={styles.more} aria-controls={id} onClick={props.onExpand}>
        {t('cardGrid.showMore')}
      </button>
    </div>
  );
}
