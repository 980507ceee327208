import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import type {
  FulfilAnswer,
  FulfilBody,
  FulfilmentStatus,
  OrderDetail,
  OrderTimelineEntry,
  RefundBody,
  RefundStatus,
} from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import { useCan } from '../session.tsx';
import { eurosToCents } from '../shop-values.ts';
import {
  AdminForm,
  ChoiceRadios,
  DialogActions,
  ErrorSummary,
  LiveStatus,
  ModalDialog,
  NumberField,
  Section,
  Submit,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { fulfilmentSteps, ORDERS_API, paymentStatuses, slotText } from './orders.tsx';
import { RowsTable } from './shop-parts.tsx';

const REFUNDS: Record<RefundStatus, null> = {
  requested: null,
  pending: null,
  ok: null,
  fail: null,
};
const refundStatuses = Object.keys(REFUNDS) as RefundStatus[];

export const orderKey = (id: string) => ['order', id] as const;

/** A percentage of basis points: 2550 → `25,5 %`. */
function percent(basisPoints: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(
    basisPoints / 10_000,
  );
}

/** The answers said as an alert of their own, and the order read again: the order moved on. */
const ALERTS = [409, 502];

/**
 * What an answer that the order moved on (409) or that its payment provider did not answer (502)
 * says: the server's field errors (admin catalogue keys) if it gave any, else `texts[status]`.
 */
function useAlert(error: unknown, texts: Record<409 | 502, string>): string | null {
  const fields = useFieldErrors(error);
  if (!(error instanceof ApiError && (error.status === 409 || error.status === 502))) return null;
  const said = [...new Set(Object.values(fields))];
  return said.length > 0 ? said.join(' ') : texts[error.status];
}

const isAlert = (error: unknown) => error instanceof ApiError && ALERTS.includes(error.status);
/** An error other than those said as an alert, for an error summary. */
const notAlert = (error: unknown) => (isAlert(error) ? null : error);

/**
 * One order: who and where, its lines and sums with VAT per rate, coupons, gift cards, payments
 * and refunds, what happened (newest first), and what staff may do now: the next fulfilment
 * step, cancel, refund, a note.
 */
export function OrderScreen() {
  const { id = '' } = useParams();
  const { t, dateTime } = useT();
  const order = useQuery({
    queryKey: orderKey(id),
    queryFn: () => get<OrderDetail>(`${ORDERS_API}/${id}`),
    retry: false,
  });
  if (!order.data) {
    const status = order.error instanceof ApiError ? order.error.status : 0;
    return (
      <p role={order.isError ? 'alert' : undefined}>
        {order.isError
          ? t(
              status === 403
                ? 'admin.error.forbidden'
                : status === 404 || status === 400
                  ? 'admin.order.notFound'
                  : 'admin.error.load',
            )
          : t('admin.loading')}
      </p>
    );
  }
  const o = order.data;
  return (
    <>
      <p>
        <Link to="/orders">{t('admin.order.back')}</Link>
      </p>
      <Heading level={1}>{t('admin.order.heading', { number: o.number })}</Heading>
      <p className={styles.muted}>
        {t('admin.orders.placed')}: {dateTime(o.createdAt)} · {o.siteId} · {o.lang}
      </p>
      <Handling order={o} />
      <Customer order={o} />
      <Lines order={o} />
      <Sums order={o} />
      <Money order={o} />
      <NoteForm order={o} />
      <Timeline entries={o.timeline} />
    </>
  );
}

/**
 * What an action on the order says once done (politely) or when the order had moved on (an
 * alert); after each, the order and the lists are read again.
 */
function useOutcome(id: string) {
  const client = useQueryClient();
  const [said, setSaid] = useState<{ text: string; alert: boolean } | null>(null);
  const refresh = async (answer?: OrderDetail) => {
    if (answer) client.setQueryData(orderKey(id), answer);
    await Promise.all([
      answer ? null : client.invalidateQueries({ queryKey: orderKey(id) }),
      client.invalidateQueries({ queryKey: ['orders'] }),
      client.invalidateQueries({ queryKey: ['pickList'] }),
    ]);
  };
  /**
   * After a dialog's action: focus goes back to the button that opened it, or, when the order no
   * longer has that button (cancelled, nothing left to refund), to the handling's heading.
   */
  const refocus = () =>
    setTimeout(() => {
      const at = document.activeElement;
      if (!at || at === document.body) document.getElementById('handling')?.focus();
    }, 50);
  return { said, setSaid, refresh, refocus };
}

type Outcome = ReturnType<typeof useOutcome>;

/** The order's state and the actions it may take now. */
function Handling({ order: o }: { order: OrderDetail }) {
  const { t, money } = useT();
  const outcome = useOutcome(o.id);
  const canManage = useCan('orders.manage');
  const canRefund = useCan('orders.refund');
  const payment = o.payment ?? 'none';
  return (
    <Section id="handling" title={t('admin.order.handling')} focusable>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.orders.status')}</dt>
          <dd>{t(`admin.orders.status.${o.status}`)}</dd>
        </div>
        <div>
          <dt>{t('admin.orders.fulfilment')}</dt>
          <dd>{t(`admin.orders.fulfilment.${o.fulfilment}`)}</dd>
        </div>
        <div>
          <dt>{t('admin.orders.payment')}</dt>
          <dd>{t(`admin.orders.payment.${payment}`)}</dd>
        </div>
        <div>
          <dt>{t('admin.order.refundable')}</dt>
          <dd>{money(o.refundableCents)}</dd>
        </div>
      </dl>
      <LiveStatus text={outcome.said?.alert ? null : outcome.said?.text} />
      {outcome.said?.alert ? (
        <p role="alert" className={styles.errorSummary}>
          {outcome.said.text}
        </p>
      ) : null}
      {canManage && o.nextFulfilment.length > 0 ? (
        <FulfilButtons order={o} outcome={outcome} />
      ) : null}
      <div className={styles.actions}>
        {canManage ? <CancelDialog order={o} outcome={outcome} /> : null}
        {canRefund ? <RefundDialog order={o} outcome={outcome} /> : null}
      </div>
    </Section>
  );
}

/** Whether `to` is a step forward from `from` (else back, to undo a step taken by mistake). */
const forward = (from: FulfilmentStatus, to: FulfilmentStatus) =>
  fulfilmentSteps.indexOf(to) > fulfilmentSteps.indexOf(from);

function FulfilButtons({ order: o, outcome }: { order: OrderDetail; outcome: Outcome }) {
  const { t } = useT();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const fulfil = async (to: FulfilmentStatus) => {
    if (pending) return;
    setPending(true);
    setError(null);
    outcome.setSaid(null);
    try {
      const body: FulfilBody = { orders: [{ id: o.id, from: o.fulfilment }], to };
      const answer = await post<FulfilAnswer>(`${ORDERS_API}/fulfilment`, body);
      outcome.setSaid(
        answer.moved.includes(o.id)
          ? {
              text: t('admin.order.fulfilled', { step: t(`admin.orders.fulfilment.${to}`) }),
              alert: false,
            }
          : { text: t('admin.order.fulfilStale'), alert: true },
      );
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
      await outcome.refresh();
    }
  };
  return (
    <>
      <ErrorSummary error={error} />
      <fieldset className={styles.buttonGroup}>
        <legend>{t('admin.order.fulfilSteps')}</legend>
        <div className={styles.actions}>
          {o.nextFulfilment.map((to) => (
            <Button
              key={to}
              className={forward(o.fulfilment, to) ? styles.primary : styles.secondary}
              onPress={() => void fulfil(to)}
            >
              {forward(o.fulfilment, to)
                ? t(`admin.order.fulfil.${to}`)
                : t('admin.order.fulfilBack', { step: t(`admin.orders.fulfilment.${to}`) })}
            </Button>
          ))}
        </div>
      </fieldset>
    </>
  );
}

/**
 * A button that opens a modal dialog (focus kept inside, Escape and outside press close it).
 * Shown while `shown`, and while open even when the order it reads no longer allows the action
 * (its answer, an alert, stays in view).
 */
function ActionDialog({
  label,
  danger,
  shown,
  onOpen,
  children,
}: {
  label: string;
  danger?: boolean;
  shown: boolean;
  /** Called as it opens (what the last action said goes). */
  onOpen: () => void;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (!shown && !open) return null;
  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) onOpen();
      }}
    >
      <Button className={danger ? styles.danger : styles.secondary}>{label}</Button>
      <ModalDialog>{(close) => children(close)}</ModalDialog>
    </DialogTrigger>
  );
}

