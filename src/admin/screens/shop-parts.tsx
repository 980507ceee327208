import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Button } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import styles from '../admin.module.css';
import { ApiError, get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, ErrorSummary, Field, LiveStatus, useFieldErrors } from '../ui.tsx';

/** What a change said: done (read out politely) or refused as things stood (an alert). */
export type Said = { text: string; alert: boolean } | null;

/** An error the form found itself, shown as the server's would be (by field, as message keys). */
export const formErrors = (errors: Record<string, string>) =>
  new ApiError(400, '/problems/validation', errors, null);

/**
 * A form's change on the server. `check` finds the fields' errors before anything is sent;
 * `done` says what changed, `conflict` what a 409 said (after reading the data again: someone
 * or an order changed it since it was shown). Other errors are the form's `error`.
 */
export function useChange() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(null);
  const run = async (change: {
    check?: () => Record<string, string>;
    send: () => Promise<unknown>;
    done: () => Promise<string> | string;
    conflict: () => Promise<string> | string;
  }) => {
    if (pending) return;
    setSaid(null);
    setError(null);
    const errors = change.check?.() ?? {};
    if (Object.keys(errors).length > 0) {
      setError(formErrors(errors));
      return;
    }
    setPending(true);
    try {
      await change.send();
      setSaid({ text: await change.done(), alert: false });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        setSaid({ text: await change.conflict(), alert: true });
      } else setError(e);
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, setError, said, setSaid };
}

/** What a change said: a live status when it was done, an alert when it was refused. */
export function SaidText({ said }: { said: Said }) {
  return (
    <>
      <LiveStatus text={said?.alert ? null : said?.text} />
      {said?.alert ? (
        <p role="alert" className={styles.errorSummary}>
          {said.text}
        </p>
      ) : null}
    </>
  );
}

export const SHOP_PAGE_SIZE = 50;

/** The previous and next pages of a list whose offset is in the URL's query. */
export function ListPages({
  offset,
  total,
  params,
}: {
  offset: number;
  total: number;
  params: URLSearchParams;
}) {
  const { t } = useT();
  if (total <= SHOP_PAGE_SIZE && offset === 0) return null;
  const at = (to: number) => {
    const next = new URLSearchParams(params);
    if (to > 0) next.set('offset', String(to));
    else next.delete('offset');
    return `?${next}`;
  };
  const pages = Math.max(1, Math.ceil(total / SHOP_PAGE_SIZE));
  const page = Math.min(pages, Math.floor(offset / SHOP_PAGE_SIZE) + 1);
  return (
    <nav aria-label={t('admin.orders.pages')} className={styles.pager}>
      {offset > 0 ? (
        <Link to={at(Math.max(0, offset - SHOP_PAGE_SIZE))} className={styles.secondary}>
          {t('admin.orders.previous')}
        </Link>
      ) : null}
      <span>{t('admin.orders.page', { page, pages })}</span>
      {offset + SHOP_PAGE_SIZE < total ? (
        <Link to={at(offset + SHOP_PAGE_SIZE)} className={styles.secondary}>
          {t('admin.orders.next')}
        </Link>
      ) : null}
    </nav>
  );
}

