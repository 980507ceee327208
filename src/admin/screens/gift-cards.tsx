import { useEffect, useRef, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { z } from 'zod';
import type {
  GiftCard,
  GIFT_CARDS_API as GiftCardsApi,
  giftCardAdjustSchema,
  giftCardIssuedSchema,
  giftCardIssueSchema,
  OrderStatus,
} from '../../features/shop/admin.ts';
import { helsinkiDate } from '../../features/shop/admin.ts';
import styles from '../admin.module.css';
import { ApiError, post } from '../api.ts';
import { DateField } from '../date-field.tsx';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import { eurosToCents } from '../shop-values.ts';
import {
  AdminForm,
  ChoiceRadios,
  DialogActions,
  ErrorSummary,
  Field,
  LiveStatus,
  ModalDialog,
  NumberField,
  Section,
  Submit,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { orderStatuses } from './orders.tsx';
import { formErrors, type Said, SaidText } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const GIFT_CARDS_API: typeof GiftCardsApi = '/api/admin/gift-cards';

type Issued = z.infer<typeof giftCardIssuedSchema>;
type IssueBody = z.infer<typeof giftCardIssueSchema>;
type AdjustBody = z.infer<typeof giftCardAdjustSchema>;

/** A card on screen, with the code it was found by (kept here only, to read it again). */
interface Found {
  code: string;
  card: GiftCard;
}

const findCard = (code: string) => post<GiftCard>(`${GIFT_CARDS_API}/find`, { code });

/** The last day an instant is valid to (exclusive), in Helsinki. */
const lastDay = (validTo: string) => helsinkiDate(new Date(Date.parse(validTo) - 1));

/**
 * Gift cards: found by code only (typed into a form, never put in the address), shown with
 * their balance and history; their balance raised or lowered with a reason from the balance
 * shown; new ones issued by hand, whose code is shown this once.
 */
export function GiftCardsScreen() {
  const { t, money } = useT();
  const [found, setFound] = useState<Found | null>(null);
  const [issued, setIssued] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  return (
    <>
      <Heading level={1}>{t('admin.giftCards.heading')}</Heading>
      <p>{t('admin.giftCards.lead')}</p>
      <div className={styles.actions}>
        <IssueDialog
          onOpen={() => setSaid(null)}
          onIssued={(answer) => {
            setIssued(answer.code);
            setFound({ code: answer.code, card: answer.card });
          }}
        />
      </div>
      {issued ? <IssuedCode key={issued} code={issued} /> : null}
      <FindForm
        onFound={(next) => {
          setFound(next);
          setSaid(
            t('admin.giftCards.found', {
              id: next.card.id,
              balance: money(next.card.balanceCents),
            }),
          );
        }}
        onSearch={() => setSaid(null)}
      />
      <LiveStatus text={said} />
      {found ? (
        <CardView
          key={found.card.id}
          found={found}
          onChanged={(card, text) => {
            setFound({ code: found.code, card });
            setSaid(text);
          }}
        />
      ) : null}
    </>
  );
}

/** The new card's code, shown once, with a button that copies it. */
function IssuedCode({ code }: { code: string }) {
  const { t } = useT();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const codeRef = useRef<HTMLParagraphElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The code is what matters now: the focus goes to it once the dialogs have closed and given
  // the focus back to their buttons.
  useEffect(() => {
    const timer = setTimeout(() => headingRef.current?.focus(), 100);
    return () => clearTimeout(timer);
  }, []);
  return (
    <section aria-labelledby="issued-code" className={`${styles.panel} ${styles.codePanel}`}>
      <Heading level={2} id="issued-code" tabIndex={-1} ref={headingRef}>
        {t('admin.giftCards.issuedHeading')}
      </Heading>
      <p ref={codeRef} className={styles.giftCode} data-testid="gift-card-code">
        {code}
      </p>
      <p>
        <strong>{t('admin.giftCards.onlyOnce')}</strong>
      </p>
      <div className={styles.actions}>
        <Button
          className={styles.primary}
          onPress={async () => {
            try {
              await navigator.clipboard.writeText(code);
              setCopied('yes');
            } catch {
              // No clipboard here: the code is selected for the person to copy.
              const selection = window.getSelection();
              if (codeRef.current && selection) selection.selectAllChildren(codeRef.current);
              setCopied('no');
            }
          }}
        >
          {t('admin.giftCards.copy')}
        </Button>
      </div>
      <LiveStatus
        text={
          copied === 'yes'
            ? t('admin.giftCards.copied')
            : copied === 'no'
              ? t('admin.giftCards.copyYourself')
              : null
        }
      />
    </section>
  );
}

function FindForm({
  onFound,
  onSearch,
}: {
  onFound: (found: Found) => void;
  onSearch: () => void;
}) {
  const { t } = useT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  return (
    <Section id="find" title={t('admin.giftCards.findHeading')}>
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          setError(null);
          onSearch();
          const typed = code.trim();
          if (typed.length < 4) {
            setError(formErrors({ code: 'admin.giftCards.codeRequired' }));
            return;
          }
          setPending(true);
          try {
            const card = await findCard(typed);
            setCode('');
            onFound({ code: typed, card });
          } catch (e) {
            setError(
              e instanceof ApiError && e.status === 404
                ? formErrors({ code: 'admin.giftCards.notFound' })
                : e,
            );
          } finally {
            setPending(false);
          }
        }}
      >
        <Field
          name="code"
          label={t('admin.giftCards.code')}
          description={t('admin.giftCards.codeHint')}
          value={code}
          onChange={setCode}
          autoComplete="off"
          spellCheck="false"
        />
        <Submit>{t('admin.giftCards.find')}</Submit>
      </AdminForm>
    </Section>
  );
}