function CancelDialog({ order: o, outcome }: { order: OrderDetail; outcome: Outcome }) {
  const { t } = useT();
  return (
    <ActionDialog
      label={t('admin.order.cancel')}
      danger
      shown={o.cancellable}
      onOpen={() => outcome.setSaid(null)}
    >
      {(close) => <CancelForm order={o} outcome={outcome} close={close} />}
    </ActionDialog>
  );
}

/**
 * A cancel or a refund sent from its dialog: it needs re-authentication; the order moving on
 * (409) or its payment provider not answering (502) is said as an alert and the order is read
 * again; done, the dialog closes and the screen says `said` of the order as it now is.
 */
function useMoneyAction(outcome: Outcome, close: () => void, alerts: Record<409 | 502, string>) {
  const sensitive = useSensitive();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const conflict = useAlert(error, alerts);
  const send = async (request: () => Promise<OrderDetail>, said: (now: OrderDetail) => string) => {
    setPending(true);
    setError(null);
    try {
      const answer = await sensitive(request);
      close();
      outcome.setSaid({ text: said(answer), alert: false });
      await outcome.refresh(answer);
      outcome.refocus();
    } catch (e) {
      setError(e);
      if (isAlert(e)) await outcome.refresh();
    } finally {
      setPending(false);
    }
  };
  return { error, setError, pending, conflict, send };
}

