import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import type { CustomerDetail, FulfilmentStatus, OrderStatus } from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useCan } from '../session.tsx';
import {
  AdminForm,
  DialogActions,
  ErrorSummary,
  ModalDialog,
  Section,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { CUSTOMERS_API } from './customers.tsx';
import { fulfilmentSteps, orderStatuses } from './orders.tsx';
import { type Column, formErrors, RowsTable, type Said, SaidText } from './shop-parts.tsx';

const customerKey = (id: string) => ['customer', id] as const;

type Address = CustomerDetail['deliveryAddress'];

const addressText = (a: Address) =>
  a ? `${a.firstName} ${a.lastName}\n${a.streetAddress}\n${a.postalCode} ${a.city}`.trim() : null;

const isStatus = (s: string): s is OrderStatus => (orderStatuses as string[]).includes(s);
const isStep = (s: string): s is FulfilmentStatus => (fulfilmentSteps as string[]).includes(s);

/**
 * One customer (decision 146): their account (open or locked, and why), contact details and
 * addresses, orders and reviews; for staff who may (`customers.manage`), locking the account
 * with a reason, opening it again and mailing a password-reset link. Opening it is a read of
 * personal data that the server writes to the audit log.
 */
export function CustomerScreen() {
  const { id = '' } = useParams();
  const { t } = useT();
  const customer = useQuery({
    queryKey: customerKey(id),
    queryFn: () => get<CustomerDetail>(`${CUSTOMERS_API}/${id}`),
    retry: false,
  });
  if (!customer.data) {
    const status = customer.error instanceof ApiError ? customer.error.status : 0;
    return (
      <>
        <p>
          <Link to="/customers">{t('admin.customer.back')}</Link>
        </p>
        <p role={customer.isError ? 'alert' : undefined}>
          {customer.isError
            ? t(
                status === 403
                  ? 'admin.error.forbidden'
                  : status === 404 || status === 400
                    ? 'admin.customer.notFound'
                    : 'admin.error.load',
              )
            : t('admin.loading')}
        </p>
      </>
    );
  }
  const c = customer.data;
  return (
    <>
      <p>
        <Link to="/customers">{t('admin.customer.back')}</Link>
      </p>
      <Heading level={1}>{c.name || c.email}</Heading>
      <Account customer={c} />
      <Contact customer={c} />
      <Orders customer={c} />
      <Reviews customer={c} />
    </>
  );
}

/**
 * What an account change said (politely when done, as an alert when refused), and the customer
 * put in place from the answer (or read again) with the list behind it.
 */
function useAccountChange(id: string) {
  const client = useQueryClient();
  const [said, setSaid] = useState<Said>(null);
  const refresh = async (answer?: CustomerDetail) => {
    if (answer) client.setQueryData(customerKey(id), answer);
    await Promise.all([
      answer ? null : client.invalidateQueries({ queryKey: customerKey(id) }),
      client.invalidateQueries({ queryKey: ['customers'] }),
    ]);
  };
  /**
   * After a change the button pressed is gone (Lock gives way to Open, and back): the focus goes
   * to the account's heading, where what was said is read next.
   */
  const refocus = () =>
    setTimeout(() => {
      const at = document.activeElement;
      if (!at || at === document.body) document.getElementById('account')?.focus();
    }, 50);
  return { said, setSaid, refresh, refocus };
}

type AccountChange = ReturnType<typeof useAccountChange>;

/**
 * The screen's own words for an answer that refused a change: not allowed (403, other than a
 * request to sign in again) or changed meanwhile (409); null for any other error.
 */
function useRefusal() {
  const { t } = useT();
  return (error: unknown): string | null => {
    if (!(error instanceof ApiError)) return null;
    if (error.status === 403 && !error.reauth) return t('admin.customer.forbidden');
    if (error.status === 409) return t('admin.customer.conflict');
    return null;
  };
}

function Account({ customer: c }: { customer: CustomerDetail }) {
  const { t, dateTime } = useT();
  const change = useAccountChange(c.id);
  const canManage = useCan('customers.manage');
  return (
    <Section id="account" title={t('admin.customer.account')} focusable>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.customer.state')}</dt>
          <dd>
            {c.lockedAt ? (
              <strong>{t('admin.customer.lockedAt', { at: dateTime(c.lockedAt) })}</strong>
            ) : (
              t('admin.customers.active')
            )}
          </dd>
        </div>
        {c.lockedAt ? (
          <div>
            <dt>{t('admin.customer.lockedReason')}</dt>
            <dd>{c.lockedReason ?? '–'}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('admin.customer.emailState')}</dt>
          <dd>
            {c.email} ·{' '}
            {c.emailVerified ? t('admin.customer.verified') : t('admin.customer.unverified')}
          </dd>
        </div>
        <div>
          <dt>{t('admin.customer.created')}</dt>
          <dd>{dateTime(c.createdAt)}</dd>
        </div>
      </dl>
      <SaidText said={change.said} />
      {canManage ? (
        <div className={styles.actions}>
          {c.lockedAt ? (
            <UnlockButton customer={c} change={change} />
          ) : (
            <LockDialog customer={c} change={change} />
          )}
          <ResetDialog customer={c} change={change} />
        </div>
      ) : null}
    </Section>
  );
}

/** A button opening a modal dialog: focus kept inside, Escape and a press outside close it. */
function ActionDialog({
  label,
  danger,
  onOpen,
  children,
}: {
  label: string;
  danger?: boolean;
  onOpen: () => void;
  children: (close: () => void) => ReactNode;
}) {
  return (
    <DialogTrigger onOpenChange={(open) => (open ? onOpen() : undefined)}>
      <Button className={danger ? styles.danger : styles.secondary}>{label}</Button>
      <ModalDialog>{(close) => children(close)}</ModalDialog>
    </DialogTrigger>
  );
}

function LockDialog({ customer: c, change }: { customer: CustomerDetail; change: AccountChange }) {
  const { t } = useT();
  return (
    <ActionDialog label={t('admin.customer.lock')} danger onOpen={() => change.setSaid(null)}>
      {(close) => <LockForm customer={c} change={change} close={close} />}
    </ActionDialog>
  );
}

/** What an account dialog's form is given: the customer, the account's change, and its close. */
interface AccountFormProps {
  customer: CustomerDetail;
  change: AccountChange;
  close: () => void;
}

/**
 * An account dialog's sending, one at a time: a refusal (`refusalOf` gives its words) is said in
 * the dialog, which stays open; anything else that went wrong goes to the form's summary.
 */
function useDialogSend(refusalOf: (error: unknown) => string | null) {
  const [error, setError] = useState<unknown>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  /** The form's own errors, found before anything is sent. */
  const fail = (formError: unknown) => {
    setError(formError);
    setRefused(null);
  };
  /** Runs `run`; after a refusal, `afterRefusal` (the account read again, say). */
  const send = async (run: () => Promise<void>, afterRefusal?: () => Promise<void>) => {
    if (pending) return;
    setPending(true);
    setError(null);
    setRefused(null);
    try {
      await run();
    } catch (e) {
      const text = refusalOf(e);
      if (text) {
        setRefused(text);
        await afterRefusal?.();
      } else setError(e);
    } finally {
      setPending(false);
    }
  };
  return { error, refused, pending, fail, send };
}

/** An account dialog's heading and lead, and what refused its change or else went wrong. */
function AccountDialogHead({
  title,
  lead,
  sending,
}: {
  title: string;
  lead: string;
  sending: ReturnType<typeof useDialogSend>;
}) {
  return (
    <>
      <Heading slot="title">{title}</Heading>
      <p>{lead}</p>
      {sending.refused ? (
        <p role="alert" className={styles.errorSummary}>
          {sending.refused}
        </p>
      ) : null}
      <ErrorSummary error={sending.error} />
    </>
  );
}

/**
 * Locking needs a reason: without one the form says so and puts the focus in the field. A
 * refusal (not allowed, changed meanwhile) is said in the dialog, which stays open.
 */
function LockForm({ customer: c, change, close }: AccountFormProps) {
  const { t } = useT();
  const sending = useDialogSend(useRefusal());
  const [reason, setReason] = useState('');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending.pending) return;
    if (!reason.trim()) {
      sending.fail(formErrors({ reason: 'admin.error.required' }));
      (event.currentTarget.elements.namedItem('reason') as HTMLElement | null)?.focus();
      return;
    }
    await sending.send(async () => {
      const answer = await post<CustomerDetail>(`${CUSTOMERS_API}/${c.id}/lock`, {
        locked: true,
        reason: reason.trim(),
      });
      close();
      change.setSaid({ text: t('admin.customer.lockedDone'), alert: false });
      await change.refresh(answer);
      change.refocus();
    }, change.refresh);
  };
  return (
    <>
      <AccountDialogHead
        title={t('admin.customer.lockHeading', { email: c.email })}
        lead={t('admin.customer.lockLead')}
        sending={sending}
      />
      <AdminForm errors={useFieldErrors(sending.error)} onSubmit={submit}>
        <TextAreaField
          name="reason"
          label={t('admin.customer.lockReason')}
          description={t('admin.customer.lockReasonHint')}
          value={reason}
          onChange={setReason}
          rows={3}
          maxLength={500}
          autoFocus
        />
        <DialogActions
          confirm={t('admin.customer.lockConfirm')}
          cancel={t('admin.customer.cancel')}
          close={close}
          danger
        />
      </AdminForm>
    </>
  );
}

