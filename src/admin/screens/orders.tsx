import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Heading } from 'react-aria-components';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type {
  FulfilmentStatus,
  OrderRow,
  OrderStatus,
  ORDERS_API as OrdersApi,
  OrdersList,
  PaymentAttemptStatus,
  PICK_LIST_API as PickListApi,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceSelect,
  ErrorSummary,
  Field,
  type GridColumn,
  GridTable,
  useFieldErrors,
} from '../ui.tsx';
import { ListPages } from './shop-parts.tsx';

// The API's addresses, checked against the feature's constants (the schemas module itself is not
// loaded here: it reads the shop's tables, which are server code).
export const ORDERS_API: typeof OrdersApi = '/api/admin/orders';
export const PICK_LIST_API: typeof PickListApi = '/api/admin/pick-list';

const ANY = 'any';

// Every status and step, checked against the feature's types: one missing fails the type check.
const STATUSES: Record<OrderStatus, null> = {
  pending_payment: null,
  paid: null,
  cancelled: null,
  expired: null,
};
const FULFILMENT: Record<FulfilmentStatus, null> = {
  unfulfilled: null,
  packed: null,
  out_for_delivery: null,
  delivered: null,
};
const PAYMENTS: Record<PaymentAttemptStatus, null> = {
  new: null,
  pending: null,
  delayed: null,
  ok: null,
  fail: null,
  error: null,
};
export const orderStatuses = Object.keys(STATUSES) as OrderStatus[];
/** The fulfilment steps in the order an order takes them. */
export const fulfilmentSteps = Object.keys(FULFILMENT) as FulfilmentStatus[];
export const paymentStatuses = Object.keys(PAYMENTS) as PaymentAttemptStatus[];

/** The list's filters, as the URL's query and the API's query name them. */
const FILTERS = [
  'q',
  'site',
  'lang',
  'status',
  'fulfilment',
  'payment',
  'orderedOn',
  'deliveryDate',
  'slot',
] as const;

/** The API's query for the screen's URL: its filters and offset, nothing else. */
function apiQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of [...FILTERS, 'offset'] as const) {
    const value = params.get(name)?.trim();
    if (value) query.set(name, value);
  }
  return query;
}

/** A slot's times: `08:00–10:00`. */
export function slotText(start: string | null, end: string | null): string {
  if (!start) return '';
  return end ? `${start.slice(0, 5)}–${end.slice(0, 5)}` : start.slice(0, 5);
}

/**
 * The shop's orders, newest first, 50 a page, by number, customer, status, fulfilment, payment,
 * order date and delivery time. The filters and the page are the URL's query, so back and
 * forward, a reload and a copied link keep them.
 */
