import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Button, Checkbox, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import type {
  AreaRow,
  BookedOrder,
  ClosedAnswer,
  DeliveryList,
  SlotRow,
} from '../../features/shop/index.ts';
import styles from '../admin.module.css';
import { ApiError, del, get, post, put } from '../api.ts';
import { type AdminLang, useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceSelect,
  CreateDialog,
  ErrorSummary,
  Field,
  Notice,
  Submit,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';

export const DELIVERY_API = '/api/admin/delivery';
const AREAS = `${DELIVERY_API}/areas`;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
type Weekday = (typeof WEEKDAYS)[number];

const LOCALES: Record<AdminLang, string> = { fi: 'fi-FI', sv: 'sv-SE', en: 'en-GB' };

/** `2026-12-03` as the language writes a day: `to 3.12.2026`. */
function dayLabel(date: string, lang: AdminLang): string {
  return new Date(`${date}T12:00:00Z`).toLocaleDateString(LOCALES[lang], {
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

const useDelivery = () =>
  useQuery({ queryKey: ['delivery'], queryFn: () => get<DeliveryList>(DELIVERY_API) });

/** Runs a write, then reloads the areas; keeps its error and whether it is under way. */
function useWrite() {
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const run = async <T,>(send: () => Promise<T>): Promise<T | undefined> => {
    if (pending) return undefined;
    setError(null);
    setPending(true);
    try {
      const answer = await send();
      await client.invalidateQueries({ queryKey: ['delivery'] });
      return answer;
    } catch (err) {
      setError(err);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, error, setError };
}

/** A change refused with the upcoming orders it concerns (decision 150), to confirm with them. */
const CONFIRM_TYPES = ['/problems/orders-in-area', '/problems/orders-in-postal-codes'];

/**
 * An area's change that may concern upcoming orders: sent, and when refused with the orders it
 * concerns, asked again with them listed; confirmed, sent again naming them. What was saved and
 * the orders to contact are said after.
 */
function useConfirmedWrite<Body extends object>(send: (body: Body) => Promise<AreaRow>) {
  const write = useWrite();
  const [asking, setAsking] = useState<{ body: Body; orders: BookedOrder[] } | null>(null);
  const [saved, setSaved] = useState<BookedOrder[] | null>(null);
  const run = async (body: Body, orders?: BookedOrder[]) => {
    setSaved(null);
    const sent = orders ? { ...body, confirm: true, orderIds: orders.map((o) => o.id) } : body;
    const answer = await write.run(() =>
      send(sent).catch((err: unknown) => {
        if (err instanceof ApiError && CONFIRM_TYPES.includes(err.type ?? '')) {
          return { ask: (err.problem.orders ?? []) as BookedOrder[] };
        }
        throw err;
      }),
    );
    if (answer && 'ask' in answer) setAsking({ body, orders: answer.ask });
    else if (answer) {
      setAsking(null);
      setSaved(orders ?? []);
    }
  };
  return { error: write.error, asking, cancel: () => setAsking(null), saved, run };
}

/** What a confirmed change said: saved, and the orders whose shoppers to contact. */
function SavedNotice({ saved }: { saved: BookedOrder[] | null }) {
  const { t } = useT();
  if (!saved) return null;
  if (saved.length === 0) return <Notice>{t('admin.delivery.saved')}</Notice>;
  return (
    <div role="status" className={styles.notice}>
      <p>{t('admin.delivery.savedWithOrders')}</p>
      <OrdersTable orders={saved} withDates />
    </div>
  );
}

/**
 * Delivery (decision 142): each area with its postal codes, weekly delivery times and closed
 * days. A change that would take a placed order's time away is refused with the dates, and
 * closing a day with orders asks again with the orders listed.
 */
export function DeliveryScreen() {
  const { t } = useT();
  const list = useDelivery();
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <Heading level={1}>{t('admin.delivery.heading')}</Heading>
      <p>{t('admin.delivery.lead')}</p>
      <CreateDialog label={t('admin.delivery.newArea')} onDone={setCreated}>
        {(done, cancel) => <NewArea onDone={done} onCancel={cancel} />}
      </CreateDialog>
      {created ? <Notice>{t('admin.delivery.created', { name: created })}</Notice> : null}
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {list.data?.areas.length === 0 ? <p>{t('admin.delivery.noAreas')}</p> : null}
      {list.data?.areas.map((area) => (
        <AreaPanel key={area.id} area={area} />
      ))}
    </>
  );
}

/** The errors of a delivery write: the refusals that name orders or areas, else the summary. */
function DeliveryError({ error }: { error: unknown }) {
  const { t, lang } = useT();
  if (error instanceof ApiError && error.status === 409) {
    let message: string | null = null;
    if (error.type === '/problems/slot-booked') {
      const affected = (error.problem.affected ?? []) as { date: string; sold: number }[];
      message = t('admin.delivery.slotBooked', {
        count: Number(error.problem.booked ?? 0),
        dates: affected
          .map((d) => t('admin.delivery.bookedOn', { sold: d.sold, date: dayLabel(d.date, lang) }))
          .join(', '),
      });
    } else if (error.type === '/problems/postal-code-taken') {
      const taken = (error.problem.taken ?? []) as { postalCode: string; areaName: string }[];
      message = t('admin.delivery.postalCodeTaken', {
        codes: taken.map((c) => `${c.postalCode} (${c.areaName})`).join(', '),
      });
    }
    if (message) {
      return (
        <div role="alert" className={styles.errorSummary}>
          <p className={styles.errorTitle}>{message}</p>
        </div>
      );
    }
  }
  return <ErrorSummary error={error} />;
}

function NewArea({ onDone, onCancel }: { onDone: (name: string) => void; onCancel: () => void }) {
  const { t } = useT();
  const write = useWrite();
  const errors = useFieldErrors(write.error);
  return (
    <>
      <Heading slot="title">{t('admin.delivery.newArea')}</Heading>
      <DeliveryError error={write.error} />
      <AdminForm
        errors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          const name = String(new FormData(event.currentTarget).get('name') ?? '');
          const made = await write.run(() => post<AreaRow>(AREAS, { name }));
          if (made) onDone(made.name);
        }}
      >
        <Field name="name" label={t('admin.delivery.areaName')} isRequired autoFocus />
        <div className={styles.actions}>
          <Submit>{t('admin.delivery.create')}</Submit>
          <Button className={styles.secondary} onPress={onCancel}>
            {t('admin.delivery.cancel')}
          </Button>
        </div>
      </AdminForm>
    </>
  );
}

function AreaPanel({ area }: { area: AreaRow }) {
  const { t } = useT();
  const id = `area-${area.id}`;
  return (
    <section aria-labelledby={id} className={styles.panel}>
      <Heading level={2} id={id}>
        {area.name}
        {area.active ? null : (
          <span className={styles.muted}> · {t('admin.delivery.inactive')}</span>
        )}
      </Heading>
      <AreaSettings area={area} />
      <PostalCodes area={area} />
      <Slots area={area} />
      <ClosedDates area={area} />
    </section>
  );
}

function AreaSettings({ area }: { area: AreaRow }) {
  const { t } = useT();
  const change = useConfirmedWrite((body: { name: string; active: boolean }) =>
    put<AreaRow>(`${AREAS}/${area.id}`, body),
  );
  const [active, setActive] = useState(area.active);
  return (
    <ConfirmedWriteForm
      change={change}
      errors={useFieldErrors(change.error)}
      label={t('admin.delivery.area', { name: area.name })}
      className={styles.filters}
      body={(data) => ({ name: String(data.get('name') ?? ''), active })}
      save={t('admin.delivery.saveArea')}
      ask={{
        title: t('admin.delivery.turnOff'),
        text: (count) => t('admin.delivery.ordersInArea', { count }),
        confirm: t('admin.delivery.confirmTurnOff'),
      }}
    >
      <Field
        key={area.name}
        name="name"
        label={t('admin.delivery.areaName')}
        defaultValue={area.name}
      />
      <Checkbox isSelected={active} onChange={setActive} className={styles.checkbox}>
        <span className={styles.box} aria-hidden="true" />
        {t('admin.delivery.active')}
      </Checkbox>
    </ConfirmedWriteForm>
  );
}

/**
 * The form of an area's change that may concern upcoming orders (`useConfirmedWrite`): what the
 * change said above it, its fields and save button, and the dialog that asks again with the
 * orders (the refusal is said there, not above the form, while it asks).
 */
function ConfirmedWriteForm<Body extends object>({
  change,
  errors,
  label,
  className,
  body,
  save,
  ask,
  children,
}: {
  change: ReturnType<typeof useConfirmedWrite<Body>>;
  errors: Record<string, string>;
  label: string;
  className?: string;
  /** The change the form's fields ask for. */
  body: (data: FormData) => Body;
  save: string;
  ask: { title: string; text: (count: number) => string; confirm: string };
  children: ReactNode;
}) {
  return (
    <>
      {change.asking ? null : <DeliveryError error={change.error} />}
      <SavedNotice saved={change.saved} />
      <AdminForm
        errors={errors}
        aria-label={label}
        className={className}
        onSubmit={async (event) => {
          event.preventDefault();
          await change.run(body(new FormData(event.currentTarget)));
        }}
      >
        {children}
        <div className={styles.actions}>
          <Button type="submit" className={styles.secondary}>
            {save}
          </Button>
        </div>
      </AdminForm>
      <ConfirmOrdersDialog
        orders={change.asking?.orders ?? null}
        error={change.error}
        title={ask.title}
        text={ask.text(change.asking?.orders.length ?? 0)}
        confirmLabel={ask.confirm}
        withDates
        confirm={() => change.asking && void change.run(change.asking.body, change.asking.orders)}
        cancel={change.cancel}
      />
    </>
  );
}

/**
 * The codes of the field: separated by commas, semicolons or lines, or by spaces between whole
 * codes (`00100 00120`); a space inside a code (`00 120`) stays, and the server takes it out.
 */
function postalCodesOf(text: string): string[] {
  return text
    .split(/[,;\n]+/)
    .flatMap((part) => {
      const words = part.trim().split(/\s+/);
      return words.length > 1 && words.every((w) => w.length >= 4) ? words : [part.trim()];
    })
    .filter(Boolean);
}

function PostalCodes({ area }: { area: AreaRow }) {
  const { t } = useT();
  const change = useConfirmedWrite((body: { postalCodes: string[] }) =>
    put<AreaRow>(`${AREAS}/${area.id}/postal-codes`, body),
  );
  const errors = useFieldErrors(change.error);
  return (
    <ConfirmedWriteForm
      change={change}
      // The list's field errors are per code (`postalCodes.3`): shown on the one field.
      errors={
        Object.keys(errors).some((k) => k.startsWith('postalCodes'))
          ? { ...errors, postalCodes: t('admin.error.invalid') }
          : errors
      }
      label={t('admin.delivery.postalCodesOf', { name: area.name })}
      body={(data) => ({ postalCodes: postalCodesOf(String(data.get('postalCodes') ?? '')) })}
      save={t('admin.delivery.savePostalCodes')}
      ask={{
        title: t('admin.delivery.savePostalCodes'),
        text: (count) => t('admin.delivery.ordersToCodes', { count }),
        confirm: t('admin.delivery.confirmCodes'),
      }}
    >
      <TextAreaField
        // Shown again as the server keeps them (normalised) once saved.
        key={area.postalCodes.join(' ')}
        name="postalCodes"
        label={t('admin.delivery.postalCodes')}
        defaultValue={area.postalCodes.join(' ')}
        rows={3}
      />
    </ConfirmedWriteForm>
  );
}

function useSlotLabel() {
  const { t } = useT();
  return (slot: Pick<SlotRow, 'weekday' | 'startTime' | 'endTime'>) =>
    `${t(`admin.delivery.weekday.${slot.weekday as Weekday}`)} ${slot.startTime}–${slot.endTime}`;
}

function Slots({ area }: { area: AreaRow }) {
  const { t, lang } = useT();
  const label = useSlotLabel();
  const write = useWrite();
  const [removed, setRemoved] = useState<string | null>(null);
  const headingId = `slots-${area.id}`;
  return (
    <section aria-labelledby={headingId}>
      <Heading level={3} id={headingId}>
        {t('admin.delivery.slots')}
      </Heading>
      <DeliveryError error={write.error} />
      {removed ? <Notice>{t('admin.delivery.removed', { slot: removed })}</Notice> : null}
      {area.slots.length === 0 ? (
        <p>{t('admin.delivery.noSlots')}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col">{t('admin.delivery.weekday')}</th>
                <th scope="col">{t('admin.delivery.time')}</th>
                <th scope="col">{t('admin.delivery.capacity')}</th>
                <th scope="col">{t('admin.delivery.cutoff')}</th>
                <th scope="col">{t('admin.delivery.booked')}</th>
                <th scope="col">{t('admin.delivery.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {area.slots.map((slot) => (
                <tr key={slot.id} data-testid={`slot-${slot.id}`}>
                  <td data-label={t('admin.delivery.weekday')}>
                    {t(`admin.delivery.weekday.${slot.weekday as Weekday}`)}
                  </td>
                  <td data-label={t('admin.delivery.time')}>
                    {slot.startTime}–{slot.endTime}
                  </td>
                  <td data-label={t('admin.delivery.capacity')}>{slot.capacity}</td>
                  <td data-label={t('admin.delivery.cutoff')}>
                    {t('admin.delivery.cutoffText', {
                      days: slot.cutoffDaysBefore,
                      time: slot.cutoffTime,
                    })}
                  </td>
                  <td data-label={t('admin.delivery.booked')}>
                    {slot.booked.length === 0
                      ? t('admin.delivery.nothingBooked')
                      : slot.booked
                          .map((b) =>
                            t('admin.delivery.bookedOn', {
                              sold: b.sold,
                              date: dayLabel(b.date, lang),
                            }),
                          )
                          .join(', ')}
                  </td>
                  <td data-label={t('admin.delivery.actions')}>
                    <div className={styles.inlineActions}>
                      <SlotDialog area={area} slot={slot} />
                      <Button
                        className={styles.secondary}
                        aria-label={t('admin.delivery.removeSlot', { slot: label(slot) })}
                        onPress={async () => {
                          setRemoved(null);
                          const done = await write.run(() =>
                            del<AreaRow>(`${AREAS}/${area.id}/slots/${slot.id}`),
                          );
                          if (done) setRemoved(label(slot));
                        }}
                      >
                        {t('admin.delivery.remove')}
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={styles.actions}>
        <SlotDialog area={area} />
      </div>
    </section>
  );
}

/** A number field's value as a number, or as written when it is none (the server says why). */
const numberOf = (value: FormDataEntryValue | null) => {
  const text = String(value ?? '').trim();
  return /^\d{1,9}$/.test(text) ? Number(text) : text;
};

/** Adds a weekly delivery time, or (with `slot`) changes one, in a dialog. */
function SlotDialog({ area, slot }: { area: AreaRow; slot?: SlotRow }) {
  const { t } = useT();
  const label = useSlotLabel();
  const write = useWrite();
  const errors = useFieldErrors(write.error);
  const title = slot
    ? t('admin.delivery.editSlot', { slot: label(slot) })
    : t('admin.delivery.addSlot');
  return (
    <DialogTrigger onOpenChange={() => write.setError(null)}>
      <Button className={slot ? styles.secondary : styles.primary} aria-label={title}>
        {slot ? t('admin.delivery.edit') : t('admin.delivery.addSlot')}
      </Button>
      <Modal isDismissable className={styles.modal}>
        <Dialog className={styles.dialog}>
          {({ close }) => (
            <>
              <Heading slot="title">{title}</Heading>
              <DeliveryError error={write.error} />
              <AdminForm
                errors={errors}
                onSubmit={async (event) => {
                  event.preventDefault();
                  const data = new FormData(event.currentTarget);
                  const body = {
                    weekday: numberOf(data.get('weekday')),
                    startTime: String(data.get('startTime') ?? ''),
                    endTime: String(data.get('endTime') ?? ''),
                    capacity: numberOf(data.get('capacity')),
                    cutoffDaysBefore: numberOf(data.get('cutoffDaysBefore')),
                    cutoffTime: String(data.get('cutoffTime') ?? ''),
                  };
                  const done = await write.run(() =>
                    slot
                      ? put<AreaRow>(`${AREAS}/${area.id}/slots/${slot.id}`, body)
                      : post<AreaRow>(`${AREAS}/${area.id}/slots`, body),
                  );
                  if (done) close();
                }}
              >
                <ChoiceSelect
                  name="weekday"
                  label={t('admin.delivery.weekday')}
                  defaultValue={String(slot?.weekday ?? 1)}
                  options={WEEKDAYS.map(
                    (d) => [String(d), t(`admin.delivery.weekday.${d}`)] as const,
                  )}
                />
                <div className={styles.row3}>
                  <Field
                    name="startTime"
                    type="time"
                    label={t('admin.delivery.startTime')}
                    defaultValue={slot?.startTime ?? '08:00'}
                    isRequired
                  />
                  <Field
                    name="endTime"
                    type="time"
                    label={t('admin.delivery.endTime')}
                    defaultValue={slot?.endTime ?? '12:00'}
                    isRequired
                  />
                  <Field
                    name="capacity"
                    type="number"
                    inputMode="numeric"
                    label={t('admin.delivery.capacity')}
                    defaultValue={String(slot?.capacity ?? 10)}
                    isRequired
                    autoFocus={Boolean(slot)}
                  />
                </div>
                <div className={styles.row3}>
                  <Field
                    name="cutoffDaysBefore"
                    type="number"
                    inputMode="numeric"
                    label={t('admin.delivery.cutoffDaysBefore')}
                    defaultValue={String(slot?.cutoffDaysBefore ?? 1)}
                    isRequired
                  />
                  <Field
                    name="cutoffTime"
                    type="time"
                    label={t('admin.delivery.cutoffTime')}
                    defaultValue={slot?.cutoffTime ?? '12:00'}
                    isRequired
                  />
                </div>
                <div className={styles.actions}>
                  <Submit>{t('admin.delivery.saveSlot')}</Submit>
                  <Button className={styles.secondary} onPress={close}>
                    {t('admin.delivery.cancel')}
                  </Button>
                </div>
              </AdminForm>
            </>
          )}
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}

/** A day with orders on it, asked again before it is closed. */
interface Asking {
  date: string;
  orders: BookedOrder[];
}

/** Closing and opening the area's dates, and what was said of the last of them. */
function useClosedDates(area: AreaRow) {
  const { t, lang } = useT();
  const write = useWrite();
  const [asking, setAsking] = useState<Asking | null>(null);
  const [done, setDone] = useState<{ text: string; orders: BookedOrder[] } | null>(null);
  const close = async (date: string, orders?: BookedOrder[]) => {
    setDone(null);
    const body = orders ? { date, confirm: true, orderIds: orders.map((o) => o.id) } : { date };
    const answer = await write.run(() =>
      post<ClosedAnswer>(`${AREAS}/${area.id}/closed-dates`, body).catch((err: unknown) => {
        // Orders on the day: asked again with the orders (the list as it is now).
        if (err instanceof ApiError && err.type === '/problems/orders-on-date') {
          return { ask: (err.problem.orders ?? []) as BookedOrder[] };
        }
        throw err;
      }),
    );
    // Asked once the write is over, so that the dialog's button is not pressed while it runs.
    if (answer && 'ask' in answer) setAsking({ date, orders: answer.ask });
    else if (answer) {
      setAsking(null);
      const key = answer.orders.length
        ? 'admin.delivery.closedWithOrders'
        : 'admin.delivery.closed';
      setDone({ text: t(key, { date: dayLabel(date, lang) }), orders: answer.orders });
    }
  };
  const reopen = async (date: string) => {
    setDone(null);
    const answer = await write.run(() => del<AreaRow>(`${AREAS}/${area.id}/closed-dates/${date}`));
    if (answer)
      setDone({ text: t('admin.delivery.reopened', { date: dayLabel(date, lang) }), orders: [] });
  };
  return { error: write.error, asking, setAsking, done, close, reopen };
}

function ClosedDates({ area }: { area: AreaRow }) {
  const { t, lang } = useT();
  const { error, asking, setAsking, done, close, reopen } = useClosedDates(area);
  const errors = useFieldErrors(error);
  const headingId = `closed-${area.id}`;
  return (
    <section aria-labelledby={headingId}>
      <Heading level={3} id={headingId}>
        {t('admin.delivery.closedDates')}
      </Heading>
      {done ? (
        <div role="status" className={styles.notice}>
          <p>{done.text}</p>
          {done.orders.length ? <OrdersTable orders={done.orders} /> : null}
        </div>
      ) : null}
      <ClosedDateList area={area} reopen={reopen} />
      {asking ? null : <DeliveryError error={error} />}
      <AdminForm
        errors={errors}
        aria-label={t('admin.delivery.closedDatesOf', { name: area.name })}
        className={styles.filters}
        onSubmit={async (event) => {
          event.preventDefault();
          const date = String(new FormData(event.currentTarget).get('date') ?? '');
          await close(date);
        }}
      >
        <Field name="date" type="date" label={t('admin.delivery.date')} isRequired />
        <div className={styles.actions}>
          <Button type="submit" className={styles.secondary}>
            {t('admin.delivery.close')}
          </Button>
        </div>
      </AdminForm>
      <ConfirmOrdersDialog
        orders={asking?.orders ?? null}
        error={error}
        title={t('admin.delivery.close')}
        text={
          asking
            ? t('admin.delivery.ordersOnDate', {
                count: asking.orders.length,
                date: dayLabel(asking.date, lang),
              })
            : ''
        }
        confirmLabel={t('admin.delivery.confirmClose')}
        confirm={() => asking && void close(asking.date, asking.orders)}
        cancel={() => setAsking(null)}
      />
    </section>
  );
}

/** The area's closed dates, each with its orders' count and a button to open it again. */
function ClosedDateList({ area, reopen }: { area: AreaRow; reopen: (date: string) => void }) {
  const { t, lang } = useT();
  if (area.closedDates.length === 0) return <p>{t('admin.delivery.noClosed')}</p>;
  return (
    <ul className={styles.plainList}>
      {area.closedDates.map((c) => (
        <li key={c.date} className={styles.listRow}>
          <span>
            {dayLabel(c.date, lang)}
            {c.orders > 0 ? (
              <span className={styles.muted}>
                {' '}
                · {t('admin.delivery.closedOrders', { count: c.orders })}
              </span>
            ) : null}
          </span>
          <Button
            className={styles.secondary}
            aria-label={t('admin.delivery.reopenDate', { date: dayLabel(c.date, lang) })}
            onPress={() => reopen(c.date)}
          >
            {t('admin.delivery.reopen')}
          </Button>
        </li>
      ))}
    </ul>
  );
}

/**
 * A change that concerns booked orders (closing a day, turning an area off, removing its postal
 * codes): the orders shown, and the change confirmed or cancelled.
 */
function ConfirmOrdersDialog({
  orders,
  error,
  title,
  text,
  confirmLabel,
  withDates = false,
  confirm,
  cancel,
}: {
  orders: BookedOrder[] | null;
  error: unknown;
  title: string;
  text: string;
  confirmLabel: string;
  withDates?: boolean;
  confirm: () => void;
  cancel: () => void;
}) {
  const { t } = useT();
  return (
    <Modal
      isDismissable
      isOpen={orders !== null}
      onOpenChange={(open) => {
        if (!open) cancel();
      }}
      className={styles.modal}
    >
      <Dialog role="alertdialog" className={styles.dialog}>
        {orders ? (
          <>
            <Heading slot="title">{title}</Heading>
            <DeliveryError error={error} />
            <p>{text}</p>
            <OrdersTable orders={orders} withDates={withDates} />
            <div className={styles.actions}>
              <Button className={styles.primary} onPress={confirm}>
                {confirmLabel}
              </Button>
              <Button className={styles.secondary} onPress={cancel}>
                {t('admin.delivery.cancel')}
              </Button>
            </div>
          </>
        ) : null}
      </Dialog>
    </Modal>
  );
}

/** Orders on a day (or, `withDates`, on several), as staff contact their shoppers. */
function OrdersTable({
  orders,
  withDates = false,
}: {
  orders: BookedOrder[];
  withDates?: boolean;
}) {
  const { t, lang } = useT();
  return (
    <div className={styles.tableWrap}>
      <table
        className={styles.table}
        aria-label={
          withDates
            ? t('admin.delivery.upcomingOrders')
            : t('admin.delivery.orders', { date: orders[0]?.deliveryDate ?? '' })
        }
      >
        <thead>
          <tr>
            <th scope="col">{t('admin.delivery.orderNumber')}</th>
            <th scope="col">{t('admin.delivery.customer')}</th>
            <th scope="col">{t('admin.delivery.time')}</th>
            <th scope="col">{t('admin.delivery.contact')}</th>
            <th scope="col">{t('admin.delivery.status')}</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id}>
              <td data-label={t('admin.delivery.orderNumber')}>{o.number}</td>
              <td data-label={t('admin.delivery.customer')}>{o.name}</td>
              <td data-label={t('admin.delivery.time')}>
                {withDates ? `${dayLabel(o.deliveryDate, lang)} ` : ''}
                {o.startTime}–{o.endTime}
              </td>
              <td data-label={t('admin.delivery.contact')}>
                {o.email}
                <br />
                {o.phoneNumber}
              </td>
              <td data-label={t('admin.delivery.status')}>
                {o.status === 'paid' || o.status === 'pending_payment'
                  ? t(`admin.delivery.status.${o.status}`)
                  : o.status}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