/**
 * Opening a locked account again: nothing to confirm (it can be locked again at once). What went
 * wrong is said where what was done is said, beside the buttons.
 */
function UnlockButton({
  customer: c,
  change,
}: {
  customer: CustomerDetail;
  change: AccountChange;
}) {
  const { t } = useT();
  const refusal = useRefusal();
  const [pending, setPending] = useState(false);
  return (
    <Button
      className={styles.primary}
      onPress={async () => {
        if (pending) return;
        setPending(true);
        change.setSaid(null);
        try {
          const answer = await post<CustomerDetail>(`${CUSTOMERS_API}/${c.id}/lock`, {
            locked: false,
          });
          change.setSaid({ text: t('admin.customer.unlockedDone'), alert: false });
          await change.refresh(answer);
          change.refocus();
        } catch (e) {
          const text = refusal(e);
          change.setSaid({ text: text ?? t('admin.error.server'), alert: true });
          if (text) await change.refresh();
        } finally {
          setPending(false);
        }
      }}
    >
      {t('admin.customer.unlock')}
    </Button>
  );
}

function ResetDialog({ customer: c, change }: { customer: CustomerDetail; change: AccountChange }) {
  const { t } = useT();
  return (
    <ActionDialog label={t('admin.customer.reset')} onOpen={() => change.setSaid(null)}>
      {(close) => <ResetForm customer={c} change={change} close={close} />}
    </ActionDialog>
  );
}