type MoneyAction = ReturnType<typeof useMoneyAction>;

/** A money action's dialog: its heading and lead, what went wrong, and its form. */
function MoneyActionForm({
  heading,
  lead,
  action,
  submit,
  children,
}: {
  heading: string;
  lead: ReactNode;
  action: MoneyAction;
  /** Sends the form (not while it is being sent). */
  submit: (form: FormData) => Promise<void>;
  children: ReactNode;
}) {
  return (
    <>
      <Heading slot="title">{heading}</Heading>
      {lead}
      {action.conflict ? (
        <p role="alert" className={styles.errorSummary}>
          {action.conflict}
        </p>
      ) : null}
      <ErrorSummary error={notAlert(action.error)} />
      <AdminForm
        errors={useFieldErrors(notAlert(action.error))}
        onSubmit={async (event) => {
          event.preventDefault();
          if (action.pending) return;
          await submit(new FormData(event.currentTarget));
        }}
      >
        {children}
      </AdminForm>
    </>
  );
}

function CancelForm({
  order: o,
  outcome,
  close,
}: {
  order: OrderDetail;
  outcome: Outcome;
  close: () => void;
}) {
  const { t, money } = useT();
  const action = useMoneyAction(outcome, close, {
    409: t('admin.order.cancelConflict'),
    502: t('admin.order.cancelProviderDown'),
  });
  const paid = o.status === 'paid';
  return (
    <MoneyActionForm
      heading={t('admin.order.cancelHeading', { number: o.number })}
      lead={
        <p>
          {paid
            ? t('admin.order.cancelPaidLead', { amount: money(o.refundableCents) })
            : t('admin.order.cancelLead')}
        </p>
      }
      action={action}
      submit={async (form) => {
        const reason = String(form.get('reason') ?? '');
        await action.send(
          () => post<OrderDetail>(`${ORDERS_API}/${o.id}/cancel`, { reason }),
          () => t('admin.order.cancelled'),
        );
      }}
    >
      <TextAreaField
        name="reason"
        label={t('admin.order.cancelReason')}
        description={t('admin.order.cancelReasonHint')}
        rows={3}
        maxLength={1000}
        autoFocus
      />
      <DialogActions
        confirm={t('admin.order.cancelConfirm')}
        cancel={t('admin.order.cancelKeep')}
        close={close}
        danger
      />
    </MoneyActionForm>
  );
}