/** The offset of a list's URL query (a page of 50). */
export const offsetOf = (params: URLSearchParams) => {
  const n = Number(params.get('offset') ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
};

/** The list screens searched by text, by the name of their texts and their address. */
export type SearchedScreen = 'catalogue' | 'coupons' | 'customers';

/** A searched list's head: what went wrong reading it, the search, and how many it has. */
export function SearchedListHead({
  screen,
  q,
  list,
  onSearch,
}: {
  screen: SearchedScreen;
  q: string;
  list: { error: unknown; isError: boolean; data?: { total: number } | undefined };
  onSearch: (text: string) => void;
}) {
  const { t } = useT();
  const errors = useFieldErrors(list.error);
  const invalid = Object.keys(errors).length > 0;
  const total = list.data?.total;
  return (
    <>
      <ErrorSummary error={invalid ? list.error : null} />
      <TextSearch
        q={q}
        errors={errors}
        text={(name) => t(`admin.${screen}.${name}`)}
        clearTo={`/${screen}`}
        onSearch={onSearch}
      />
      {list.isError && !invalid ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{total === undefined ? '' : t(`admin.${screen}.count`, { count: total })}</p>
    </>
  );
}

/** The texts of a list's text search: the form's name, the field's label and hint, its buttons. */
export type SearchText = (name: 'filters' | 'search' | 'searchHint' | 'apply' | 'clear') => string;

/**
 * A list's text search (`q` in the address): submitting sets it, an empty text clears it (the
 * link to `clearTo`). The form is made again for each `q`, so the field shows the search the list
 * shows.
 */
export function TextSearch({
  q,
  errors = {},
  text,
  clearTo,
  onSearch,
}: {
  q: string;
  errors?: Record<string, string>;
  text: SearchText;
  clearTo: string;
  onSearch: (text: string) => void;
}) {
  return (
    <AdminForm
      key={q}
      errors={errors}
      role="search"
      aria-label={text('filters')}
      className={styles.filters}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(String(new FormData(event.currentTarget).get('q') ?? '').trim());
      }}
    >
      <Field
        name="q"
        type="search"
        label={text('search')}
        description={text('searchHint')}
        defaultValue={q}
      />
      <div className={styles.actions}>
        <Button type="submit" className={styles.secondary}>
          {text('apply')}
        </Button>
        {q ? <Link to={clearTo}>{text('clear')}</Link> : null}
      </div>
    </AdminForm>
  );
}
/**
 * A column of a `RowsTable`: its heading (each cell's label too, on a phone), its cell, and what
 * it holds where that changes how it is drawn: `numbers` (set right, to be read down the column),
 * an `amount` of money (kept on one line), or a row's `actions` (its heading for screen readers
 * only, and no label on a phone, where the buttons say what they do).
 */
export type Column<Row> = [
  heading: string,
  cell: (row: Row) => ReactNode,
  holds?: 'numbers' | 'amount' | 'actions',
];

/** A captioned table of rows, or one line saying there are none. */
export function RowsTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  hiddenCaption = false,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  /** What the table says when it has no rows. */
  empty?: string;
  /** The caption for screen readers only, where a heading above already says it. */
  hiddenCaption?: boolean;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={hiddenCaption ? styles.srOnly : styles.caption}>{caption}</caption>
        <thead>
          <tr>
            {columns.map(([heading, , holds]) => (
              <th
                key={heading}
                scope="col"
                className={holds === 'numbers' ? styles.number : undefined}
              >
                {holds === 'actions' ? <span className={styles.srOnly}>{heading}</span> : heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty ? (
            <tr>
              <td colSpan={columns.length}>{empty}</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map(([heading, cell, holds]) => (
                  <td
                    key={heading}
                    data-label={holds === 'actions' ? undefined : heading}
                    className={
                      holds === 'numbers'
                        ? styles.number
                        : holds === 'amount'
                          ? styles.amount
                          : undefined
                    }
                  >
                    {cell(row)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A list screen's rows: searched by `q` and paged by `offset` in the address, read from `api`
 * and kept under `name` (any list of that name is read again after a change).
 */
export function useSearchedList<List>(name: string, api: string) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const offset = offsetOf(params);
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (offset) query.set('offset', String(offset));
  const key = [name, query.toString()];
  const list = useQuery({
    queryKey: key,
    queryFn: () => get<List>(`${api}?${query}`),
    placeholderData: keepPreviousData,
  });
  /** The list read again: it as it now is. */
  const reread = async () => {
    await client.invalidateQueries({ queryKey: [name] });
    return client.getQueryData<List>(key);
  };
  const search = (text: string) => setParams(text ? { q: text } : {});
  return { q, offset, params, list, reread, search };
}
