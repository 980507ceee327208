import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import type { AuditRow } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, Field, type GridColumn, GridTable } from '../ui.tsx';

/** The audit log, newest first, filtered by the start of the action and the site. */
export function AuditScreen() {
  const { t, dateTime: time } = useT();
  const [filter, setFilter] = useState({ action: '', site: '' });
  const log = useInfiniteQuery({
    queryKey: ['audit', filter],
    initialPageParam: 0,
    queryFn: ({ pageParam }) => {
      const query = new URLSearchParams();
      if (filter.action) query.set('action', filter.action);
      if (filter.site) query.set('site', filter.site);
      if (pageParam) query.set('before', String(pageParam));
      return get<{ entries: AuditRow[]; next: number | null }>(`/api/admin/audit?${query}`);
    },
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const columns: GridColumn<AuditRow>[] = [
    [t('admin.audit.at'), (row) => time(row.at)],
    [t('admin.audit.actor'), (row) => row.actor],
    [t('admin.audit.what'), (row) => row.action],
    [
      t('admin.audit.subject'),
      (row) => [row.subjectType, row.siteId, row.lang].filter(Boolean).join(' · '),
    ],
    [
      t('admin.audit.changes'),
      (row) => (
        <code className={styles.changes}>
          {Object.entries(row.changes)
            .map(
              ([k, v]) =>
                `${k}: ${JSON.stringify(v.before ?? null)} → ${JSON.stringify(v.after ?? null)}`,
            )
            .join('\n')}
        </code>
      ),
    ],
    [t('admin.audit.from'), (row) => row.ip ?? ''],
  ];
  return (
    <>
      <Heading level={1}>{t('admin.audit.heading')}</Heading>
      <AdminForm
        errors={{}}
        aria-label={t('admin.audit.filters')}
        className={styles.filters}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setFilter({
            action: String(data.get('action') ?? ''),
            site: String(data.get('site') ?? ''),
          });
        }}
      >
        <Field name="action" label={t('admin.audit.action')} />
        <Field name="site" label={t('admin.audit.site')} />
        <Button type="submit" className={styles.secondary}>
          {t('admin.audit.apply')}
        </Button>
      </AdminForm>
      {log.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <GridTable
        label={t('admin.audit.heading')}
        columns={columns}
        items={entries}
        empty={t('admin.audit.empty')}
      />
      {log.hasNextPage ? (
        <Button className={styles.secondary} onPress={() => void log.fetchNextPage()}>
          {t('admin.audit.more')}
        </Button>
      ) : null}
    </>
  );
}
