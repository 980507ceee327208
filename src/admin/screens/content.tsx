import { useQuery } from '@tanstack/react-query';
import { Heading } from 'react-aria-components';
import type { adminPagesSchema } from '../../features/content/index.ts';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { type GridColumn, GridTable } from '../ui.tsx';

type Pages = import('zod').infer<typeof adminPagesSchema>;

/** The pages the staff member's grants reach (the server limits the list). */
export function ContentScreen() {
  const { t } = useT();
  const pages = useQuery({
    queryKey: ['content-pages'],
    queryFn: () => get<Pages>('/api/admin/content/pages'),
  });
  const columns: GridColumn<Pages['pages'][number]>[] = [
    [t('admin.content.title'), (page) => page.title],
    [t('admin.content.site'), (page) => page.siteId],
    [t('admin.content.lang'), (page) => page.lang],
    [t('admin.content.path'), (page) => page.path],
    [t('admin.content.type'), (page) => page.type],
  ];
  return (
    <>
      <Heading level={1}>{t('admin.content.heading')}</Heading>
      <p>{t('admin.content.lead')}</p>
      {pages.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {pages.data ? (
        <>
          <p role="status">{t('admin.content.count', { count: pages.data.total })}</p>
          <GridTable
            label={t('admin.content.heading')}
            columns={columns}
            items={pages.data.pages}
            empty={t('admin.content.none')}
          />
        </>
      ) : null}
    </>
  );
}
