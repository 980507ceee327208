import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Cell,
  Column,
  Heading,
  Row,
  Table,
  TableBody,
  TableHeader,
} from 'react-aria-components';
import type { AuditRow } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, Field } from '../ui.tsx';

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
      <div className={styles.tableWrap}>
        <Table aria-label={t('admin.audit.heading')} className={styles.table}>
          <TableHeader>
            <Column isRowHeader>{t('admin.audit.at')}</Column>
            <Column>{t('admin.audit.actor')}</Column>
            <Column>{t('admin.audit.what')}</Column>
            <Column>{t('admin.audit.subject')}</Column>
            <Column>{t('admin.audit.changes')}</Column>
            <Column>{t('admin.audit.from')}</Column>
          </TableHeader>
          <TableBody items={entries} renderEmptyState={() => t('admin.audit.empty')}>
            {(row) => (
              <Row id={row.id}>
                <Cell data-label={t('admin.audit.at')}>{time(row.at)}</Cell>
                <Cell data-label={t('admin.audit.actor')}>{row.actor}</Cell>
                <Cell data-label={t('admin.audit.what')}>{row.action}</Cell>
                <Cell data-label={t('admin.audit.subject')}>
                  {[row.subjectType, row.siteId, row.lang].filter(Boolean).join(' · ')}
                </Cell>
                <Cell data-label={t('admin.audit.changes')}>
                  <code className={styles.changes}>
                    {Object.entries(row.changes)
                      .map(
                        ([k, v]) =>
                          `${k}: ${JSON.stringify(v.before ?? null)} → ${JSON.stringify(v.after ?? null)}`,
                      )
                      .join('\n')}
                  </code>
                </Cell>
                <Cell data-label={t('admin.audit.from')}>{row.ip ?? ''}</Cell>
              </Row>
            )}
          </TableBody>
        </Table>
      </div>
      {log.hasNextPage ? (
        <Button className={styles.secondary} onPress={() => void log.fetchNextPage()}>
          {t('admin.audit.more')}
        </Button>
      ) : null}
    </>
  );
}
