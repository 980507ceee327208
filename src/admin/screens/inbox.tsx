import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link, useNavigate } from 'react-router';
import type { FormId } from '../../features/forms/index.ts';
import type { InboxRow, SubmissionState } from '../../features/inbox/index.ts';
import styles from '../admin.module.css';
import { download, get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { SensitiveDownload } from '../reauth.tsx';
import { AdminForm, ChoiceSelect, type GridColumn, GridTable } from '../ui.tsx';

const ANY = 'any';
export const INBOX_API = '/api/admin/inbox';

// Every form and state, checked against the feature's types: one missing fails the type check.
const FORMS: Record<FormId, null> = {
  complaint: null,
  feedback: null,
  sponsorship: null,
  question: null,
  'promotional-photo': null,
  'brand-contact': null,
  'expert-question': null,
  'export-contact': null,
  sales: null,
  'school-material': null,
};
const STATES: Record<SubmissionState, null> = {
  new: null,
  in_progress: null,
  waiting: null,
  closed: null,
};
export const formIds = Object.keys(FORMS) as FormId[];
export const submissionStates = Object.keys(STATES) as SubmissionState[];

/** The form submissions the staff member may read, newest first, by form and state. */
export function InboxScreen() {
  const { t, dateTime } = useT();
  const navigate = useNavigate();
  const [filter, setFilter] = useState({ form: ANY, state: ANY });
  const list = useInfiniteQuery({
    queryKey: ['inbox', filter],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => {
      const query = filterQuery(filter);
      if (pageParam) query.set('offset', String(pageParam));
      return get<{ submissions: InboxRow[]; total: number }>(`${INBOX_API}?${query}`);
    },
    getNextPageParam: (last, pages) => {
      const seen = pages.reduce((n, p) => n + p.submissions.length, 0);
      return seen < last.total ? seen : undefined;
    },
  });
  const rows = list.data?.pages.flatMap((p) => p.submissions) ?? [];
  const total = list.data?.pages[0]?.total;
  const columns: GridColumn<InboxRow>[] = [
    [
      t('admin.inbox.received'),
      (row) => (
        <Link
          to={`/inbox/${row.id}`}
          aria-label={t('admin.inbox.open', {
            form: t(`admin.inbox.form.${row.form}`),
            at: dateTime(row.createdAt),
          })}
        >
          {dateTime(row.createdAt)}
        </Link>
      ),
    ],
    [t('admin.inbox.form'), (row) => t(`admin.inbox.form.${row.form}`)],
    [
      t('admin.inbox.site'),
      (row) => (
        <>
          {row.siteId} · {row.lang}
        </>
      ),
    ],
    [t('admin.inbox.state'), (row) => t(`admin.inbox.state.${row.state}`)],
    [t('admin.inbox.assignee'), (row) => row.assignee?.name ?? t('admin.inbox.nobody')],
    [
      t('admin.inbox.keptUntil'),
      (row) => (row.legalHold ? t('admin.inbox.held') : dateTime(row.deleteAfter)),
    ],
  ];
  return (
    <>
      <Heading level={1}>{t('admin.inbox.heading')}</Heading>
      <p>{t('admin.inbox.lead')}</p>
      <AdminForm
        errors={{}}
        aria-label={t('admin.inbox.filters')}
        className={styles.filters}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setFilter({
            form: String(data.get('form') ?? ANY),
            state: String(data.get('state') ?? ANY),
          });
        }}
      >
        <ChoiceSelect
          name="form"
          label={t('admin.inbox.form')}
          defaultValue={ANY}
          options={[
            [ANY, t('admin.inbox.anyForm')],
            ...formIds.map((f) => [f, t(`admin.inbox.form.${f}`)] as const),
          ]}
        />
        <ChoiceSelect
          name="state"
          label={t('admin.inbox.state')}
          defaultValue={ANY}
          options={[
            [ANY, t('admin.inbox.anyState')],
            ...submissionStates.map((s) => [s, t(`admin.inbox.state.${s}`)] as const),
          ]}
        />
        <Button type="submit" className={styles.secondary}>
          {t('admin.inbox.apply')}
        </Button>
      </AdminForm>
      <ExportButton filter={filter} />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {total === undefined ? null : <p role="status">{t('admin.inbox.count', { count: total })}</p>}
      <GridTable
        label={t('admin.inbox.heading')}
        columns={columns}
        items={rows}
        empty={t('admin.inbox.empty')}
        // Enter on a row (the keyboard's way through the grid) opens it, as its link does.
        onRowAction={(key) => navigate(`/inbox/${String(key)}`)}
      />
      {list.hasNextPage ? (
        <Button className={styles.secondary} onPress={() => void list.fetchNextPage()}>
          {t('admin.inbox.more')}
        </Button>
      ) : null}
    </>
  );
}

function filterQuery(filter: { form: string; state: string }): URLSearchParams {
  const query = new URLSearchParams();
  if (filter.form !== ANY) query.set('form', filter.form);
  if (filter.state !== ANY) query.set('state', filter.state);
  return query;
}

/** The list's submissions as CSV (after re-authentication, as any export of personal data). */
function ExportButton({ filter }: { filter: { form: string; state: string } }) {
  const { t } = useT();
  return (
    <div className={styles.actions}>
      <SensitiveDownload
        label={t('admin.inbox.export')}
        downloaded={t('admin.inbox.exported')}
        fetchFile={() =>
          download(`${INBOX_API}/export.csv?${filterQuery(filter)}`, 'lomakeviestit.csv')
        }
      />
    </div>
  );
}
