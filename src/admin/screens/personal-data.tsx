import { type FormEvent, useRef, useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import {
  type Erased,
  type FoundRecord,
  PERSON_STORES,
  type PERSONAL_DATA_API as PersonalDataApi,
  type PersonFound,
  type PersonStore,
  type StoreCounts,
} from '../../features/personal-data/admin.ts';
import styles from '../admin.module.css';
import { ApiError, download, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { SensitiveDownload, useSensitive } from '../reauth.tsx';
import { useCan } from '../session.tsx';
import {
  AdminForm,
  DialogActions,
  ErrorSummary,
  Field,
  ModalDialog,
  Section,
  Submit,
  useFieldErrors,
} from '../ui.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const PERSONAL_DATA_API: typeof PersonalDataApi = '/api/admin/personal-data';

const total = (counts: StoreCounts) => PERSON_STORES.reduce((n, s) => n + counts[s], 0);

/**
 * Personal-data requests (decision 159): the data-protection officer finds a person by their
 * address in the seven stores, downloads everything found as one archive, and erases it after a
 * confirmation that names what goes. Each step asks for the password again when the last was
 * given too long ago, and the server writes each to the audit log.
 */
export function PersonalDataScreen() {
  const { t } = useT();
  const sensitive = useSensitive();
  const [error, setError] = useState<unknown>(null);
  const [found, setFound] = useState<{ email: string; person: PersonFound } | null>(null);
  const [erased, setErased] = useState<Erased | null>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);

  const search = async (email: string) => {
    setError(null);
    setErased(null);
    try {
      const person = await sensitive(() =>
        post<PersonFound>(`${PERSONAL_DATA_API}/search`, { email }),
      );
      setFound({ email, person });
    } catch (e) {
      setFound(null);
      setError(e);
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    void search(email);
  };

  return (
    <>
      <Heading level={1}>{t('admin.personalData.heading')}</Heading>
      <p>{t('admin.personalData.lead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        aria-label={t('admin.personalData.searchLabel')}
        onSubmit={onSubmit}
      >
        <Field
          name="email"
          type="email"
          label={t('admin.personalData.email')}
          description={t('admin.personalData.emailHint')}
          autoComplete="off"
          isRequired
        />
        <Submit>{t('admin.personalData.search')}</Submit>
      </AdminForm>
      {erased ? (
        <section aria-labelledby="erased" className={styles.panel}>
          <Heading level={2} id="erased" ref={doneRef} tabIndex={-1}>
            {t('admin.personalData.erasedHeading')}
          </Heading>
          <ErasedSummary erased={erased} />
        </section>
      ) : null}
      {found ? (
        <FoundPerson
          key={found.person.subject + total(found.person.counts)}
          email={found.email}
          person={found.person}
          onErased={(done) => {
            setFound(null);
            setErased(done);
            // The button pressed is gone with what was found: once the dialogs have given the
            // focus back (to nothing), it goes to what was done, which is read next.
            setTimeout(() => {
              const at = document.activeElement;
              if (!at || at === document.body) doneRef.current?.focus();
            }, 50);
          }}
          onChanged={() => search(found.email)}
        />
      ) : null}
    </>
  );
}

/** What was found of the person: counts per store, each row, and what may be done with them. */
function FoundPerson({
  email,
  person,
  onErased,
  onChanged,
}: {
  email: string;
  person: PersonFound;
  onErased: (erased: Erased) => void;
  onChanged: () => Promise<void>;
}) {
  const { t } = useT();
  const mayErase = useCan('personal-data.erase');
  const none = total(person.counts) === 0;
  return (
    <Section id="found" title={t('admin.personalData.foundHeading', { email })}>
      <p role="status">
        {none
          ? t('admin.personalData.nothing')
          : t('admin.personalData.foundCount', { count: total(person.counts) })}
      </p>
      <CountsTable counts={person.counts} caption={t('admin.personalData.countsCaption')} />
      {none ? null : <RecordsTable records={person.records} />}
      {none ? null : (
        <div className={styles.actions}>
          <ExportButton email={email} />
          {mayErase && total(person.erasable) > 0 ? (
            <EraseDialog email={email} person={person} onErased={onErased} onChanged={onChanged} />
          ) : null}
        </div>
      )}
    </Section>
  );
}

function CountsTable({ counts, caption }: { counts: StoreCounts; caption: string }) {
  const { t } = useT();
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('admin.personalData.store')}</th>
            <th scope="col" className={styles.number}>
              {t('admin.personalData.count')}
            </th>
          </tr>
        </thead>
        <tbody>
          {PERSON_STORES.map((store) => (
            <tr key={store}>
              <td data-label={t('admin.personalData.store')}>
                {t(`admin.personalData.store.${store}`)}
              </td>
              <td data-label={t('admin.personalData.count')} className={styles.number}>
                {counts[store]}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RecordsTable({ records }: { records: FoundRecord[] }) {
  const { t, dateTime } = useT();
  const columns: [string, (r: FoundRecord) => string][] = [
    [t('admin.personalData.store'), (r) => t(`admin.personalData.store.${r.store}`)],
    [t('admin.personalData.what'), (r) => r.summary],
    [t('admin.personalData.site'), (r) => [r.siteId, r.lang].filter(Boolean).join(' · ') || '–'],
    [t('admin.personalData.at'), (r) => dateTime(r.at)],
    [
      t('admin.personalData.note'),
      (r) =>
        r.held
          ? t('admin.personalData.held')
          : r.store === 'orders'
            ? t('admin.personalData.keptForBooks')
            : '',
    ],
  ];
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption className={styles.caption}>{t('admin.personalData.recordsCaption')}</caption>
        <thead>
          <tr>
            {columns.map(([heading]) => (
              <th key={heading} scope="col">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={`${r.store}:${r.id}`}>
              {columns.map(([heading, cell]) => (
                <td key={heading} data-label={heading}>
                  {cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Everything found, as one ZIP archive (JSON and the attachments). */
function ExportButton({ email }: { email: string }) {
  const { t } = useT();
  return (
    <SensitiveDownload
      label={t('admin.personalData.export')}
      downloaded={t('admin.personalData.exported')}
      fetchFile={() => {
        const day = new Date().toISOString().slice(0, 10);
        return download(`${PERSONAL_DATA_API}/export`, `henkilotiedot-${day}.zip`, { email });
      }}
    />
  );
}

/**
 * The erasure, after a confirmation that names what goes from each store (what the server
 * erases only while it is still so: otherwise it answers 409, said here, and the person is
 * searched again).
 */
function EraseDialog({
  email,
  person,
  onErased,
  onChanged,
}: {
  email: string;
  person: PersonFound;
  onErased: (erased: Erased) => void;
  onChanged: () => Promise<void>;
}) {
  const { t } = useT();
  const sensitive = useSensitive();
  const [error, setError] = useState<unknown>(null);
  const [changed, setChanged] = useState(false);
  const [pending, setPending] = useState(false);
  const kept = person.records.filter((r) => r.held && r.store === 'submissions').length;
  return (
    <DialogTrigger
      onOpenChange={(open) => {
        if (open) {
          setError(null);
          setChanged(false);
        }
      }}
    >
      <Button className={styles.danger}>{t('admin.personalData.erase')}</Button>
      <ModalDialog>
        {(close) => (
          <>
            <Heading slot="title">{t('admin.personalData.eraseHeading', { email })}</Heading>
            <p>{t('admin.personalData.eraseLead')}</p>
            {changed ? (
              <p role="alert" className={styles.errorSummary}>
                {t('admin.personalData.changed')}
              </p>
            ) : null}
            <ErrorSummary error={error} />
            <ul>
              {PERSON_STORES.filter((s) => person.erasable[s] > 0).map((store) => (
                <li key={store}>{eraseLine(t, store, person.erasable[store])}</li>
              ))}
            </ul>
            {kept > 0 ? <p>{t('admin.personalData.keptHeld', { count: kept })}</p> : null}
            <AdminForm
              errors={{}}
              onSubmit={async (event) => {
                event.preventDefault();
                if (pending) return;
                setPending(true);
                setError(null);
                try {
                  const done = await sensitive(() =>
                    post<Erased>(`${PERSONAL_DATA_API}/erase`, {
                      email,
                      counts: person.erasable,
                    }),
                  );
                  close();
                  onErased(done);
                } catch (e) {
                  if (e instanceof ApiError && e.status === 409) {
                    setChanged(true);
                    await onChanged();
                  } else setError(e);
                } finally {
                  setPending(false);
                }
              }}
            >
              <DialogActions
                confirm={t('admin.personalData.eraseConfirm')}
                cancel={t('admin.personalData.cancel')}
                close={close}
                danger
              />
            </AdminForm>
          </>
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

type T = ReturnType<typeof useT>['t'];

/**
 * One line of the confirmation, or with `done` of what was done: how many rows of a store go
 * (orders: lose the person).
 */
function eraseLine(t: T, store: PersonStore, count: number, done = false): string {
  const name = t(`admin.personalData.store.${store}`);
  if (store === 'orders') {
    return t(done ? 'admin.personalData.erasedOrders' : 'admin.personalData.eraseOrders', {
      count,
    });
  }
  return t(done ? 'admin.personalData.erasedLine' : 'admin.personalData.eraseLine', {
    store: name,
    count,
  });
}

function ErasedSummary({ erased }: { erased: Erased }) {
  const { t } = useT();
  return (
    <>
      <ul>
        {PERSON_STORES.filter((s) => erased.erased[s] > 0).map((store) => (
          <li key={store}>{eraseLine(t, store, erased.erased[store], true)}</li>
        ))}
      </ul>
      <p>
        {t('admin.personalData.erasedMore', {
          sessions: erased.sessionsEnded,
          files: erased.filesDeleted,
        })}
      </p>
      {erased.filesPending > 0 ? (
        <p>{t('admin.personalData.filesPending', { count: erased.filesPending })}</p>
      ) : null}
      {erased.kept > 0 ? <p>{t('admin.personalData.keptHeld', { count: erased.kept })}</p> : null}
    </>
  );
}
