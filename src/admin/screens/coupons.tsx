import { useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import type { z } from 'zod';
import type {
  CouponFields,
  CouponRow,
  COUPONS_API as CouponsApi,
  couponEditSchema,
  couponsListSchema,
} from '../../features/shop/admin.ts';
import { addDays, helsinkiDate, helsinkiStartOfDay } from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post, put } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { centsToEuros, eurosToCents, percentText, wholeNumber } from '../shop-values.ts';
import {
  AdminForm,
  CheckField,
  ChoiceRadios,
  DialogActions,
  ErrorSummary,
  Field,
  LiveStatus,
  ModalDialog,
  NumberField,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import {
  type Column,
  formErrors,
  ListPages,
  RowsTable,
  type Said,
  SaidText,
  SearchedListHead,
  useSearchedList,
} from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const COUPONS_API: typeof CouponsApi = '/api/admin/coupons';

type CouponsList = z.infer<typeof couponsListSchema>;
type CouponEdit = z.infer<typeof couponEditSchema>;

/**
 * The shop's coupons, active first, with their uses against their limits; made and edited in a
 * dialog. An edit names the version it was opened on: a coupon someone changed meanwhile is read
 * again and shown, and a total limit below the uses made is refused.
 */
export function CouponsScreen() {
  const { t } = useT();
  const { q, offset, params, list, reread, search } = useSearchedList<CouponsList>(
    'coupons',
    COUPONS_API,
  );
  const [said, setSaid] = useState<string | null>(null);
  const saved = async (coupon: CouponRow, made: boolean) => {
    setSaid(t(made ? 'admin.coupons.created' : 'admin.coupons.saved', { code: coupon.code }));
    await reread();
  };
  /** The list read again, and the coupon `id` as it is now. */
  const reload = async (id: number) => (await reread())?.coupons.find((c) => c.id === id);
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.coupons.heading')}</Heading>
      <p>{t('admin.coupons.lead')}</p>
      <div className={styles.actions}>
        <CouponDialog coupon={null} onSaved={saved} onOpen={() => setSaid(null)} reload={reload} />
      </div>
      <LiveStatus text={said} />
      <SearchedListHead screen="coupons" q={q} list={list} onSearch={search} />
      {list.data ? (
        <CouponsTable
          coupons={list.data.coupons}
          onSaved={saved}
          onOpen={() => setSaid(null)}
          reload={reload}
        />
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

type Saved = (coupon: CouponRow, made: boolean) => Promise<void>;
type Reload = (id: number) => Promise<CouponRow | undefined>;

/** The last day an instant is valid to (exclusive), in Helsinki: the day before midnight. */
const lastDay = (validTo: string) => helsinkiDate(new Date(Date.parse(validTo) - 1));

function useCouponTexts() {
  const { t, lang, money, day } = useT();
  return {
    benefit: (c: CouponRow) =>
      c.percentOff !== null ? percentText(c.percentOff * 100, lang) : money(c.amountOffCents ?? 0),
    validity: (c: CouponRow) => {
      if (!c.validFrom && !c.validTo) return t('admin.coupons.always');
      const from = c.validFrom ? day(helsinkiDate(new Date(c.validFrom))) : '';
      const to = c.validTo ? day(lastDay(c.validTo)) : '';
      return `${from} – ${to}`.trim();
    },
    /** Whether a shopper can use it now: off, not yet, over, used up, or valid. */
    state: (c: CouponRow) => {
      const now = Date.now();
      if (!c.active) return t('admin.coupons.inactiveText');
      if (c.validTo && Date.parse(c.validTo) <= now) return t('admin.coupons.endedText');
      if (c.validFrom && Date.parse(c.validFrom) > now) return t('admin.coupons.notYetText');
      if (c.maxUses !== null && c.usedCount >= c.maxUses) return t('admin.coupons.usedUpText');
      return t('admin.coupons.activeText');
    },
    conditions: (c: CouponRow) =>
      [
        c.minOrderCents > 0
          ? t('admin.coupons.minOrderText', { amount: money(c.minOrderCents) })
          : '',
        c.productGroup ? t('admin.coupons.productGroupText', { group: c.productGroup }) : '',
        t(c.combinable ? 'admin.coupons.combinableText' : 'admin.coupons.notCombinableText'),
      ].filter(Boolean),
  };
}

function CouponsTable({
  coupons,
  onSaved,
  onOpen,
  reload,
}: {
  coupons: CouponRow[];
  onSaved: Saved;
  onOpen: () => void;
  reload: Reload;
}) {
  const { t } = useT();
  const text = useCouponTexts();
  if (coupons.length === 0) return <p>{t('admin.coupons.empty')}</p>;
  const columns: Column<CouponRow>[] = [
    [
      t('admin.coupons.code'),
      (c) => (
        <span className={styles.stack}>
          <strong>{c.code}</strong>
          {c.description ? <span className={styles.muted}>{c.description}</span> : null}
        </span>
      ),
    ],
    [t('admin.coupons.benefit'), (c) => text.benefit(c), 'amount'],
    [
      t('admin.coupons.conditions'),
      (c) => (
        <span className={styles.stack}>
          {text.conditions(c).map((line) => (
            <span key={line}>{line}</span>
          ))}
        </span>
      ),
    ],
    [t('admin.coupons.validity'), (c) => text.validity(c)],
    [
      t('admin.coupons.uses'),
      (c) => (
        <span className={styles.stack}>
          <span>
            {c.maxUses === null
              ? t('admin.coupons.usedUnlimited', { used: c.usedCount })
              : t('admin.coupons.usedOf', { used: c.usedCount, limit: c.maxUses })}
          </span>
          {c.maxUsesPerCustomer === null ? null : (
            <span className={styles.muted}>
              {t('admin.coupons.perCustomerText', { limit: c.maxUsesPerCustomer })}
            </span>
          )}
        </span>
      ),
    ],
    [t('admin.coupons.state'), (c) => text.state(c)],
    [
      t('admin.coupons.actions'),
      (c) => <CouponDialog coupon={c} onSaved={onSaved} onOpen={onOpen} reload={reload} />,
      'actions',
    ],
  ];
  return (
    <RowsTable
      caption={t('admin.coupons.heading')}
      hiddenCaption
      columns={columns}
      rows={coupons}
      rowKey={(c) => c.id}
    />
  );
}

/** The dialog that makes a coupon (`coupon` null) or edits one, opened by its button. */
function CouponDialog({
  coupon,
  onSaved,
  onOpen,
  reload,
}: {
  coupon: CouponRow | null;
  onSaved: Saved;
  onOpen: () => void;
  reload: Reload;
}) {
  const { t } = useT();
  return (
    <DialogTrigger onOpenChange={(open) => (open ? onOpen() : undefined)}>
      {coupon ? (
        <Button
          className={styles.secondary}
          aria-label={t('admin.coupons.editCoupon', { code: coupon.code })}
        >
          {t('admin.coupons.edit')}
        </Button>
      ) : (
        <Button className={styles.primary}>{t('admin.coupons.new')}</Button>
      )}
      <ModalDialog>
        {(close) => (
          <CouponForm
            coupon={coupon}
            reload={reload}
            close={close}
            onSaved={async (saved) => {
              close();
              await onSaved(saved, coupon === null);
            }}
          />
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

/** The form's fields as typed. */
interface Draft {
  code: string;
  description: string;
  kind: 'percent' | 'amount';
  percent: string;
  amount: string;
  productGroup: string;
  minOrder: string;
  validFrom: string;
  validTo: string;
  maxUses: string;
  maxUsesPerCustomer: string;
  combinable: boolean;
  active: boolean;
}

function draftOf(c: CouponRow | null): Draft {
  return {
    code: c?.code ?? '',
    description: c?.description ?? '',
    kind: c?.amountOffCents != null ? 'amount' : 'percent',
    percent: c?.percentOff != null ? String(c.percentOff) : '',
    amount: c?.amountOffCents != null ? centsToEuros(c.amountOffCents) : '',
    productGroup: c?.productGroup ?? '',
    minOrder: c && c.minOrderCents > 0 ? centsToEuros(c.minOrderCents) : '',
    validFrom: c?.validFrom ? helsinkiDate(new Date(c.validFrom)) : '',
    validTo: c?.validTo ? lastDay(c.validTo) : '',
    maxUses: c?.maxUses != null ? String(c.maxUses) : '',
    maxUsesPerCustomer: c?.maxUsesPerCustomer != null ? String(c.maxUsesPerCustomer) : '',
    combinable: c?.combinable ?? false,
    active: c?.active ?? true,
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The coupon's fields from the form, or the errors (message keys by field) that stop it. A day
 * left as it was keeps the moment the coupon had; a new first day starts at midnight in
 * Helsinki, a new last day ends at the next midnight.
 */
function fieldsOf(
  d: Draft,
  base: CouponRow | null,
): { fields: CouponFields } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const code = d.code.trim().toUpperCase();
  if (!code) errors.code = 'admin.error.required';
  else if (!/^[A-Z0-9_-]{1,40}$/.test(code)) errors.code = 'admin.coupons.codeInvalid';
  const percent = d.kind === 'percent' ? wholeNumber(d.percent, 100) : null;
  if (d.kind === 'percent' && (percent === null || percent < 1))
    errors.percentOff = 'admin.coupons.percentInvalid';
  const amount = d.kind === 'amount' ? eurosToCents(d.amount) : null;
  if (d.kind === 'amount' && (amount === null || amount < 1))
    errors.amountOffCents = 'admin.coupons.amountInvalid';
  const minOrder = d.minOrder.trim() === '' ? 0 : eurosToCents(d.minOrder);
  if (minOrder === null) errors.minOrderCents = 'admin.coupons.amountInvalid';
  const limit = (text: string, field: string) => {
    if (text.trim() === '') return null;
    const n = wholeNumber(text, 10_000_000);
    if (n === null || n < 1) errors[field] = 'admin.coupons.limitInvalid';
    return n;
  };
  const maxUses = limit(d.maxUses, 'maxUses');
  const maxUsesPerCustomer = limit(d.maxUsesPerCustomer, 'maxUsesPerCustomer');
  if (base && maxUses !== null && !errors.maxUses && maxUses < base.usedCount)
    errors.maxUses = 'admin.coupons.limitBelowUses';
  if (d.validFrom && !DAY.test(d.validFrom)) errors.validFrom = 'admin.error.invalid';
  if (d.validTo && !DAY.test(d.validTo)) errors.validTo = 'admin.error.invalid';
  if (d.validFrom && d.validTo && d.validTo < d.validFrom)
    errors.validTo = 'admin.coupons.validToBeforeFrom';
  if (Object.keys(errors).length > 0) return { errors };
  const validFrom = !d.validFrom
    ? null
    : base?.validFrom && helsinkiDate(new Date(base.validFrom)) === d.validFrom
      ? base.validFrom
      : helsinkiStartOfDay(d.validFrom).toISOString();
  const validTo = !d.validTo
    ? null
    : base?.validTo && lastDay(base.validTo) === d.validTo
      ? base.validTo
      : helsinkiStartOfDay(addDays(d.validTo, 1)).toISOString();
  return {
    fields: {
      code,
      description: d.description.trim(),
      percentOff: percent,
      amountOffCents: amount,
      productGroup: d.productGroup.trim() || null,
      minOrderCents: minOrder ?? 0,
      validFrom,
      validTo,
      maxUses,
      maxUsesPerCustomer,
      combinable: d.combinable,
      active: d.active,
    },
  };
}

/**
 * The server's field errors by the form's fields: an edit's are under `coupon.`, and the kind's
 * error (a percentage or an amount) belongs to the one of the two the form shows.
 */
function formError(error: unknown, kind: Draft['kind']): unknown {
  if (!(error instanceof ApiError) || Object.keys(error.errors).length === 0) return error;
  const errors: Record<string, string> = {};
  for (const [field, key] of Object.entries(error.errors)) {
    let name = field.replace(/^coupon\./, '');
    if (name === 'percentOff' && kind === 'amount') name = 'amountOffCents';
    errors[name] ??= key;
  }
  return new ApiError(error.status, error.type, errors, error.retryAfter);
}

/** The draft being edited, the coupon it was opened on, and what saving it said. */
function useCouponDraft(
  coupon: CouponRow | null,
  reload: Reload,
  onSaved: (c: CouponRow) => Promise<void>,
) {
  const { t } = useT();
  // The coupon as the form was opened on (or read again): its version goes with the edit.
  const [base, setBase] = useState(coupon);
  const [draft, setDraft] = useState(() => draftOf(coupon));
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(null);
  const [pending, setPending] = useState(false);
  const set =
    <K extends keyof Draft>(name: K) =>
    (value: Draft[K]) =>
      setDraft((now) => ({ ...now, [name]: value }));

  /** A 409: the code is another coupon's, the coupon changed since it was opened, or it was used more. */
  const conflict = async (fields: CouponFields) => {
    const same = await get<CouponsList>(`${COUPONS_API}?q=${encodeURIComponent(fields.code)}`);
    if (same.coupons.some((c) => c.code === fields.code && c.id !== base?.id)) {
      setError(formErrors({ code: 'admin.coupons.codeTaken' }));
      return;
    }
    const now = base ? await reload(base.id) : undefined;
    if (base && now && now.version !== base.version) {
      setBase(now);
      setDraft(draftOf(now));
      setSaid({ text: t('admin.coupons.changed'), alert: true });
    } else if (now && fields.maxUses !== null && fields.maxUses < now.usedCount) {
      setBase(now);
      setError(formErrors({ maxUses: 'admin.coupons.limitBelowUses' }));
    } else {
      setSaid({ text: t('admin.coupons.conflict'), alert: true });
    }
  };

  const save = async () => {
    if (pending) return;
    setError(null);
    setSaid(null);
    const asked = fieldsOf(draft, base);
    if ('errors' in asked) {
      setError(formErrors(asked.errors));
      return;
    }
    setPending(true);
    try {
      const saved = base
        ? await put<CouponRow>(`${COUPONS_API}/${base.id}`, {
            coupon: asked.fields,
            version: base.version,
          } satisfies CouponEdit)
        : await post<CouponRow>(COUPONS_API, asked.fields);
      await onSaved(saved);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) await conflict(asked.fields);
      else setError(e);
    } finally {
      setPending(false);
    }
  };

  return { base, draft, set, said, error: formError(error, draft.kind), save };
}

type SetDraft = ReturnType<typeof useCouponDraft>['set'];

function CouponForm({
  coupon,
  reload,
  close,
  onSaved,
}: {
  coupon: CouponRow | null;
  reload: Reload;
  close: () => void;
  onSaved: (coupon: CouponRow) => Promise<void>;
}) {
  const { t } = useT();
  const { base, draft, set, said, error, save } = useCouponDraft(coupon, reload, onSaved);
  return (
    <>
      <Heading slot="title">
        {base ? t('admin.coupons.editHeading', { code: base.code }) : t('admin.coupons.new')}
      </Heading>
      <SaidText said={said} />
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          await save();
        }}
      >
        <Field
          name="code"
          label={t('admin.coupons.code')}
          description={t('admin.coupons.codeHint')}
          value={draft.code}
          onChange={set('code')}
          autoComplete="off"
          autoFocus
        />
        <TextAreaField
          name="description"
          label={t('admin.coupons.description')}
          value={draft.description}
          onChange={set('description')}
          rows={2}
        />
        <DiscountFields draft={draft} set={set} />
        <ConditionFields draft={draft} set={set} />
        <LimitFields draft={draft} set={set} usedCount={base?.usedCount} />
        <CheckField isSelected={draft.combinable} onChange={set('combinable')}>
          {t('admin.coupons.combinable')}
        </CheckField>
        <CheckField isSelected={draft.active} onChange={set('active')}>
          {t('admin.coupons.active')}
        </CheckField>
        <DialogActions
          confirm={base ? t('admin.coupons.save') : t('admin.coupons.create')}
          cancel={t('admin.coupons.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}

/** What the coupon takes off: a percentage or an amount in euros. */
function DiscountFields({ draft, set }: { draft: Draft; set: SetDraft }) {
  const { t } = useT();
  return (
    <>
      <ChoiceRadios
        label={t('admin.coupons.kind')}
        options={[
          ['percent', t('admin.coupons.kindPercent')],
          ['amount', t('admin.coupons.kindAmount')],
        ]}
        value={draft.kind}
        onChange={(value) => set('kind')(value)}
      />
      {draft.kind === 'percent' ? (
        <NumberField
          name="percentOff"
          label={t('admin.coupons.percent')}
          description={t('admin.coupons.percentHint')}
          value={draft.percent}
          onChange={set('percent')}
        />
      ) : (
        <NumberField
          name="amountOffCents"
          label={t('admin.coupons.amount')}
          description={t('admin.coupons.amountHint')}
          decimal
          value={draft.amount}
          onChange={set('amount')}
        />
      )}
    </>
  );
}

/** When the coupon applies: a product group, an order's smallest sum, the days it is valid. */
function ConditionFields({ draft, set }: { draft: Draft; set: SetDraft }) {
  const { t } = useT();
  return (
    <>
      <div className={styles.row3}>
        <Field
          name="productGroup"
          label={t('admin.coupons.productGroup')}
          description={t('admin.coupons.productGroupHint')}
          autoComplete="off"
          value={draft.productGroup}
          onChange={set('productGroup')}
        />
        <NumberField
          name="minOrderCents"
          label={t('admin.coupons.minOrder')}
          description={t('admin.coupons.minOrderHint')}
          decimal
          value={draft.minOrder}
          onChange={set('minOrder')}
        />
      </div>
      <div className={styles.row3}>
        <DateField
          name="validFrom"
          label={t('admin.coupons.validFrom')}
          description={t('admin.coupons.validFromHint')}
          value={draft.validFrom}
          onChange={set('validFrom')}
        />
        <DateField
          name="validTo"
          label={t('admin.coupons.validTo')}
          description={t('admin.coupons.validToHint')}
          value={draft.validTo}
          onChange={set('validTo')}
        />
      </div>
    </>
  );
}

/** How often the coupon may be used, in all and by one customer. */
function LimitFields({
  draft,
  set,
  usedCount,
}: {
  draft: Draft;
  set: SetDraft;
  /** The uses made so far, of a coupon being edited. */
  usedCount: number | undefined;
}) {
  const { t } = useT();
  return (
    <div className={styles.row3}>
      <NumberField
        name="maxUses"
        label={t('admin.coupons.maxUses')}
        description={
          usedCount === undefined
            ? t('admin.coupons.limitHint')
            : t('admin.coupons.maxUsesHint', { used: usedCount })
        }
        value={draft.maxUses}
        onChange={set('maxUses')}
      />
      <NumberField
        name="maxUsesPerCustomer"
        label={t('admin.coupons.maxUsesPerCustomer')}
        description={t('admin.coupons.limitHint')}
        value={draft.maxUsesPerCustomer}
        onChange={set('maxUsesPerCustomer')}
      />
    </div>
  );
}