export function OrdersScreen() {
  const { t } = useT();
  const [params, setParams] = useSearchParams();
  const query = apiQuery(params);
  const list = useQuery({
    queryKey: ['orders', query.toString()],
    queryFn: () => get<OrdersList>(`${ORDERS_API}?${query}`),
    placeholderData: keepPreviousData,
  });
  const errors = useFieldErrors(list.error);
  const offset = Number(query.get('offset') ?? 0) || 0;
  const total = list.data?.total;
  const filtered = FILTERS.some((name) => query.has(name));
  return (
    <>
      <Heading level={1}>{t('admin.orders.heading')}</Heading>
      <p>{t('admin.orders.lead')}</p>
      <ErrorSummary error={Object.keys(errors).length > 0 ? list.error : null} />
      <AdminForm
        // A new query (back, forward, a link) is a new form: its fields show the URL's filters.
        key={query.toString()}
        errors={errors}
        aria-label={t('admin.orders.filters')}
        className={styles.filterGrid}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const next = new URLSearchParams();
          for (const name of FILTERS) {
            const value = String(data.get(name) ?? params.get(name) ?? '').trim();
            if (value && value !== ANY) next.set(name, value);
          }
          setParams(next);
        }}
      >
        <Field
          name="q"
          type="search"
          label={t('admin.orders.search')}
          description={t('admin.orders.searchHint')}
          defaultValue={query.get('q') ?? ''}
        />
        <FilterSelect
          name="status"
          label={t('admin.orders.status')}
          anyText={t('admin.orders.anyStatus')}
          value={query.get('status')}
          options={orderStatuses.map((s) => [s, t(`admin.orders.status.${s}`)] as const)}
        />
        <FilterSelect
          name="fulfilment"
          label={t('admin.orders.fulfilment')}
          anyText={t('admin.orders.anyFulfilment')}
          value={query.get('fulfilment')}
          options={fulfilmentSteps.map((s) => [s, t(`admin.orders.fulfilment.${s}`)] as const)}
        />
        <FilterSelect
          name="payment"
          label={t('admin.orders.payment')}
          anyText={t('admin.orders.anyPayment')}
          value={query.get('payment')}
          options={[
            ['none', t('admin.orders.payment.none')],
            ...paymentStatuses.map((s) => [s, t(`admin.orders.payment.${s}`)] as const),
          ]}
        />
        <DateField
          name="orderedOn"
          label={t('admin.orders.orderedOn')}
          defaultValue={query.get('orderedOn') ?? ''}
        />
        <DateField
          name="deliveryDate"
          label={t('admin.orders.deliveryDate')}
          defaultValue={query.get('deliveryDate') ?? ''}
        />
        <Field
          name="slot"
          label={t('admin.orders.slot')}
          description={t('admin.orders.slotHint')}
          inputMode="numeric"
          defaultValue={query.get('slot') ?? ''}
        />
        <div className={styles.actions}>
          <Button type="submit" className={styles.secondary}>
            {t('admin.orders.apply')}
          </Button>
          {filtered ? <Link to="/orders">{t('admin.orders.clear')}</Link> : null}
        </div>
      </AdminForm>
      {list.isError && Object.keys(errors).length === 0 ? (
        <p role="alert">{t('admin.error.load')}</p>
      ) : null}
      {/* Said when the list changes: how many orders the filters found. */}
      <p role="status">{total === undefined ? '' : t('admin.orders.count', { count: total })}</p>
      <OrdersTable rows={list.data?.orders ?? []} />
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

/** A filter's choice with "any" first, sent as `name`; "any" is no filter. */
function FilterSelect({
  name,
  label,
  anyText,
  value,
  options,
}: {
  name: string;
  label: string;
  anyText: string;
  value: string | null;
  options: readonly (readonly [string, string])[];
}) {
  const known = options.some(([id]) => id === value);
  return (
    <ChoiceSelect
      name={name}
      label={label}
      defaultValue={known && value ? value : ANY}
      options={[[ANY, anyText], ...options]}
    />
  );
}

function OrdersTable({ rows }: { rows: OrderRow[] }) {
  const { t, dateTime, day, money } = useT();
  const navigate = useNavigate();
  const columns: GridColumn<OrderRow>[] = [
    [
      t('admin.orders.number'),
      (row) => (
        <Link
          to={`/orders/${row.id}`}
          aria-label={t('admin.orders.open', { number: row.number, name: row.name })}
        >
          {row.number}
        </Link>
      ),
    ],
    [t('admin.orders.placed'), (row) => dateTime(row.createdAt)],
    [
      t('admin.orders.customer'),
      (row) => (
        <span className={styles.stack}>
          <span>{row.name}</span>
          <span className={styles.muted}>{row.email}</span>
        </span>
      ),
    ],
    [
      t('admin.orders.delivery'),
      (row) =>
        row.deliveryDate
          ? `${day(row.deliveryDate)} ${slotText(row.startTime, row.endTime)}`
          : t('admin.orders.noDelivery'),
    ],
    [t('admin.orders.status'), (row) => t(`admin.orders.status.${row.status}`)],
    [t('admin.orders.fulfilment'), (row) => t(`admin.orders.fulfilment.${row.fulfilment}`)],
    [t('admin.orders.total'), (row) => money(row.totalCents), styles.amount],
  ];
  return (
    <GridTable
      label={t('admin.orders.heading')}
      columns={columns}
      items={rows}
      empty={t('admin.orders.empty')}
      // Enter on a row (the keyboard's way through the grid) opens it, as its link does.
      onRowAction={(key) => navigate(`/orders/${String(key)}`)}
    />
  );
}
