import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import type {
  Subscriber,
  SubscriberList,
  SUBSCRIBERS_API as SubscribersApi,
  SubscriptionStatus,
} from '../../features/subscriptions/admin.ts';
import styles from '../admin.module.css';
import { ApiError, download, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { SensitiveDownload } from '../reauth.tsx';
import { useMe } from '../session.tsx';
import {
  AdminForm,
  ChoiceSelect,
  DialogActions,
  ErrorSummary,
  Field,
  ModalDialog,
} from '../ui.tsx';
import { type Column, ListPages, offsetOf, RowsTable, type Said, SaidText } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const SUBSCRIBERS_API: typeof SubscribersApi = '/api/admin/subscribers';

const ANY = 'any';
const STATUSES: Record<SubscriptionStatus, null> = {
  pending: null,
  confirmed: null,
  unsubscribed: null,
};
const statuses = Object.keys(STATUSES) as SubscriptionStatus[];

/** A list's choice key: its site and name (`konsernifi newsreleases:PRM`). */
const listKey = (l: { siteId: string; list: string }) => `${l.siteId} ${l.list}`;

/** The query the API takes, from the screen's address. */
function apiQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of ['site', 'list', 'status', 'q', 'offset']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  return query;
}

/**
 * The marketing lists' subscribers (decision 158): chosen by site and list (newsletter,
 * news-release category, campaign list), status and a part of the address, 50 a page, each with
 * its consent record; the filtered list exported as CSV after re-authentication; an address taken
 * off its list on the person's behalf from a dialog, on the version shown (a change made
 * meanwhile is said, and the list read again). The filters are the address's query.
 */