function RefundDialog({ order: o, outcome }: { order: OrderDetail; outcome: Outcome }) {
  const { t } = useT();
  return (
    <ActionDialog
      label={t('admin.order.refund')}
      shown={o.refundableCents > 0}
      onOpen={() => outcome.setSaid(null)}
    >
      {(close) => <RefundForm order={o} outcome={outcome} close={close} />}
    </ActionDialog>
  );
}

/** What the form's fields ask for: a refund body, or the field errors that stop it (keys). */
function refundAsk(
  data: FormData,
  o: OrderDetail,
  key: string,
): { body: RefundBody } | { errors: Record<string, string> } {
  if (data.get('by') !== 'lines') {
    const cents = eurosToCents(String(data.get('amountCents') ?? ''));
    if (cents === null || cents < 1)
      return { errors: { amountCents: 'admin.order.refund.amountInvalid' } };
    if (cents > o.refundableCents) return { errors: { amountCents: 'admin.order.refund.tooMuch' } };
    return { body: { key, amountCents: cents } };
  }
  const errors: Record<string, string> = {};
  const lines: { code: string; quantity: number }[] = [];
  for (const line of refundableLines(o)) {
    const text = String(data.get(`lines.${line.code}`) ?? '').trim();
    if (text === '' || text === '0') continue;
    const quantity = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
    if (!(quantity >= 1 && quantity <= line.quantity - line.refundedQuantity)) {
      errors[`lines.${line.code}`] = 'admin.order.refund.quantityInvalid';
    } else lines.push({ code: line.code, quantity });
  }
  if (Object.keys(errors).length > 0) return { errors };
  if (lines.length === 0) return { errors: { lines: 'admin.order.refund.noLines' } };
  return { body: { key, lines } };
}

const refundableLines = (o: OrderDetail) =>
  o.lines.filter((line) => line.quantity > line.refundedQuantity);

/**
 * A refund, by an amount or by units of lines. Its idempotency key is made once when the dialog
 * opens: a second press (or a retry after re-authentication) is the same refund. The fields are
 * checked here as the API's schema checks them; the server decides (what is left may have gone
 * down meanwhile: a 409, said as an alert, and the order is read again).
 */
function RefundForm({
  order: o,
  outcome,
  close,
}: {
  order: OrderDetail;
  outcome: Outcome;
  close: () => void;
}) {
  const { t, money } = useT();
  const [key] = useState(() => crypto.randomUUID());
  const [by, setBy] = useState<'amount' | 'lines'>('amount');
  const action = useMoneyAction(outcome, close, {
    409: t('admin.order.refund.conflict'),
    502: t('admin.order.providerDown'),
  });
  const lines = refundableLines(o);
  return (
    <MoneyActionForm
      heading={t('admin.order.refundHeading', { number: o.number })}
      lead={
        <p>
          <strong>{t('admin.order.refund.left', { amount: money(o.refundableCents) })}</strong>
        </p>
      }
      action={action}
      submit={async (form) => {
        const ask = refundAsk(form, o, key);
        if ('errors' in ask) {
          action.setError(new ApiError(400, '/problems/validation', ask.errors, null));
          return;
        }
        await action.send(
          () => post<OrderDetail>(`${ORDERS_API}/${o.id}/refunds`, ask.body),
          (now) => {
            const amount = Math.max(0, o.refundableCents - now.refundableCents);
            return amount
              ? t('admin.order.refunded', { amount: money(amount) })
              : t('admin.order.refundAsked');
          },
        );
      }}
    >
      <ChoiceRadios
        name="by"
        label={t('admin.order.refund.by')}
        options={[
          ['amount', t('admin.order.refund.byAmount')],
          ['lines', t('admin.order.refund.byLines'), lines.length === 0],
        ]}
        value={by}
        onChange={setBy}
      />
      {by === 'amount' ? (
        <NumberField
          name="amountCents"
          label={t('admin.order.refund.amount')}
          description={t('admin.order.refund.amountHint')}
          decimal
          autoFocus
        />
      ) : (
        <fieldset className={styles.fieldset}>
          <legend className={styles.label}>{t('admin.order.refund.lines')}</legend>
          {lines.map((line) => (
            <NumberField
              key={line.code}
              name={`lines.${line.code}`}
              label={t('admin.order.refund.lineQuantity', { name: line.name, code: line.code })}
              description={t('admin.order.refund.lineLeft', {
                count: line.quantity - line.refundedQuantity,
                price: money(Math.round(line.chargedCents / line.quantity)),
              })}
            />
          ))}
        </fieldset>
      )}
      <DialogActions
        confirm={t('admin.order.refundConfirm')}
        cancel={t('admin.order.close')}
        close={close}
      />
    </MoneyActionForm>
  );
}

