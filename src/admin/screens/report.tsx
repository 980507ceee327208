import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import type { DailyReport, REPORT_API as ReportApi } from '../../features/shop/admin.ts';
import { helsinkiDate } from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { download, get } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { LOCALES, percentText } from '../shop-values.ts';
import { ErrorSummary, LiveStatus, Section } from '../ui.tsx';
import { RowsTable } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const REPORT_API: typeof ReportApi = '/api/admin/reports/daily';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A day's sales for accounting: the orders paid that day in Helsinki and the refunds confirmed
 * that day, their sums, VAT per rate, gift cards sold and used, and each order and refund; the
 * same as CSV. The day is the URL's (today without one).
 */
export function ReportScreen() {
  const { t, day } = useT();
  const [params, setParams] = useSearchParams();
  const date = DAY.test(params.get('date') ?? '')
    ? String(params.get('date'))
    : helsinkiDate(new Date());
  // What the date field shows, at once: the URL follows a moment later (a navigation), and a
  // field showing the URL would lose the day typed before the month.
  const [typed, setTyped] = useState(date);
  /** The days the field has asked the URL for, oldest first, not yet there. */
  const asked = useRef<string[]>([]);
  useEffect(() => {
    const at = asked.current.indexOf(date);
    if (at >= 0) asked.current = asked.current.slice(at + 1);
    else {
      asked.current = [];
      setTyped(date);
    }
  }, [date]);
  const report = useQuery({
    queryKey: ['report', date],
    queryFn: () => get<DailyReport>(`${REPORT_API}?${new URLSearchParams({ date })}`),
  });
  const data = report.data;
  return (
    <>
      <Heading level={1}>{t('admin.report.heading', { date: day(date) })}</Heading>
      <p>{t('admin.report.lead')}</p>
      <div className={styles.filters}>
        <DateField
          name="date"
          label={t('admin.report.date')}
          value={typed}
          onChange={(value) => {
            setTyped(value);
            // A year is typed a digit at a time: 0002, 0020, 0202 are no days to look at.
            if (value >= '2000' && value !== date) {
              asked.current.push(value);
              setParams({ date: value }, { replace: true });
            }
          }}
        />
        <CsvButton date={date} />
      </div>
      {report.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">
        {data ? t('admin.report.count', { orders: data.orders, refunds: data.refunds.count }) : ''}
      </p>
      {data ? (
        <>
          <Totals report={data} />
          <Rows report={data} />
        </>
      ) : null}
    </>
  );
}

function CsvButton({ date }: { date: string }) {
  const { t } = useT();
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <div className={styles.csv}>
      <div className={styles.actions}>
        <Button
          className={styles.secondary}
          onPress={async () => {
            if (pending) return;
            setPending(true);
            setError(null);
            setDone(false);
            try {
              await download(
                `${REPORT_API}.csv?${new URLSearchParams({ date })}`,
                `myynti-${date}.csv`,
              );
              setDone(true);
            } catch (e) {
              setError(e);
            } finally {
              setPending(false);
            }
          }}
        >
          {t('admin.report.download')}
        </Button>
      </div>
      <LiveStatus text={done ? t('admin.report.downloaded') : null} />
      <ErrorSummary error={error} />
    </div>
  );
}

function Totals({ report: r }: { report: DailyReport }) {
  const { t, money, lang } = useT();
  const rows: [string, string][] = [
    [t('admin.report.orders'), String(r.orders)],
    [t('admin.report.gross'), money(r.grossCents)],
    [t('admin.report.discounts'), money(r.discountCents)],
    [t('admin.report.shipping'), money(r.shippingCents)],
    [t('admin.report.vat'), money(r.vatCents)],
    [t('admin.report.giftCardSales'), money(r.giftCardSalesCents)],
    [t('admin.report.giftCardUse'), money(r.giftCardUseCents)],
    [t('admin.report.paid'), money(r.paidCents)],
    [t('admin.report.refunds', { count: r.refunds.count }), money(-r.refunds.cents)],
    [t('admin.report.net'), money(r.netCents)],
  ];
  return (
    <Section id="totals" title={t('admin.report.totals')}>
      {r.sites.length > 0 ? (
        <p className={styles.muted}>{t('admin.report.sites', { sites: r.sites.join(', ') })}</p>
      ) : null}
      <dl className={styles.sums}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <RowsTable
        caption={t('admin.report.vatCaption')}
        columns={[
          [t('admin.report.vatRate'), (share) => percentText(share.basisPoints, lang)],
          [t('admin.report.vatGross'), (share) => money(share.grossCents), 'numbers'],
          [t('admin.report.vatAmount'), (share) => money(share.vatCents), 'numbers'],
          [t('admin.report.vatNet'), (share) => money(share.netCents), 'numbers'],
        ]}
        rows={r.vat}
        rowKey={(share) => share.basisPoints}
        empty={t('admin.report.noVat')}
      />
    </Section>
  );
}

