import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Heading } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import type {
  SynonymCreate,
  SynonymList,
  SynonymRow,
  SYNONYMS_API as SynonymsApi,
} from '../../features/search/admin.ts';
import styles from '../admin.module.css';
import { ApiError, del, get, post, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useMe } from '../session.tsx';
import {
  AdminForm,
  ChoiceRadios,
  ConfirmForm,
  DialogActions,
  DialogButton,
  ErrorSummary,
  Field,
  useFieldErrors,
} from '../ui.tsx';
import { formErrors, type Said, SaidText } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const SYNONYMS_API: typeof SynonymsApi = '/api/admin/search/synonyms';

type Lang = SynonymRow['lang'];
type Kind = SynonymRow['kind'];
const LANGS: readonly Lang[] = ['fi', 'sv', 'en'];
const KINDS: readonly Kind[] = ['two-way', 'one-way'];

/**
 * The languages whose sets the staff member may edit: a set serves every site of its language,
 * so only a grant of `search.synonyms` for every site reaches it.
 */
function useLangs(): Lang[] {
  const grants = useMe().data?.grants ?? [];
  return LANGS.filter((lang) =>
    grants.some(
      (g) =>
        g.permissions.includes('search.synonyms') &&
        g.sites === null &&
        (g.langs === null || g.langs.includes(lang)),
    ),
  );
}

/** Words typed with commas between them, as the API keeps them. */
const wordsOf = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

/** What a form sends: a new set, or a change with the version seen. */
type Send = (set: SynonymCreate) => Promise<void>;

/**
 * The search's synonym sets of a language (decision 164): listed oldest first, each with its kind,
 * words and what a one-way set also searches for; added and changed in a dialog, removed after a
 * confirmation. A change names the version seen: one someone else made meanwhile is said in an
 * alert and the list is read again.
 */
export function SynonymsScreen() {
  const { t } = useT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const langs = useLangs();
  const first = langs[0];
  const lang = langs.find((l) => l === params.get('lang')) ?? first;
  const list = useQuery({
    queryKey: ['synonyms', lang],
    queryFn: () => get<SynonymList>(`${SYNONYMS_API}/${lang}`),
    enabled: lang !== undefined,
  });
  const [said, setSaid] = useState<Said>(null);
  const headingId = useId();
  if (!lang)
    return (
      <>
        <Heading level={1}>{t('admin.synonyms.heading')}</Heading>
        <p>{t('admin.synonyms.noLanguages')}</p>
      </>
    );
  const langName = t(`admin.lang.${lang}` as const);

  /** Runs a write; a 409 is said in an alert, and the list is read again either way. */
  const change = async (write: () => Promise<unknown>, done: string) => {
    setSaid(null);
    try {
      await write();
      setSaid({ text: done, alert: false });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
      setSaid({ text: t('admin.synonyms.moved'), alert: true });
    }
    await client.invalidateQueries({ queryKey: ['synonyms', lang] });
  };

  const synonyms = list.data?.synonyms;
  return (
    <>
      <Heading level={1}>{t('admin.synonyms.heading')}</Heading>
      <p>{t('admin.synonyms.lead')}</p>
      <ChoiceRadios
        label={t('admin.synonyms.lang')}
        options={langs.map((l) => [l, t(`admin.lang.${l}` as const)])}
        value={lang}
        onChange={(next) => {
          setSaid(null);
          setParams(next === first ? {} : { lang: next });
        }}
      />
      <SaidText said={said} />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <div className={styles.actions}>
        <DialogButton label={t('admin.synonyms.add')} primary>
          {(close) => (
            <SynonymForm
              heading={t('admin.synonyms.addHeading', { lang: langName })}
              close={close}
              onSend={(set) =>
                change(
                  () => post<SynonymRow>(`${SYNONYMS_API}/${lang}`, set),
                  t('admin.synonyms.didAdd', { terms: set.terms.join(', ') }),
                )
              }
            />
          )}
        </DialogButton>
      </div>
      <section aria-labelledby={headingId}>
        <Heading level={2} id={headingId}>
          {t('admin.synonyms.listHeading', { lang: langName })}
        </Heading>
        {synonyms && synonyms.length === 0 ? <p>{t('admin.synonyms.empty')}</p> : null}
        <ul className={styles.plainList}>
          {synonyms?.map((set) => (
            <SynonymItem key={set.id} set={set} change={change} />
          ))}
        </ul>
      </section>
    </>
  );
}