/** A reset link to the customer's own address, after a confirmation; staff never see it. */
function ResetForm({ customer: c, change, close }: AccountFormProps) {
  const { t } = useT();
  const refusal = useRefusal();
  const sending = useDialogSend(
    (e) =>
      refusal(e) ??
      (e instanceof ApiError && e.status === 429 ? t('admin.customer.resetRefused') : null),
  );
  return (
    <>
      <AccountDialogHead
        title={t('admin.customer.resetHeading')}
        lead={t('admin.customer.resetLead', { email: c.email })}
        sending={sending}
      />
      <AdminForm
        errors={{}}
        onSubmit={async (event) => {
          event.preventDefault();
          await sending.send(async () => {
            await post(`${CUSTOMERS_API}/${c.id}/password-reset`);
            close();
            change.setSaid({
              text: t('admin.customer.resetSent', { email: c.email }),
              alert: false,
            });
          });
        }}
      >
        <div className={styles.actions}>
          {/* The first of the dialog's controls: the focus starts here. */}
          <Button type="submit" className={styles.primary} autoFocus>
            {t('admin.customer.resetConfirm')}
          </Button>
          <Button className={styles.secondary} onPress={close}>
            {t('admin.customer.cancel')}
          </Button>
        </div>
      </AdminForm>
    </>
  );
}

