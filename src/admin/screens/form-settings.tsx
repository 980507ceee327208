import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Heading } from 'react-aria-components';
import { useSearchParams } from 'react-router';
import {
  type FORM_SETTINGS_API as FormSettingsApi,
  type FormSettingsRow,
  type FormSettingsSite,
  type FormSettingsSites,
  type FormSettingsUpdate,
  RECIPIENTS_MAX,
} from '../../features/form-settings/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceSelect,
  ConfirmForm,
  DialogActions,
  DialogButton,
  ErrorSummary,
  Field,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { formErrors, type Said, SaidText } from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const FORM_SETTINGS_API: typeof FormSettingsApi = '/api/admin/forms/settings';

type Site = FormSettingsSite['site'];

/** Addresses typed one a line (commas and semicolons also part them). */
const addressesOf = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((a) => a.trim())
    .filter(Boolean);

/** Roughly an address; the server checks each properly. */
const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The server's errors of single addresses (`recipients.2`) said at the field that holds them all. */
function onFields(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  const errors: Record<string, string> = {};
  for (const [field, key] of Object.entries(error.errors)) {
    const name = field.startsWith('recipients.') ? 'recipients' : field;
    errors[name] ??= key;
  }
  return new ApiError(error.status, error.type, errors, error.retryAfter, error.problem);
}

/**
 * The forms' settings of a site (decision 170): who gets each form's mail and, per language, the
 * page a visitor goes to after sending it; each value says whether it is the server's default or
 * set here. Changed in a dialog that names the version seen: when someone changed the form's
 * settings meanwhile, the dialog shows the newest and keeps what was typed.
 */