/** The money columns of the day's rows and totals, in the CSV's order. */
const MONEY_COLUMNS = ['gross', 'vat', 'giftCardUse', 'paid'] as const;
type MoneyColumn = (typeof MONEY_COLUMNS)[number];

/** The money cells of a row of the day, or of its totals (whose paid sum is the day's net). */
function MoneyCells({
  label,
  sums,
  paidCents,
}: {
  label: Record<MoneyColumn, string>;
  sums: { grossCents: number; vatCents: number; giftCardUseCents: number };
  paidCents: number;
}) {
  const { money } = useT();
  const cents: Record<MoneyColumn, number> = {
    gross: sums.grossCents,
    vat: sums.vatCents,
    giftCardUse: sums.giftCardUseCents,
    paid: paidCents,
  };
  return MONEY_COLUMNS.map((key) => (
    <td key={key} data-label={label[key]} className={styles.number}>
      {money(cents[key])}
    </td>
  ));
}

/** Each order paid and each refund confirmed on the day, then the day's totals (as the CSV). */
function Rows({ report: r }: { report: DailyReport }) {
  const { t, lang } = useT();
  const time = new Intl.DateTimeFormat(LOCALES[lang], {
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Helsinki',
  });
  const columns = [
    ['kind', t('admin.report.csv.kind')],
    ['number', t('admin.report.csv.number')],
    ['site', t('admin.report.csv.site')],
    ['time', t('admin.report.csv.time')],
    ['gross', t('admin.report.csv.gross')],
    ['vat', t('admin.report.csv.vat')],
    ['giftCardUse', t('admin.report.csv.giftCardUse')],
    ['paid', t('admin.report.csv.paid')],
  ] as const;
  const label = Object.fromEntries(columns) as Record<(typeof columns)[number][0], string>;
  const money4: readonly string[] = MONEY_COLUMNS;
  return (
    <Section id="rows" title={t('admin.report.rows')}>
      {r.rows.length === 0 ? (
        <p>{t('admin.report.empty')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.wideLabels}`}>
            <caption className={styles.srOnly}>{t('admin.report.rowsCaption')}</caption>
            <thead>
              <tr>
                {columns.map(([key, text]) => (
                  <th
                    key={key}
                    scope="col"
                    className={money4.includes(key) ? styles.number : undefined}
                  >
                    {text}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {r.rows.map((row) => (
                <tr key={`${row.kind}-${row.number}-${row.at}`}>
                  <td data-label={label.kind}>
                    {t(row.kind === 'order' ? 'admin.report.csv.order' : 'admin.report.csv.refund')}
                  </td>
                  <td data-label={label.number}>
                    <Link
                      to={`/orders?q=${row.number}`}
                      aria-label={t('admin.report.findOrder', { number: row.number })}
                    >
                      {row.number}
                    </Link>
                  </td>
                  <td data-label={label.site}>{row.siteId}</td>
                  <td data-label={label.time}>{time.format(new Date(row.at))}</td>
                  <MoneyCells label={label} sums={row} paidCents={row.paidCents} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className={styles.totalRow}>
                <th scope="row" colSpan={4}>
                  {t('admin.report.csv.total')}
                </th>
                <MoneyCells label={label} sums={r} paidCents={r.netCents} />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Section>
  );
}
