import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Heading, ToggleButton, ToggleButtonGroup } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import type {
  FulfilAnswer,
  FulfilBody,
  FulfilmentStatus,
  PickList,
} from '../../features/shop/admin.ts';
import { helsinkiDate } from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { get, post } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { ErrorSummary, LiveStatus } from '../ui.tsx';
import { ORDERS_API, PICK_LIST_API, slotText } from './orders.tsx';

const WHOLE_DAY = 'day';
/** The bulk steps, in the order orders take them. */
const BULK_STEPS = [
  'packed',
  'out_for_delivery',
  'delivered',
] as const satisfies FulfilmentStatus[];

type PickOrder = PickList['orders'][number];

/**
 * What to pack for a delivery day and slot: the products summed over its paid orders, then each
 * order with its address and lines, to tick and move on (packed, out for delivery, delivered) in
 * bulk. Printed, it is the list alone on A4 (the admin's print styles).
 */
export function PickListScreen() {
  const { t, day } = useT();
  const [params, setParams] = useSearchParams();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(params.get('date') ?? '')
    ? String(params.get('date'))
    : helsinkiDate(new Date());
  const slot = params.get('slot') ?? '';
  // What the date field shows, at once: the URL follows a moment later (a navigation), and a
  // field showing the URL would lose the day typed before the month.
  const [typed, setTyped] = useState(date);
  /** The days the field has asked the URL for, oldest first, not yet there. */
  const asked = useRef<string[]>([]);
  useEffect(() => {
    const at = asked.current.indexOf(date);
    if (at >= 0) asked.current = asked.current.slice(at + 1);
    else {
      // A day the field did not ask for (back, forward, a link): shown.
      asked.current = [];
      setTyped(date);
    }
  }, [date]);
  const list = useQuery({
    queryKey: ['pickList', date, slot],
    queryFn: () => {
      const query = new URLSearchParams({ date });
      if (slot) query.set('slot', slot);
      return get<PickList>(`${PICK_LIST_API}?${query}`);
    },
  });
  const choose = (next: { date?: string; slot?: string }) => {
    const query = new URLSearchParams({ date: next.date ?? date });
    const chosenSlot = next.slot ?? (next.date ? '' : slot);
    if (chosenSlot) query.set('slot', chosenSlot);
    setParams(query, { replace: true });
  };
  const data = list.data;
  const chosen = data?.slots.find((s) => s.startTime.slice(0, 5) === slot.slice(0, 5));
  return (
    <>
      <Heading level={1}>
        {t('admin.pickList.heading', {
          date: day(date),
          slot: chosen ? slotText(chosen.startTime, chosen.endTime) : t('admin.pickList.wholeDay'),
        })}
      </Heading>
      <div className={styles.noPrint}>
        <p>{t('admin.pickList.lead')}</p>
        <DateField
          name="date"
          label={t('admin.pickList.date')}
          value={typed}
          onChange={(value) => {
            setTyped(value);
            // A year is typed a digit at a time: 0002, 0020, 0202 are no days to look at.
            if (value >= '2000' && value !== date) {
              asked.current.push(value);
              choose({ date: value });
            }
          }}
        />
        {data ? <Slots list={data} slot={chosen ? slot : ''} choose={choose} /> : null}
        <div className={styles.actions}>
          <Button className={styles.secondary} onPress={() => window.print()}>
            {t('admin.pickList.print')}
          </Button>
        </div>
      </div>
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status" className={styles.noPrint}>
        {data ? t('admin.pickList.count', { count: data.orders.length }) : ''}
      </p>
      {data ? (
        <>
          <Products list={data} />
          <Orders key={`${date}-${slot}`} list={data} />
        </>
      ) : null}
    </>
  );
}

