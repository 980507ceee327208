import { useQuery } from '@tanstack/react-query';
import { Cell, Column, Heading, Row, Table, TableBody, TableHeader } from 'react-aria-components';
import type { adminPagesSchema } from '../../features/content/index.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';

type Pages = import('zod').infer<typeof adminPagesSchema>;

/** The pages the staff member's grants reach (the server limits the list). */
export function ContentScreen() {
  const { t } = useT();
  const pages = useQuery({
    queryKey: ['content-pages'],
    queryFn: () => get<Pages>('/api/admin/content/pages'),
  });
  return (
    <>
      <Heading level={1}>{t('admin.content.heading')}</Heading>
      <p>{t('admin.content.lead')}</p>
      {pages.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {pages.data ? (
        <>
          <p role="status">{t('admin.content.count', { count: pages.data.total })}</p>
          <div className={styles.tableWrap}>
            <Table aria-label={t('admin.content.heading')} className={styles.table}>
              <TableHeader>
                <Column isRowHeader>{t('admin.content.title')}</Column>
                <Column>{t('admin.content.site')}</Column>
                <Column>{t('admin.content.lang')}</Column>
                <Column>{t('admin.content.path')}</Column>
                <Column>{t('admin.content.type')}</Column>
              </TableHeader>
              <TableBody items={pages.data.pages} renderEmptyState={() => t('admin.content.none')}>
                {(page) => (
                  <Row id={page.id}>
                    <Cell data-label={t('admin.content.title')}>{page.title}</Cell>
                    <Cell data-label={t('admin.content.site')}>{page.siteId}</Cell>
                    <Cell data-label={t('admin.content.lang')}>{page.lang}</Cell>
                    <Cell data-label={t('admin.content.path')}>{page.path}</Cell>
                    <Cell data-label={t('admin.content.type')}>{page.type}</Cell>
                  </Row>
                )}
              </TableBody>
            </Table>
          </div>
        </>
      ) : null}
    </>
  );
}
