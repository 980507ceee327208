import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CheckboxGroup, FieldError, Heading, Label } from 'react-aria-components';
import { Link, useSearchParams } from 'react-router';
import type {
  ADMIN_NEWS_API as AdminNewsApi,
  AdminNewsList,
  AdminNewsRow,
  PublishNews,
} from '../../features/content/index.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  CheckField,
  ChoiceRadios,
  DialogActions,
  DialogButton,
  ErrorSummary,
  Field,
  useFieldErrors,
} from '../ui.tsx';
import { NewRelease, ReleaseActions, ReleaseDate } from './news-releases.tsx';
import { localInput } from './schedule-panel.tsx';
import {
  type Column,
  formErrors,
  ListPages,
  offsetOf,
  RowsTable,
  type Said,
  SaidText,
} from './shop-parts.tsx';

// The API's address, checked against the feature's constant (only types come from the feature).
export const ADMIN_NEWS_API: typeof AdminNewsApi = '/api/admin/content/news';

type Publish = (row: AdminNewsRow, body: PublishNews) => Promise<'done' | 'conflict'>;

/**
 * The news releases the staff member may publish (decision 158), the latest first: each can be
 * published now or at a time, with the categories whose confirmed subscribers it is mailed to
 * once; a mailing still waiting can be moved, one sent cannot. A new release is a draft,
 * nowhere on the site until it is published; published at a time, it stays off the site until
 * then (decision 167), and the waiting publish can be cancelled; one on the site can be taken off.
 */