export function FormSettingsScreen() {
  const { t } = useT();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sites = useQuery({
    queryKey: ['form-settings-sites'],
    queryFn: () => get<FormSettingsSites>(FORM_SETTINGS_API),
  });
  const list = sites.data?.sites ?? [];
  const first = list[0]?.id;
  const siteId = list.find((s) => s.id === params.get('site'))?.id ?? first;
  const settings = useQuery({
    queryKey: ['form-settings', siteId],
    queryFn: () => get<FormSettingsSite>(`${FORM_SETTINGS_API}/${siteId}`),
    enabled: siteId !== undefined,
  });
  const [said, setSaid] = useState<Said>(null);
  const headingId = useId();
  const refresh = () => client.invalidateQueries({ queryKey: ['form-settings', siteId] });
  const data = settings.data;
  return (
    <>
      <Heading level={1}>{t('admin.formSettings.heading')}</Heading>
      <p>{t('admin.formSettings.lead')}</p>
      {sites.isError || settings.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {sites.data && list.length === 0 ? <p>{t('admin.formSettings.none')}</p> : null}
      {list.length > 1 && siteId ? (
        <ChoiceSelect
          name="site"
          label={t('admin.formSettings.site')}
          options={list.map((s) => [s.id, s.name] as const)}
          value={siteId}
          onChange={(next) => {
            setSaid(null);
            setParams(next === first ? {} : { site: next });
          }}
        />
      ) : null}
      <SaidText said={said} />
      {data ? (
        <section aria-labelledby={headingId}>
          <Heading level={2} id={headingId}>
            {t('admin.formSettings.listHeading', { site: data.site.name })}
          </Heading>
          <ul className={styles.plainList}>
            {data.forms.map((row) => (
              <FormItem
                key={row.form}
                site={data.site}
                row={row}
                onSaid={async (next) => {
                  setSaid(next);
                  await refresh();
                }}
              />
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

/** A form's values: each with whether it is the default or set here. */
function Values({ row }: { row: FormSettingsRow }) {
  const { t } = useT();
  const origin = (isDefault: boolean) => (
    <span className={styles.muted}>
      {' '}
      ({t(isDefault ? 'admin.formSettings.default' : 'admin.formSettings.own')})
    </span>
  );
  return (
    <dl className={styles.fields}>
      <div>
        <dt>{t('admin.formSettings.recipients')}</dt>
        <dd>
          {row.recipients.addresses.join(', ')}
          {origin(row.recipients.isDefault)}
        </dd>
      </div>
      {row.successPages.map((page) => (
        <div key={page.lang}>
          <dt>
            {t('admin.formSettings.successPage', { lang: t(`admin.lang.${page.lang}` as const) })}
          </dt>
          <dd>
            {page.url ?? t('admin.formSettings.noPage')}
            {origin(page.isDefault)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function FormItem({
  site,
  row,
  onSaid,
}: {
  site: Site;
  row: FormSettingsRow;
  onSaid: (said: Said) => Promise<void>;
}) {
  const { t } = useT();
  const form = t(`admin.inbox.form.${row.form}` as const);
  const url = `${FORM_SETTINGS_API}/${site.id}/${row.form}`;
  // What staff set here and may take back: the recipients need every language of the site.
  const reset: FormSettingsUpdate = { version: row.version };
  if (row.recipients.editable && !row.recipients.isDefault) reset.recipients = null;
  const ownPages = row.successPages.filter((p) => !p.isDefault);
  if (ownPages.length) reset.successPages = Object.fromEntries(ownPages.map((p) => [p.lang, null]));
  const resettable = reset.recipients !== undefined || reset.successPages !== undefined;
  return (
    <li className={styles.card}>
      <Heading level={3}>{form}</Heading>
      <Values row={row} />
      <div className={styles.actions}>
        <DialogButton
          label={t('admin.formSettings.edit')}
          ariaLabel={t('admin.formSettings.editLabel', { form })}
        >
          {(close) => (
            <SettingsForm
              form={form}
              row={row}
              url={url}
              close={close}
              onSaved={() =>
                onSaid({ text: t('admin.formSettings.didSave', { form }), alert: false })
              }
            />
          )}
        </DialogButton>
        {resettable ? (
          <DialogButton
            label={t('admin.formSettings.reset')}
            ariaLabel={t('admin.formSettings.resetLabel', { form })}
          >
            {(close) => (
              <ConfirmForm
                heading={t('admin.formSettings.resetHeading')}
                lead={t('admin.formSettings.resetLead', { form })}
                confirm={t('admin.formSettings.reset')}
                cancel={t('admin.formSettings.cancel')}
                close={close}
                onConfirm={async () => {
                  try {
                    await put<FormSettingsRow>(url, reset);
                    await onSaid({
                      text: t('admin.formSettings.didReset', { form }),
                      alert: false,
                    });
                  } catch (e) {
                    if (!(e instanceof ApiError && e.status === 409)) throw e;
                    await onSaid({
                      text: t('admin.formSettings.movedList', { form }),
                      alert: true,
                    });
                  }
                }}
              />
            )}
          </DialogButton>
        ) : null}
      </div>
    </li>
  );
}

/**
 * A form's recipients (one a line; empty: the default) and success page per language (a path on
 * the site; empty: the default), checked before they are sent. A failed save shows what is wrong
 * at the top and by each field, keeps what was typed, and puts the focus in the first wrong field;
 * a save on settings someone changed meanwhile shows the newest and is based on them next time.
 */
function SettingsForm({
  form,
  row,
  url,
  close,
  onSaved,
}: {
  form: string;
  row: FormSettingsRow;
  url: string;
  close: () => void;
  onSaved: () => Promise<void>;
}) {
  const { t } = useT();
  const [error, setError] = useState<unknown>(null);
  const [newest, setNewest] = useState<FormSettingsRow | null>(null);
  const [pending, setPending] = useState(false);
  const formElement = useRef<HTMLFormElement | null>(null);
  const version = newest?.version ?? row.version;
  useEffect(() => {
    if (!error) return;
    formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [error]);
  const defaults = (value: string, isDefault: boolean) => (isDefault ? '' : value);
  return (
    <>
      <Heading slot="title">{t('admin.formSettings.editHeading', { form })}</Heading>
      {newest ? (
        <div role="alert" className={styles.notice}>
          <p>{t('admin.formSettings.moved')}</p>
          <p>
            <strong>{t('admin.formSettings.newest')}</strong>
          </p>
          <Values row={newest} />
        </div>
      ) : null}
      <ErrorSummary error={error} />
      <AdminForm
        errors={useFieldErrors(error)}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          formElement.current = event.currentTarget;
          const data = new FormData(event.currentTarget);
          const body: FormSettingsUpdate = { version };
          const errors: Record<string, string> = {};
          if (row.recipients.editable) {
            const addresses = addressesOf(String(data.get('recipients') ?? ''));
            if (addresses.some((a) => !ADDRESS.test(a))) errors.recipients = 'admin.error.email';
            else if (addresses.length > RECIPIENTS_MAX)
              errors.recipients = 'admin.error.tooManyRecipients';
            body.recipients = addresses.length ? addresses : null;
          }
          body.successPages = Object.fromEntries(
            row.successPages.map((p) => {
              const path = String(data.get(`successPages.${p.lang}`) ?? '').trim();
              if (path && !path.startsWith('/'))
                errors[`successPages.${p.lang}`] = 'admin.error.invalid';
              return [p.lang, path || null];
            }),
          );
          if (Object.keys(errors).length) {
            setError(formErrors(errors));
            return;
          }
          setPending(true);
          setError(null);
          try {
            await put<FormSettingsRow>(url, body);
            close();
            await onSaved();
          } catch (e) {
            if (e instanceof ApiError && e.status === 409 && e.problem.current) {
              setNewest(e.problem.current as FormSettingsRow);
            } else setError(onFields(e));
          } finally {
            setPending(false);
          }
        }}
      >
        {row.recipients.editable ? (
          <TextAreaField
            name="recipients"
            label={t('admin.formSettings.recipients')}
            description={t('admin.formSettings.recipientsHint', {
              addresses: row.recipients.defaults.join(', '),
            })}
            defaultValue={defaults(row.recipients.addresses.join('\n'), row.recipients.isDefault)}
            rows={3}
            autoFocus
          />
        ) : (
          <p>{t('admin.formSettings.recipientsLocked')}</p>
        )}
        {row.successPages.map((page, i) => (
          <Field
            key={page.lang}
            name={`successPages.${page.lang}`}
            label={t('admin.formSettings.successPage', {
              lang: t(`admin.lang.${page.lang}` as const),
            })}
            description={t('admin.formSettings.successPageHint', {
              page: page.defaultUrl ?? t('admin.formSettings.noPage'),
            })}
            defaultValue={defaults(page.path ?? '', page.isDefault)}
            autoFocus={!row.recipients.editable && i === 0}
          />
        ))}
        <DialogActions
          confirm={t('admin.formSettings.save')}
          cancel={t('admin.formSettings.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}