function Customer({ order: o }: { order: OrderDetail }) {
  const { t, day } = useT();
  const address = (a: OrderDetail['deliveryAddress']) =>
    `${a.firstName} ${a.lastName}\n${a.streetAddress}\n${a.postalCode} ${a.city}`;
  return (
    <Section id="customer" title={t('admin.order.customer')}>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.order.name')}</dt>
          <dd>{o.name}</dd>
        </div>
        <div>
          <dt>{t('admin.order.email')}</dt>
          <dd>
            <a href={`mailto:${o.email}`}>{o.email}</a>
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.phone')}</dt>
          <dd>
            <a href={`tel:${o.phoneNumber.replace(/\s/g, '')}`}>{o.phoneNumber}</a>
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.deliveryAddress')}</dt>
          <dd>{address(o.deliveryAddress)}</dd>
        </div>
        <div>
          <dt>{t('admin.order.billingAddress')}</dt>
          <dd>{address(o.billingAddress)}</dd>
        </div>
        <div>
          <dt>{t('admin.orders.delivery')}</dt>
          <dd>
            {o.deliveryDate
              ? `${day(o.deliveryDate)} ${slotText(o.startTime, o.endTime)}`
              : t('admin.orders.noDelivery')}
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.additionalInformation')}</dt>
          <dd>{o.additionalInformation || '–'}</dd>
        </div>
      </dl>
    </Section>
  );
}