export function NewsScreen() {
  const { t, dateTime } = useT();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const offset = offsetOf(params);
  const list = useQuery({
    queryKey: ['admin-news', offset],
    queryFn: () => get<AdminNewsList>(`${ADMIN_NEWS_API}?offset=${offset}`),
    placeholderData: keepPreviousData,
  });
  const [said, setSaid] = useState<Said>(null);

  const publish: Publish = async (row, body) => {
    setSaid(null);
    try {
      const published = await post<AdminNewsRow>(`${ADMIN_NEWS_API}/${row.id}/publish`, body);
      setSaid({
        text: body.at
          ? t('admin.news.didSchedule', {
              title: row.title,
              date: dateTime(published.schedule?.at ?? published.publishDate ?? body.at),
            })
          : t('admin.news.didPublish', { title: row.title }),
        alert: false,
      });
      return 'done';
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
      setSaid({ text: t('admin.news.changed'), alert: true });
      return 'conflict';
    } finally {
      await client.invalidateQueries({ queryKey: ['admin-news'] });
    }
  };

  const columns: Column<AdminNewsRow>[] = [
    [
      t('admin.news.title'),
      (r) => (
        <span className={styles.stack}>
          <Link to={`/content/news/${r.id}`} lang={r.lang}>
            {r.title}
          </Link>
          <span className={styles.muted}>
            {r.siteId} · {r.lang} · {r.path}
          </span>
          <span>{t(`admin.recipes.state.${r.state}`)}</span>
        </span>
      ),
    ],
    [t('admin.news.date'), (r) => <ReleaseDate row={r} />],
    [
      t('admin.news.categories'),
      (r) =>
        r.informationTypes
          .map((type) => r.categories.find((c) => c.informationType === type)?.name ?? type)
          .join(', ') || '–',
    ],
    [t('admin.news.mailing'), (r) => <MailingState row={r} />],
    [
      t('admin.news.actions'),
      (r) => (
        <span className={styles.actions}>
          {r.categories.length === 0 ? (
            <span className={styles.muted}>{t('admin.news.noCategories')}</span>
          ) : r.schedule ||
            (r.mailing && (r.mailing.status === 'sent' || r.mailing.recipients > 0)) ? null : (
            <PublishDialog row={r} onPublish={publish} />
          )}
          <ReleaseActions row={r} onSaid={setSaid} />
        </span>
      ),
      'actions',
    ],
  ];
  const total = list.data?.total;
  return (
    <>
      <Heading level={1}>{t('admin.news.heading')}</Heading>
      <p>{t('admin.news.lead')}</p>
      {list.data && list.data.scopes.length > 0 ? (
        <NewRelease scopes={list.data.scopes} onSaid={setSaid} />
      ) : null}
      <SaidText said={said} />
      {list.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <p role="status">{total === undefined ? '' : t('admin.news.count', { count: total })}</p>
      {list.data ? (
        <RowsTable
          caption={t('admin.news.caption')}
          hiddenCaption
          columns={columns}
          rows={list.data.releases}
          rowKey={(r) => r.id}
          empty={t('admin.news.empty')}
        />
      ) : null}
      {total === undefined ? null : <ListPages offset={offset} total={total} params={params} />}
    </>
  );
}

function MailingState({ row }: { row: AdminNewsRow }) {
  const { t, dateTime } = useT();
  const mailing = row.mailing;
  if (!mailing) return <>{t('admin.news.mailing.none')}</>;
  return (
    <>
      {mailing.status === 'sent'
        ? t('admin.news.mailing.sent', { count: mailing.recipients })
        : t('admin.news.mailing.scheduled', { date: dateTime(mailing.sendAt) })}
    </>
  );
}

function PublishDialog({ row, onPublish }: { row: AdminNewsRow; onPublish: Publish }) {
  const { t } = useT();
  return (
    <DialogButton
      label={t('admin.news.publish')}
      ariaLabel={t('admin.news.publishLabel', { title: row.title })}
    >
      {(close) => <PublishForm row={row} close={close} onPublish={onPublish} />}
    </DialogButton>
  );
}

function PublishForm({
  row,
  close,
  onPublish,
}: {
  row: AdminNewsRow;
  close: () => void;
  onPublish: Publish;
}) {
  const { t } = useT();
  const [when, setWhen] = useState<'now' | 'later'>(
    row.mailing?.status === 'scheduled' ? 'later' : 'now',
  );
  const [chosen, setChosen] = useState<string[]>(
    row.mailing?.informationTypes ?? row.informationTypes,
  );
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  const initialAt =
    row.mailing?.status === 'scheduled'
      ? new Date(row.mailing.sendAt)
      : new Date(Date.now() + 3_600_000);
  return (
    <>
      <Heading slot="title">{t('admin.news.publishHeading', { title: row.title })}</Heading>
      <p>{t('admin.news.publishLead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const value = String(new FormData(event.currentTarget).get('at') ?? '');
          const at = when === 'later' ? new Date(value) : null;
          const found: Record<string, string> = {};
          if (chosen.length === 0) found.informationTypes = 'admin.news.error.noCategory';
          if (at && Number.isNaN(at.getTime())) found.at = 'admin.error.invalid';
          else if (at && at.getTime() < Date.now()) found.at = 'admin.news.error.past';
          if (Object.keys(found).length > 0) {
            setError(formErrors(found));
            return;
          }
          setPending(true);
          try {
            await onPublish(row, {
              at: at ? at.toISOString() : null,
              informationTypes: chosen,
              mailingVersion: row.mailing?.version ?? null,
              version: row.version,
            });
            close();
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <MailingCategories
          legend={t('admin.news.categoriesLegend')}
          categories={row.categories}
          value={chosen}
          onChange={setChosen}
          error={errors.informationTypes}
        />
        <ChoiceRadios
          label={t('admin.news.when')}
          value={when}
          onChange={setWhen}
          options={[
            ['now', t('admin.news.now')],
            ['later', t('admin.news.later')],
          ]}
        />
        {when === 'later' ? (
          <Field
            name="at"
            type="datetime-local"
            label={t('admin.news.at')}
            defaultValue={localInput(initialAt)}
          />
        ) : null}
        <DialogActions
          confirm={t('admin.news.publishConfirm')}
          cancel={t('admin.news.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}

/** The mailing categories a release is mailed to: a check box each; `error` says why none. */
export function MailingCategories({
  legend,
  categories,
  value,
  onChange,
  error,
}: {
  legend: string;
  categories: AdminNewsRow['categories'];
  value: string[];
  onChange: (chosen: string[]) => void;
  error?: string | undefined;
}) {
  return (
    <CheckboxGroup
      className={styles.checkboxGroup}
      value={value}
      onChange={onChange}
      isInvalid={Boolean(error)}
    >
      <Label className={styles.label}>{legend}</Label>
      <div className={styles.checkboxes}>
        {categories.map((c) => (
          <CheckField key={c.informationType} value={c.informationType}>
            {c.name}
          </CheckField>
        ))}
      </div>
      <FieldError className={styles.fieldError}>{error}</FieldError>
    </CheckboxGroup>
  );
}
