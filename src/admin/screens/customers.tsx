import { Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { z } from 'zod';
import type {
  CustomerRow,
  CUSTOMERS_API as CustomersApi,
  customersListSchema,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';
import {
  type Column,
  ListPages,
  RowsTable,
  SearchedListHead,
  useSearchedList,
} from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const CUSTOMERS_API: typeof CustomersApi = '/api/admin/customers';

type CustomersList = z.infer<typeof customersListSchema>;

/**
 * The shop's customers, newest first, 50 a page, found by part of an e-mail address or a name
 * (decision 146). The search and the page are the URL's query; each search is a read of
 * personal data that the server writes to the audit log.
 */
export function CustomersScreen() {
  const { t } = useT();
  const { q, offset, params, list, search } = useSearchedList<CustomersList>(
    'customers',
    CUSTOMERS_API,
  );
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.customers.heading')}</Heading>
      <p>{t('admin.customers.lead')}</p>
      <SearchedListHead screen="customers" q={q} list={list} onSearch={search} />
      {list.data ? <CustomersTable rows={list.data.customers} /> : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

function CustomersTable({ rows }: { rows: CustomerRow[] }) {
  const { t, dateTime } = useT();
  if (rows.length === 0) return <p>{t('admin.customers.empty')}</p>;
  const columns: Column<CustomerRow>[] = [
    [t('admin.customers.email'), (c) => <Link to={`/customers/${c.id}`}>{c.email}</Link>],
    [t('admin.customers.name'), (c) => c.name || '–'],
    [t('admin.customers.created'), (c) => dateTime(c.createdAt)],
    [t('admin.customers.orders'), (c) => c.orders, 'numbers'],
    [
      t('admin.customers.state'),
      (c) => (
        <span className={styles.stack}>
          <span>
            {c.lockedAt ? (
              <strong>{t('admin.customers.locked')}</strong>
            ) : (
              t('admin.customers.active')
            )}
          </span>
          {c.emailVerified ? null : (
            <span className={styles.muted}>{t('admin.customers.unverified')}</span>
          )}
        </span>
      ),
    ],
  ];
  return (
    <RowsTable
      caption={t('admin.customers.heading')}
      hiddenCaption
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
    />
  );
}