export function SubscribersScreen() {
  const { t } = useT();
  const client = useQueryClient();
  const me = useMe().data;
  const [params, setParams] = useSearchParams();
  const offset = offsetOf(params);
  const query = apiQuery(params);
  const lists = useQuery({
    queryKey: ['subscriber-lists'],
    queryFn: () => get<{ lists: SubscriberList[] }>(`${SUBSCRIBERS_API}/lists`),
  });
  const list = useQuery({
    queryKey: ['subscribers', query.toString()],
    queryFn: () => get<{ subscribers: Subscriber[]; total: number }>(`${SUBSCRIBERS_API}?${query}`),
    placeholderData: keepPreviousData,
  });
  const [said, setSaid] = useState<Said>(null);
  const [error, setError] = useState<unknown>(null);
  /** The subscriber whose row takes the focus once the list is read again after a change. */
  const [focusId, setFocusId] = useState<number | null>(null);
  const tableRef = useRef<HTMLDivElement>(null);
  const listName = useListName();
  const mayExport = me?.permissions.includes('subscribers.export') ?? false;
  const mayManage = me?.permissions.includes('subscribers.manage') ?? false;

  useEffect(() => {
    if (focusId === null || list.isFetching) return;
    tableRef.current?.querySelector<HTMLElement>(`[data-subscriber="${focusId}"]`)?.focus();
    setFocusId(null);
  }, [focusId, list.isFetching]);

  const unsubscribe = async (subscriber: Subscriber) => {
    setSaid(null);
    setError(null);
    try {
      await post<Subscriber>(`${SUBSCRIBERS_API}/${subscriber.id}/unsubscribe`, {
        version: subscriber.version,
      });
      setSaid({
        text: t('admin.subscribers.didUnsubscribe', { email: subscriber.email }),
        alert: false,
      });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        setSaid({ text: t('admin.subscribers.changed'), alert: true });
      } else setError(e);
    }
    setFocusId(subscriber.id);
    await client.invalidateQueries({ queryKey: ['subscribers'] });
    await client.invalidateQueries({ queryKey: ['subscriber-lists'] });
  };

  const nameOf = (s: Subscriber) => {
    const found = lists.data?.lists.find((l) => listKey(l) === listKey(s));
    return found ? listName(found) : s.list;
  };
  const columns = subscriberColumns(t, nameOf, mayManage ? unsubscribe : undefined);
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.subscribers.heading')}</Heading>
      <p>{t('admin.subscribers.lead')}</p>
      <SubscriberFilters
        lists={lists.data?.lists ?? []}
        onApply={(next) => {
          setSaid(null);
          setParams(next);
        }}
      />
      {mayExport ? <ExportButton query={query} /> : null}
      <SaidText said={said} />
      <ErrorSummary error={error} />
      {list.isError || lists.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">
        {total === undefined ? '' : t('admin.subscribers.count', { count: total })}
      </p>
      {list.data ? (
        <div ref={tableRef}>
          <RowsTable
            caption={t('admin.subscribers.caption')}
            hiddenCaption
            columns={columns}
            rows={list.data.subscribers}
            rowKey={(s) => s.id}
            empty={t('admin.subscribers.empty')}
          />
        </div>
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

/** The table's columns; `unsubscribe` only for a staff member who may take an address off. */
function subscriberColumns(
  t: ReturnType<typeof useT>['t'],
  nameOf: (s: Subscriber) => string,
  unsubscribe: ((s: Subscriber) => Promise<void>) | undefined,
): Column<Subscriber>[] {
  return [
    [
      t('admin.subscribers.email'),
      (s) => (
        <span className={styles.stack}>
          {/* Where the focus goes back to after a change to the row (its button may be gone). */}
          <span data-subscriber={s.id} tabIndex={-1}>
            {s.email}
          </span>
          <span className={styles.muted}>
            {s.siteId} · {nameOf(s)}
          </span>
        </span>
      ),
    ],
    [t('admin.subscribers.lang'), (s) => s.lang],
    [t('admin.subscribers.status'), (s) => t(`admin.subscribers.status.${s.status}`)],
    [t('admin.subscribers.consent'), (s) => <Consent subscriber={s} />],
    [t('admin.subscribers.confirmedAt'), (s) => <When at={s.confirmedAt} />],
    [t('admin.subscribers.unsubscribedAt'), (s) => <When at={s.unsubscribedAt} />],
    [
      t('admin.subscribers.actions'),
      (s) =>
        unsubscribe && s.status !== 'unsubscribed' ? (
          <UnsubscribeDialog subscriber={s} listName={nameOf(s)} onConfirm={unsubscribe} />
        ) : null,
      'actions',
    ],
  ];
}

/** The filters: list, status and a part of the address, from and to the address's query. */
function SubscriberFilters({
  lists,
  onApply,
}: {
  lists: SubscriberList[];
  onApply: (next: URLSearchParams) => void;
}) {
  const { t } = useT();
  const [params] = useSearchParams();
  const listName = useListName();
  const chosen =
    params.get('site') && params.get('list') ? `${params.get('site')} ${params.get('list')}` : ANY;
  return (
    <AdminForm
      key={params.toString()}
      errors={{}}
      aria-label={t('admin.subscribers.filters')}
      className={styles.filters}
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const next = new URLSearchParams();
        const picked = String(data.get('list') ?? ANY);
        if (picked !== ANY) {
          const [site = '', name = ''] = picked.split(' ');
          next.set('site', site);
          next.set('list', name);
        }
        const status = String(data.get('status') ?? ANY);
        if (status !== ANY) next.set('status', status);
        const q = String(data.get('q') ?? '').trim();
        if (q) next.set('q', q);
        onApply(next);
      }}
    >
      <ChoiceSelect
        name="list"
        label={t('admin.subscribers.list')}
        defaultValue={chosen}
        options={[
          [ANY, t('admin.subscribers.anyList')],
          ...lists.map(
            (l) =>
              [
                listKey(l),
                t('admin.subscribers.listOption', {
                  site: l.siteId,
                  name: listName(l),
                  count: l.counts.confirmed,
                }),
              ] as const,
          ),
        ]}
      />
      <ChoiceSelect
        name="status"
        label={t('admin.subscribers.status')}
        defaultValue={params.get('status') ?? ANY}
        options={[
          [ANY, t('admin.subscribers.anyStatus')],
          ...statuses.map((s) => [s, t(`admin.subscribers.status.${s}`)] as const),
        ]}
      />
      <Field
        name="q"
        type="search"
        label={t('admin.subscribers.q')}
        defaultValue={params.get('q') ?? ''}
      />
      <Button type="submit" className={styles.secondary}>
        {t('admin.subscribers.apply')}
      </Button>
    </AdminForm>
  );
}

/** A list's name in the staff member's language: the newsletter's is the app's own text. */
function useListName() {
  const { t } = useT();
  return (l: SubscriberList) => l.name ?? t('admin.subscribers.newsletter');
}

function When({ at }: { at: string | null }) {
  const { t, dateTime } = useT();
  return <>{at ? dateTime(at) : t('admin.subscribers.none')}</>;
}

/** The consent record: the text the person agreed to, when, and where. */
function Consent({ subscriber: s }: { subscriber: Subscriber }) {
  const { t, dateTime } = useT();
  return (
    <span className={styles.stack}>
      <span lang={s.lang}>{s.consentText}</span>
      <span className={styles.muted}>
        {t('admin.subscribers.consentAt', { date: dateTime(s.consentAt), source: s.source })}
      </span>
    </span>
  );
}

/** The list's subscribers as CSV (after re-authentication, as any export of personal data). */
function ExportButton({ query }: { query: URLSearchParams }) {
  const { t } = useT();
  const filters = new URLSearchParams(query);
  filters.delete('offset');
  return (
    <div className={styles.actions}>
      <SensitiveDownload
        label={t('admin.subscribers.export')}
        downloaded={t('admin.subscribers.exported')}
        fetchFile={() => download(`${SUBSCRIBERS_API}/export.csv?${filters}`, 'tilaajat.csv')}
      />
    </div>
  );
}

function UnsubscribeDialog({
  subscriber,
  listName,
  onConfirm,
}: {
  subscriber: Subscriber;
  listName: string;
  onConfirm: (subscriber: Subscriber) => Promise<void>;
}) {
  const { t } = useT();
  const names = { email: subscriber.email, list: `${subscriber.siteId} · ${listName}` };
  return (
    <DialogTrigger>
      <Button
        className={styles.secondary}
        aria-label={t('admin.subscribers.unsubscribeLabel', names)}
      >
        {t('admin.subscribers.unsubscribe')}
      </Button>
      <ModalDialog>
        {(close) => (
          <>
            <Heading slot="title">{t('admin.subscribers.unsubscribeHeading', names)}</Heading>
            <p>{t('admin.subscribers.unsubscribeLead', names)}</p>
            <AdminForm
              errors={{}}
              onSubmit={(event) => {
                event.preventDefault();
                close();
                void onConfirm(subscriber);
              }}
            >
              <DialogActions
                confirm={t('admin.subscribers.unsubscribeConfirm')}
                cancel={t('admin.subscribers.cancel')}
                close={close}
                danger
              />
            </AdminForm>
          </>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}
