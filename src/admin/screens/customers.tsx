import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Heading } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import type {
  CustomerRow,
  CUSTOMERS_API as CustomersApi,
  customersListSchema,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';
import { ErrorSummary, useFieldErrors } from '../ui.tsx';
import { ListPages, offsetOf, TextSearch } from './shop-parts.tsx';

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
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const offset = offsetOf(params);
  const query = new URLSearchParams();
  if (q) query.set('q', q);
  if (offset) query.set('offset', String(offset));
  const list = useQuery({
    queryKey: ['customers', query.toString()],
    queryFn: () => get<CustomersList>(`${CUSTOMERS_API}?${query}`),
    placeholderData: keepPreviousData,
  });
  const errors = useFieldErrors(list.error);
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.customers.heading')}</Heading>
      <p>{t('admin.customers.lead')}</p>
      <ErrorSummary error={Object.keys(errors).length > 0 ? list.error : null} />
      <TextSearch
        q={q}
        errors={errors}
        clearTo="/customers"
        texts={{
          filters: t('admin.customers.filters'),
          search: t('admin.customers.search'),
          searchHint: t('admin.customers.searchHint'),
          apply: t('admin.customers.apply'),
          clear: t('admin.customers.clear'),
        }}
        onSearch={(text) => setParams(text ? { q: text } : {})}
      />
      {list.isError && Object.keys(errors).length === 0 ? (
        <p role="alert">{t('admin.error.load')}</p>
      ) : null}
      {/* Said when the list changes: how many customers the search found. */}
      <p role="status">{total === undefined ? '' : t('admin.customers.count', { count: total })}</p>
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