const isOrderStatus = (status: string | null): status is OrderStatus =>
  status !== null && (orderStatuses as string[]).includes(status);

/** A card: balance, validity, where it came from, its history; and changing its balance. */
function CardView({
  found,
  onChanged,
}: {
  found: Found;
  onChanged: (card: GiftCard, text: string) => void;
}) {
  const { t, money, day, dateTime } = useT();
  const card = found.card;
  const signed = (cents: number) => (cents > 0 ? `+${money(cents)}` : money(cents));
  const expired = card.validTo !== null && Date.parse(card.validTo) <= Date.now();
  return (
    <Section id="card" title={t('admin.giftCards.cardHeading', { id: card.id })}>
      <dl className={styles.fields}>
        <div>
          <dt>{t('admin.giftCards.balance')}</dt>
          <dd>
            <strong>{money(card.balanceCents)}</strong>
          </dd>
        </div>
        <div>
          <dt>{t('admin.giftCards.initial')}</dt>
          <dd>{money(card.initialCents)}</dd>
        </div>
        <div>
          <dt>{t('admin.giftCards.validTo')}</dt>
          <dd>
            {card.validTo
              ? `${day(lastDay(card.validTo))}${expired ? ` (${t('admin.giftCards.expired')})` : ''}`
              : t('admin.giftCards.noEnd')}
          </dd>
        </div>
        <div>
          <dt>{t('admin.giftCards.created')}</dt>
          <dd>{dateTime(card.createdAt)}</dd>
        </div>
        <div>
          <dt>{t('admin.giftCards.boughtWith')}</dt>
          <dd>
            {card.boughtWith === null ? (
              t('admin.giftCards.byStaff')
            ) : (
              <Link to={`/orders?q=${card.boughtWith}`}>
                {t('admin.giftCards.order', { number: card.boughtWith })}
              </Link>
            )}
          </dd>
        </div>
      </dl>
      <div className={styles.actions}>
        <AdjustDialog found={found} onChanged={onChanged} />
      </div>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className={styles.caption}>{t('admin.giftCards.history')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('admin.giftCards.at')}</th>
              <th scope="col">{t('admin.giftCards.event')}</th>
              <th scope="col" className={styles.number}>
                {t('admin.giftCards.change')}
              </th>
              <th scope="col">{t('admin.giftCards.reason')}</th>
              <th scope="col">{t('admin.giftCards.who')}</th>
            </tr>
          </thead>
          <tbody>
            {card.history.length === 0 ? (
              <tr>
                <td colSpan={5}>{t('admin.giftCards.noHistory')}</td>
              </tr>
            ) : (
              card.history.map((h) => (
                <tr key={`${h.at}|${h.kind}|${h.orderNumber}|${h.deltaCents}|${h.reason}`}>
                  <td data-label={t('admin.giftCards.at')}>{dateTime(h.at)}</td>
                  <td data-label={t('admin.giftCards.event')}>
                    {h.kind === 'order' && h.orderNumber !== null ? (
                      <span className={styles.stack}>
                        <Link to={`/orders?q=${h.orderNumber}`}>
                          {t('admin.giftCards.order', { number: h.orderNumber })}
                        </Link>
                        {isOrderStatus(h.orderStatus) ? (
                          <span className={styles.muted}>
                            {t(`admin.orders.status.${h.orderStatus}`)}
                          </span>
                        ) : null}
                      </span>
                    ) : (
                      t('admin.giftCards.adjustment')
                    )}
                  </td>
                  <td data-label={t('admin.giftCards.change')} className={styles.number}>
                    {signed(h.deltaCents)}
                  </td>
                  <td data-label={t('admin.giftCards.reason')}>{h.reason ?? '–'}</td>
                  <td data-label={t('admin.giftCards.who')}>
                    {h.kind === 'order' ? t('admin.giftCards.shopper') : (h.staff ?? '–')}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function AdjustDialog({
  found,
  onChanged,
}: {
  found: Found;
  onChanged: (card: GiftCard, text: string) => void;
}) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <Button className={styles.secondary}>{t('admin.giftCards.adjust')}</Button>
      <ModalDialog>
        {(close) => <AdjustForm found={found} onChanged={onChanged} close={close} />}
      </ModalDialog>
    </DialogTrigger>
  );
}

/** The reason a balance is changed or a card issued by hand: kept in the card's history. */
function ReasonField(props: { hint: string; value: string; onChange: (value: string) => void }) {
  const { t } = useT();
  return (
    <TextAreaField
      name="reason"
      label={t('admin.giftCards.reason')}
      description={props.hint}
      value={props.value}
      onChange={props.onChange}
      rows={2}
      maxLength={500}
    />
  );
}

/**
 * A change of balance from the balance shown (sent as what was seen): raised or lowered by an
 * amount, with a reason. Re-authentication may be asked first. A balance that changed
 * meanwhile (an order used the card) is read again and said, and nothing changes.
 */
function AdjustForm({
  found,
  onChanged,
  close,
}: {
  found: Found;
  onChanged: (card: GiftCard, text: string) => void;
  close: () => void;
}) {
  const { t, money } = useT();
  const sensitive = useSensitive();
  const card = found.card;
  const [direction, setDirection] = useState<'add' | 'take'>('add');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<Said>(null);
  const [pending, setPending] = useState(false);
  return (
    <>
      <Heading slot="title">{t('admin.giftCards.adjustHeading', { id: card.id })}</Heading>
      <p>
        <strong>{t('admin.giftCards.balanceNow', { balance: money(card.balanceCents) })}</strong>
      </p>
      <SaidText said={said} />
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          setError(null);
          setSaid(null);
          const cents = eurosToCents(amount);
          const errors: Record<string, string> = {};
          if (cents === null || cents < 1) errors.deltaCents = 'admin.giftCards.amountInvalid';
          else if (direction === 'take' && cents > card.balanceCents)
            errors.deltaCents = 'admin.giftCards.belowZero';
          if (!reason.trim()) errors.reason = 'admin.error.required';
          if (Object.keys(errors).length > 0 || cents === null) {
            setError(formErrors(errors));
            return;
          }
          const body: AdjustBody = {
            deltaCents: direction === 'take' ? -cents : cents,
            expectedBalanceCents: card.balanceCents,
            reason: reason.trim(),
          };
          setPending(true);
          try {
            const answer = await sensitive(() =>
              post<GiftCard>(`${GIFT_CARDS_API}/${card.id}/adjust`, body),
            );
            close();
            onChanged(
              answer,
              t('admin.giftCards.adjusted', { balance: money(answer.balanceCents) }),
            );
          } catch (e) {
            if (e instanceof ApiError && e.status === 409) {
              // Read again: the dialog shows the balance now.
              try {
                const now = await findCard(found.code);
                onChanged(now, '');
                setSaid({
                  text: t('admin.giftCards.balanceChanged', { balance: money(now.balanceCents) }),
                  alert: true,
                });
              } catch (again) {
                setError(again);
              }
            } else setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <ChoiceRadios
          label={t('admin.giftCards.direction')}
          options={[
            ['add', t('admin.giftCards.add')],
            ['take', t('admin.giftCards.take')],
          ]}
          value={direction}
          onChange={setDirection}
        />
        <NumberField
          name="deltaCents"
          label={t('admin.giftCards.amount')}
          description={t('admin.giftCards.amountHint')}
          decimal
          value={amount}
          onChange={setAmount}
        />
        <ReasonField hint={t('admin.giftCards.reasonHint')} value={reason} onChange={setReason} />
        <DialogActions
          confirm={t('admin.giftCards.saveAdjust')}
          cancel={t('admin.giftCards.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}

function IssueDialog({
  onOpen,
  onIssued,
}: {
  onOpen: () => void;
  onIssued: (issued: Issued) => void;
}) {
  const { t } = useT();
  return (
    <DialogTrigger onOpenChange={(open) => (open ? onOpen() : undefined)}>
      <Button className={styles.primary}>{t('admin.giftCards.issue')}</Button>
      <ModalDialog>
        {(close) => (
          <IssueForm
            close={close}
            onIssued={(answer) => {
              close();
              onIssued(answer);
            }}
          />
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

function IssueForm({ close, onIssued }: { close: () => void; onIssued: (issued: Issued) => void }) {
  const { t } = useT();
  const sensitive = useSensitive();
  const [amount, setAmount] = useState('');
  const [validTo, setValidTo] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  return (
    <>
      <Heading slot="title">{t('admin.giftCards.issueHeading')}</Heading>
      <p>{t('admin.giftCards.issueLead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          setError(null);
          const cents = eurosToCents(amount);
          const errors: Record<string, string> = {};
          if (cents === null || cents < 1) errors.amountCents = 'admin.giftCards.amountInvalid';
          if (validTo && !/^\d{4}-\d{2}-\d{2}$/.test(validTo))
            errors.validTo = 'admin.error.invalid';
          else if (validTo && validTo < helsinkiDate(new Date()))
            errors.validTo = 'admin.giftCards.validToPast';
          if (!reason.trim()) errors.reason = 'admin.error.required';
          if (Object.keys(errors).length > 0 || cents === null) {
            setError(formErrors(errors));
            return;
          }
          const body: IssueBody = {
            amountCents: cents,
            validTo: validTo || null,
            reason: reason.trim(),
          };
          setPending(true);
          try {
            onIssued(await sensitive(() => post<Issued>(GIFT_CARDS_API, body)));
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <NumberField
          name="amountCents"
          label={t('admin.giftCards.value')}
          description={t('admin.giftCards.amountHint')}
          decimal
          value={amount}
          onChange={setAmount}
          autoFocus
        />
        <DateField
          name="validTo"
          label={t('admin.giftCards.lastDay')}
          description={t('admin.giftCards.lastDayHint')}
          value={validTo}
          onChange={setValidTo}
        />
        <ReasonField
          hint={t('admin.giftCards.issueReasonHint')}
          value={reason}
          onChange={setReason}
        />
        <DialogActions
          confirm={t('admin.giftCards.issueConfirm')}
          cancel={t('admin.giftCards.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}