function SynonymItem({
  set,
  change,
}: {
  set: SynonymRow;
  change: (write: () => Promise<unknown>, done: string) => Promise<void>;
}) {
  const { t } = useT();
  const terms = set.terms.join(', ');
  const url = `${SYNONYMS_API}/${set.lang}/${set.id}`;
  return (
    <li className={styles.card}>
      <p>
        <strong>
          {set.kind === 'two-way'
            ? terms
            : t('admin.synonyms.oneWay', { terms, targets: set.targets.join(', ') })}
        </strong>{' '}
        <span className={styles.muted}>{t(`admin.synonyms.kind.${set.kind}`)}</span>
      </p>
      <div className={styles.actions}>
        <DialogButton
          label={t('admin.synonyms.edit')}
          ariaLabel={t('admin.synonyms.editLabel', { terms })}
        >
          {(close) => (
            <SynonymForm
              heading={t('admin.synonyms.editHeading')}
              set={set}
              close={close}
              onSend={(next) =>
                change(
                  () => put<SynonymRow>(url, { ...next, version: set.version }),
                  t('admin.synonyms.didSave', { terms: next.terms.join(', ') }),
                )
              }
            />
          )}
        </DialogButton>
        <DialogButton
          label={t('admin.synonyms.remove')}
          ariaLabel={t('admin.synonyms.removeLabel', { terms })}
        >
          {(close) => (
            <ConfirmForm
              heading={t('admin.synonyms.removeHeading')}
              lead={t('admin.synonyms.removeLead', { terms })}
              confirm={t('admin.synonyms.remove')}
              cancel={t('admin.synonyms.cancel')}
              danger
              close={close}
              onConfirm={() =>
                change(
                  () => del(`${url}?version=${set.version}`),
                  t('admin.synonyms.didRemove', { terms }),
                )
              }
            />
          )}
        </DialogButton>
      </div>
    </li>
  );
}

/** A set's kind, words and (one-way) what it also searches for, checked before it is sent. */
function SynonymForm({
  heading,
  set,
  close,
  onSend,
}: {
  heading: string;
  set?: SynonymRow;
  close: () => void;
  onSend: Send;
}) {
  const { t } = useT();
  const [kind, setKind] = useState<Kind>(set?.kind ?? 'two-way');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  return (
    <>
      <Heading slot="title">{heading}</Heading>
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          const terms = wordsOf(String(data.get('terms') ?? ''));
          const targets = kind === 'one-way' ? wordsOf(String(data.get('targets') ?? '')) : [];
          const errors: Record<string, string> = {};
          if (terms.length < (kind === 'two-way' ? 2 : 1)) errors.terms = 'admin.error.required';
          if (kind === 'one-way' && targets.length === 0) errors.targets = 'admin.error.required';
          if (Object.keys(errors).length) {
            setError(formErrors(errors));
            return;
          }
          setPending(true);
          setError(null);
          try {
            await onSend({ kind, terms, targets });
            close();
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <ChoiceRadios
          label={t('admin.synonyms.kind')}
          name="kind"
          options={KINDS.map((k) => [k, t(`admin.synonyms.kind.${k}`)])}
          value={kind}
          onChange={setKind}
        />
        <Field
          name="terms"
          label={t('admin.synonyms.terms')}
          description={t('admin.synonyms.termsHint')}
          defaultValue={set?.terms.join(', ') ?? ''}
          isRequired
          autoFocus
        />
        {kind === 'one-way' ? (
          <Field
            name="targets"
            label={t('admin.synonyms.targets')}
            description={t('admin.synonyms.targetsHint')}
            defaultValue={set?.targets.join(', ') ?? ''}
            isRequired
          />
        ) : null}
        <DialogActions
          confirm={t('admin.synonyms.save')}
          cancel={t('admin.synonyms.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}