/** The day's slots with their counts of paid orders, and the whole day; one is chosen. */
function Slots({
  list,
  slot,
  choose,
}: {
  list: PickList;
  slot: string;
  choose: (next: { slot: string }) => void;
}) {
  const { t } = useT();
  const all = list.slots.reduce((n, s) => n + s.orders, 0);
  return (
    <div className={styles.slotField}>
      <span id="slot-label" className={styles.label}>
        {t('admin.pickList.slot')}
      </span>
      {list.slots.length === 0 ? (
        <p>{t('admin.pickList.noSlots')}</p>
      ) : (
        <ToggleButtonGroup
          aria-labelledby="slot-label"
          selectionMode="single"
          disallowEmptySelection
          selectedKeys={[slot ? slot.slice(0, 5) : WHOLE_DAY]}
          onSelectionChange={(keys) => {
            const [key] = [...keys];
            choose({ slot: key === WHOLE_DAY || key === undefined ? '' : String(key) });
          }}
          className={styles.slots}
        >
          <ToggleButton id={WHOLE_DAY} className={styles.slotButton}>
            {t('admin.pickList.wholeDayCount', { count: all })}
          </ToggleButton>
          {list.slots.map((s) => (
            <ToggleButton
              key={s.startTime}
              id={s.startTime.slice(0, 5)}
              className={styles.slotButton}
            >
              {t('admin.pickList.slotCount', {
                slot: slotText(s.startTime, s.endTime),
                count: s.orders,
              })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
    </div>
  );
}

function Products({ list }: { list: PickList }) {
  const { t } = useT();
  return (
    <section aria-labelledby="products" className={styles.panel}>
      <Heading level={2} id="products">
        {t('admin.pickList.products')}
      </Heading>
      {list.products.length === 0 ? (
        <p>{t('admin.pickList.empty')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.pickTable}`}>
            <caption className={styles.srOnly}>{t('admin.pickList.productsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.order.product')}</th>
                <th scope="col">{t('admin.pickList.code')}</th>
                <th scope="col" className={styles.number}>
                  {t('admin.order.quantity')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.products.map((p) => (
                <tr key={p.code}>
                  <td data-label={t('admin.order.product')}>{p.name}</td>
                  <td data-label={t('admin.pickList.code')}>{p.code}</td>
                  <td data-label={t('admin.order.quantity')} className={styles.number}>
                    {p.quantity}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The orders to tick, and the bulk steps for the ticked ones. */
function Orders({ list }: { list: PickList }) {
  const { t } = useT();
  const client = useQueryClient();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const ticked = list.orders.filter((o) => checked.has(o.id));
  const toggle = (id: string, on: boolean) =>
    setChecked((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const move = async (to: FulfilmentStatus) => {
    if (pending) return;
    setSaid(null);
    setError(null);
    if (ticked.length === 0) {
      setSaid({ text: t('admin.pickList.noneChecked'), alert: true });
      return;
    }
    setPending(true);
    try {
      const body: FulfilBody = {
        orders: ticked.map((o) => ({ id: o.id, from: o.fulfilment })),
        to,
      };
      const answer = await post<FulfilAnswer>(`${ORDERS_API}/fulfilment`, body);
      const step = t(`admin.orders.fulfilment.${to}`);
      setSaid(
        answer.stale.length > 0
          ? {
              text: t('admin.pickList.movedStale', {
                step,
                moved: answer.moved.length,
                stale: answer.stale.length,
              }),
              alert: true,
            }
          : { text: t('admin.pickList.moved', { step, moved: answer.moved.length }), alert: false },
      );
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
      await Promise.all([
        client.invalidateQueries({ queryKey: ['pickList'] }),
        client.invalidateQueries({ queryKey: ['orders'] }),
        client.invalidateQueries({ queryKey: ['order'] }),
      ]);
    }
  };
  const allChecked = list.orders.length > 0 && ticked.length === list.orders.length;
  return (
    <section aria-labelledby="orders" className={styles.pickOrders}>
      <Heading level={2} id="orders">
        {t('admin.pickList.orders', { count: list.orders.length })}
      </Heading>
      {list.orders.length > 0 ? (
        <div className={`${styles.panel} ${styles.noPrint}`}>
          <Checkbox
            isSelected={allChecked}
            isIndeterminate={ticked.length > 0 && !allChecked}
            onChange={(on) => setChecked(on ? new Set(list.orders.map((o) => o.id)) : new Set())}
            className={styles.checkbox}
          >
            <span className={styles.box} aria-hidden="true" />
            {t('admin.pickList.selectAll', { count: ticked.length })}
          </Checkbox>
          <fieldset className={styles.buttonGroup}>
            <legend>{t('admin.pickList.bulk')}</legend>
            <div className={styles.actions}>
              {BULK_STEPS.map((to) => (
                <Button key={to} className={styles.secondary} onPress={() => void move(to)}>
                  {t(`admin.pickList.mark.${to}`)}
                </Button>
              ))}
            </div>
          </fieldset>
          <LiveStatus text={said?.alert ? null : said?.text} />
          {said?.alert ? (
            <p role="alert" className={styles.errorSummary}>
              {said.text}
            </p>
          ) : null}
          <ErrorSummary error={error} />
        </div>
      ) : null}
      {list.orders.map((o) => (
        <PickOrderBlock
          key={o.id}
          order={o}
          checked={checked.has(o.id)}
          onChange={(on) => toggle(o.id, on)}
        />
      ))}
    </section>
  );
}

function PickOrderBlock({
  order: o,
  checked,
  onChange,
}: {
  order: PickOrder;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  const { t } = useT();
  const headingId = `order-${o.id}`;
  return (
    <article aria-labelledby={headingId} className={`${styles.panel} ${styles.pickOrder}`}>
      <div className={styles.pickHead}>
        <Heading level={3} id={headingId}>
          <Link to={`/orders/${o.id}`}>{t('admin.order.heading', { number: o.number })}</Link>
          {o.startTime ? ` · ${slotText(o.startTime, o.endTime)}` : ''}
        </Heading>
        <Checkbox
          isSelected={checked}
          onChange={onChange}
          className={`${styles.checkbox} ${styles.noPrint}`}
        >
          <span className={styles.box} aria-hidden="true" />
          {t('admin.pickList.select', { number: o.number })}
        </Checkbox>
      </div>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.order.name')}</dt>
          <dd>{o.name}</dd>
        </div>
        <div>
          <dt>{t('admin.pickList.address')}</dt>
          <dd>
            {`${o.address.firstName} ${o.address.lastName}\n${o.address.streetAddress}\n${o.address.postalCode} ${o.address.city}`}
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.phone')}</dt>
          <dd>{o.phoneNumber}</dd>
        </div>
        {o.additionalInformation ? (
          <div>
            <dt>{t('admin.order.additionalInformation')}</dt>
            <dd>{o.additionalInformation}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin.orders.fulfilment')}</dt>
          <dd>{t(`admin.orders.fulfilment.${o.fulfilment}`)}</dd>
        </div>
      </dl>
      <Heading level={4} className={styles.subheading}>
        {t('admin.order.lines')}
      </Heading>
      <ul className={styles.pickLines}>
        {o.lines.map((line) => (
          <li key={line.code}>
            <span className={styles.pickQuantity}>{line.quantity} ×</span> {line.name}{' '}
            <span className={styles.muted}>({line.code})</span>
          </li>
        ))}
      </ul>
    </article>
  );
}
