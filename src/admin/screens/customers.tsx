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
import { ListPages, SearchedListHead, useSearchedList } from './shop-parts.tsx';

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
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={styles.srOnly}>{t('admin.customers.heading')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.customers.email')}</th>
            <th scope="col">{t('admin.customers.name')}</th>
            <th scope="col">{t('admin.customers.created')}</th>
            <th scope="col" className={styles.number}>
              {t('admin.customers.orders')}
            </th>
            <th scope="col">{t('admin.customers.state')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td data-label={t('admin.customers.email')}>
                <Link to={`/customers/${c.id}`}>{c.email}</Link>
              </td>
              <td data-label={t('admin.customers.name')}>{c.name || '–'}</td>
              <td data-label={t('admin.customers.created')}>{dateTime(c.createdAt)}</td>
              <td data-label={t('admin.customers.orders')} className={styles.number}>
                {c.orders}
              </td>
              <td data-label={t('admin.customers.state')}>
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