function Lines({ order: o }: { order: OrderDetail }) {
  const { t, money, lang } = useT();
  const locale = lang === 'en' ? 'en-GB' : lang === 'sv' ? 'sv-FI' : 'fi-FI';
  const refunds = o.lines.some((line) => line.refundedQuantity > 0);
  return (
    <Section id="lines" title={t('admin.order.lines')}>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className={styles.srOnly}>
            {t('admin.order.linesCaption', { number: o.number })}
          </caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.order.product')}</th>
              <th scope="col">{t('admin.order.quantity')}</th>
              <th scope="col">{t('admin.order.unitPrice')}</th>
              <th scope="col">{t('admin.order.charged')}</th>
              <th scope="col">{t('admin.order.vatRate')}</th>
              {refunds ? <th scope="col">{t('admin.order.refundedQuantity')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {o.lines.map((line) => (
              <tr key={line.code}>
                <td data-label={t('admin.order.product')}>
                  <span className={styles.stack}>
                    <span>{line.name}</span>
                    <span className={styles.muted}>
                      {line.code}
                      {line.isGiftCard ? ` · ${t('admin.order.giftCardLine')}` : ''}
                    </span>
                  </span>
                </td>
                <td data-label={t('admin.order.quantity')}>{line.quantity}</td>
                <td data-label={t('admin.order.unitPrice')}>{money(line.unitPriceCents)}</td>
                <td data-label={t('admin.order.charged')}>
                  {money(line.chargedCents)}
                  {line.chargedCents !== line.linePriceCents ? (
                    <span className={styles.muted}>
                      {' '}
                      ({t('admin.order.before', { amount: money(line.linePriceCents) })})
                    </span>
                  ) : null}
                </td>
                <td data-label={t('admin.order.vatRate')}>
                  {percent(line.vatBasisPoints, locale)}
                </td>
                {refunds ? (
                  <td data-label={t('admin.order.refundedQuantity')}>{line.refundedQuantity}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function Sums({ order: o }: { order: OrderDetail }) {
  const { t, money, lang } = useT();
  const locale = lang === 'en' ? 'en-GB' : lang === 'sv' ? 'sv-FI' : 'fi-FI';
  const rows: [string, string][] = [
    [t('admin.order.subTotal'), money(o.subTotalCents)],
    ...(o.discountCents
      ? [[t('admin.order.discount'), money(-o.discountCents)] as [string, string]]
      : []),
    [t('admin.order.shipping'), money(o.shippingCents)],
    ...(o.usedGiftCardCents
      ? [
          [t('admin.order.beforeGiftCards'), money(o.totalCents + o.usedGiftCardCents)] as [
            string,
            string,
          ],
          [t('admin.order.giftCardsUsed'), money(-o.usedGiftCardCents)] as [string, string],
        ]
      : []),
    [t('admin.orders.total'), money(o.totalCents)],
    [t('admin.order.vatIncluded'), money(o.vatCents)],
  ];
  return (
    <Section id="sums" title={t('admin.order.sums')}>
      <dl className={styles.sums}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {o.vat.length > 0 ? (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className={styles.caption}>{t('admin.order.vatCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.order.vatRate')}</th>
                <th scope="col">{t('admin.order.vatGross')}</th>
                <th scope="col">{t('admin.order.vatAmount')}</th>
              </tr>
            </thead>
            <tbody>
              {o.vat.map((rate) => (
                <tr key={rate.basisPoints}>
                  <td data-label={t('admin.order.vatRate')}>{percent(rate.basisPoints, locale)}</td>
                  <td data-label={t('admin.order.vatGross')}>{money(rate.grossCents)}</td>
                  <td data-label={t('admin.order.vatAmount')}>{money(rate.vatCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </Section>
  );
}

/** Coupons, gift cards, the payment attempts and the refunds. */
function Money({ order: o }: { order: OrderDetail }) {
  const { t, money, dateTime } = useT();
  const lineName = (code: string) => o.lines.find((l) => l.code === code)?.name ?? code;
  return (
    <Section id="money" title={t('admin.order.money')}>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.order.coupons')}</dt>
          <dd>{o.couponCodes.length > 0 ? o.couponCodes.join(', ') : '–'}</dd>
        </div>
        <div>
          <dt>{t('admin.order.giftCards')}</dt>
          <dd>
            {o.giftCards.length > 0
              ? o.giftCards
                  .map((card) =>
                    t('admin.order.giftCard', { id: card.id, amount: money(card.amountCents) }),
                  )
                  .join(', ')
              : '–'}
          </dd>
        </div>
      </dl>
      <RowsTable
        caption={t('admin.order.payments')}
        columns={[
          [t('admin.order.at'), (p) => dateTime(p.createdAt)],
          [
            t('admin.order.provider'),
            (p) =>
              p.method && p.method !== p.provider ? `${p.provider} · ${p.method}` : p.provider,
          ],
          [t('admin.orders.status'), (p) => t(`admin.orders.payment.${p.status}`)],
          [t('admin.order.amount'), (p) => money(p.amountCents)],
        ]}
        rows={o.payments}
        rowKey={(p) => p.stamp}
        empty={t('admin.order.noPayments')}
      />
      <RowsTable
        caption={t('admin.order.refunds')}
        columns={[
          [t('admin.order.at'), (r) => dateTime(r.createdAt)],
          [t('admin.order.amount'), (r) => money(r.amountCents)],
          [t('admin.orders.status'), (r) => t(`admin.order.refundStatus.${r.status}`)],
          [
            t('admin.order.refundLines'),
            (r) =>
              r.lines
                ? r.lines.map((l) => `${l.quantity} × ${lineName(l.code)}`).join(', ')
                : t('admin.order.byAmount'),
          ],
        ]}
        rows={o.refunds}
        rowKey={(r) => r.id}
        empty={t('admin.order.noRefunds')}
      />
    </Section>
  );
}

function NoteForm({ order: o }: { order: OrderDetail }) {
  const { t } = useT();
  const outcome = useOutcome(o.id);
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  return (
    <Section id="note" title={t('admin.order.note')}>
      <LiveStatus text={done ? t('admin.order.noteAdded') : null} />
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          setPending(true);
          setError(null);
          setDone(false);
          try {
            const answer = await post<OrderDetail>(`${ORDERS_API}/${o.id}/notes`, { text });
            setText('');
            setDone(true);
            await outcome.refresh(answer);
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <TextAreaField
          name="text"
          label={t('admin.order.noteText')}
          value={text}
          onChange={setText}
          rows={3}
          isRequired
        />
        <Submit>{t('admin.order.addNote')}</Submit>
      </AdminForm>
    </Section>
  );
}

/** What happened to the order, newest first. */
function Timeline({ entries }: { entries: OrderTimelineEntry[] }) {
  const { t, dateTime } = useT();
  // The API's order is oldest first: reversed, and sorted (stably) in case it were not.
  const newestFirst = [...entries].reverse().sort((a, b) => b.at.localeCompare(a.at));
  return (
    <Section id="timeline" title={t('admin.order.timeline')}>
      <p className={styles.muted}>{t('admin.order.newestFirst')}</p>
      {newestFirst.length === 0 ? (
        <p>{t('admin.order.noEvents')}</p>
      ) : (
        <ol reversed className={styles.timeline}>
          {newestFirst.map((entry) => (
            <li key={`${entry.at}|${entry.kind}|${entry.text}|${JSON.stringify(entry.detail)}`}>
              <p>
                <time dateTime={entry.at}>{dateTime(entry.at)}</time> · <EntryText entry={entry} />
                {entry.staff ? ` · ${entry.staff}` : ''}
              </p>
              {entry.text ? <p className={styles.quote}>{entry.text}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

function isOneOf<T extends string>(list: readonly T[], value: string | null): value is T {
  return value !== null && (list as readonly string[]).includes(value);
}

const detailText = (entry: OrderTimelineEntry, key: string) => {
  const value = entry.detail[key];
  return typeof value === 'string' ? value : null;
};
const detailNumber = (entry: OrderTimelineEntry, key: string) => {
  const value = entry.detail[key];
  return typeof value === 'number' ? value : null;
};

const MAILS = ['cancel', 'refund', 'delivery'] as const;

/** What an entry says: its kind, and what its detail tells (a step, an amount, a status). */
function EntryText({ entry }: { entry: OrderTimelineEntry }) {
  const { t, money } = useT();
  const kind = t(`admin.order.event.${entry.kind}`);
  const parts: string[] = [];
  const to = detailText(entry, 'to');
  if (entry.kind === 'fulfilment' && isOneOf(fulfilmentSteps, to)) {
    parts.push(t(`admin.orders.fulfilment.${to}`));
  }
  const template = detailText(entry, 'template');
  if (entry.kind === 'mail' && isOneOf(MAILS, template)) {
    parts.push(t(`admin.order.mail.${template}`));
    if (to) parts.push(to);
  }
  const amount = detailNumber(entry, 'amountCents');
  if (amount !== null) parts.push(money(amount));
  const refundCents = detailNumber(entry, 'refundCents');
  if (entry.kind === 'cancelled' && refundCents) {
    parts.push(t('admin.order.event.refundOf', { amount: money(refundCents) }));
  }
  const status = detailText(entry, 'status');
  if (entry.kind === 'payment' && isOneOf(paymentStatuses, status)) {
    parts.push(t(`admin.orders.payment.${status}`));
  }
  if (entry.kind === 'refund' && isOneOf(refundStatuses, status)) {
    parts.push(t(`admin.order.refundStatus.${status}`));
  }
  return <>{parts.length > 0 ? `${kind}: ${parts.join(', ')}` : kind}</>;
}