function Contact({ customer: c }: { customer: CustomerDetail }) {
  const { t } = useT();
  const phone = c.phone.replace(/^\+\d+\s*$/, '');
  return (
    <Section id="contact" title={t('admin.customer.addresses')}>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.order.email')}</dt>
          <dd>
            <a href={`mailto:${c.email}`}>{c.email}</a>
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.phone')}</dt>
          <dd>
            {phone ? (
              <a href={`tel:${phone.replace(/\s/g, '')}`}>{phone}</a>
            ) : (
              t('admin.customer.noPhone')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('admin.order.deliveryAddress')}</dt>
          <dd>{addressText(c.deliveryAddress) ?? t('admin.customer.noAddress')}</dd>
        </div>
        <div>
          <dt>{t('admin.order.billingAddress')}</dt>
          <dd>{addressText(c.billingAddress) ?? t('admin.customer.noAddress')}</dd>
        </div>
      </dl>
    </Section>
  );
}

function Orders({ customer: c }: { customer: CustomerDetail }) {
  const { t, dateTime, money } = useT();
  // Staff who may see customers but not orders see the numbers without links.
  const canOpen = useCan('orders.read');
  type Order = CustomerDetail['orderList'][number];
  const columns: Column<Order>[] = [
    [
      t('admin.orders.number'),
      (o) =>
        canOpen ? (
          <Link
            to={`/orders/${o.id}`}
            aria-label={t('admin.customer.openOrder', { number: o.number })}
          >
            {o.number}
          </Link>
        ) : (
          o.number
        ),
    ],
    [t('admin.orders.placed'), (o) => dateTime(o.createdAt)],
    [
      t('admin.orders.status'),
      (o) => (isStatus(o.status) ? t(`admin.orders.status.${o.status}`) : o.status),
    ],
    [
      t('admin.orders.fulfilment'),
      (o) => (isStep(o.fulfilment) ? t(`admin.orders.fulfilment.${o.fulfilment}`) : o.fulfilment),
    ],
    [t('admin.orders.total'), (o) => money(o.totalCents), 'numbers'],
  ];
  return <RowsSection id="orders" columns={columns} rows={c.orderList} />;
}

function Reviews({ customer: c }: { customer: CustomerDetail }) {
  const { t, dateTime } = useT();
  type Review = CustomerDetail['reviews'][number];
  const columns: Column<Review>[] = [
    [
      t('admin.customer.product'),
      (r) =>
        r.productName ? (
          <span className={styles.stack}>
            <span>{r.productName}</span>
            <span className={styles.muted}>{r.code}</span>
          </span>
        ) : (
          t('admin.customer.productGone', { code: r.code })
        ),
    ],
    [t('admin.customer.rating'), (r) => t('admin.customer.ratingText', { rating: r.rating })],
    [t('admin.customer.reviewText'), (r) => r.text],
    [t('admin.customer.written'), (r) => dateTime(r.createdAt)],
  ];
  return <RowsSection id="reviews" columns={columns} rows={c.reviews} />;
}

/** The texts of the page's lists: heading, what it says without rows, the table's caption. */
const ROWS_TEXTS = {
  orders: ['admin.customer.orders', 'admin.customer.noOrders', 'admin.customer.ordersCaption'],
  reviews: ['admin.customer.reviews', 'admin.customer.noReviews', 'admin.customer.reviewsCaption'],
} as const;

/**
 * A part of the page listing the customer's rows in a table under its heading (the table's
 * caption for screen readers only), or saying there are none.
 */
function RowsSection<Row extends { id: string | number }>({
  id,
  columns,
  rows,
}: {
  id: keyof typeof ROWS_TEXTS;
  columns: Column<Row>[];
  rows: Row[];
}) {
  const { t } = useT();
  const [title, none, caption] = ROWS_TEXTS[id];
  return (
    <Section id={id} title={t(title)}>
      {rows.length === 0 ? (
        <p>{t(none)}</p>
      ) : (
        <RowsTable
          caption={t(caption)}
          hiddenCaption
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
        />
      )}
    </Section>
  );
}
