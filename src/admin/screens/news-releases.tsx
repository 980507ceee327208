import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, DialogTrigger, Heading } from 'react-aria-components';
import type { AdminNewsRow, NewsDocument } from '../../features/content/index.ts';
import styles from '../admin.module.css';
import { ApiError, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceSelect,
  DialogActions,
  DialogButton,
  ErrorSummary,
  Field,
  ModalDialog,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { ADMIN_NEWS_API } from './news.tsx';
import { UnpublishConfirm } from './schedule-panel.tsx';
import type { Said } from './shop-parts.tsx';

/**
 * A news release's making and its state on the site (decision 167), beside the 'Tiedotteet'
 * list: a new release is a draft nowhere on the site; a release under embargo says when it goes
 * out and its waiting publish can be cancelled; one on the site can be taken off.
 */

/** When the release is (or will be) on the site. */
export function ReleaseDate({ row }: { row: AdminNewsRow }) {
  const { t, dateTime } = useT();
  if (row.publishDate) return <>{dateTime(row.publishDate)}</>;
  if (row.schedule) return <>{t('admin.news.embargo', { date: dateTime(row.schedule.at) })}</>;
  return <span className={styles.muted}>{t('admin.news.notOnSite')}</span>;
}

/** Text paragraphs as the rich text the sanitiser keeps: `<p>` each, special characters escaped. */
export function paragraphsHtml(text: string): string {
  const escaped = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escaped(p).replace(/\s*\n\s*/g, ' ')}</p>`)
    .join('');
}

/** Cancelling a waiting publish, or taking a release on the site off it. */
export function ReleaseActions({
  row,
  onSaid,
}: {
  row: AdminNewsRow;
  onSaid: (said: Said) => void;
}) {
  const { t, dateTime } = useT();
  const client = useQueryClient();
  const act = async (url: string, body: unknown, done: string) => {
    onSaid(null);
    try {
      await post(url, body);
      onSaid({ text: done, alert: false });
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) throw e;
      onSaid({ text: t('admin.news.changed'), alert: true });
    } finally {
      await client.invalidateQueries({ queryKey: ['admin-news'] });
    }
  };
  if (row.schedule) {
    const { id, at } = row.schedule;
    return (
      <Button
        className={styles.secondary}
        aria-label={t('admin.news.cancelScheduleLabel', { title: row.title, date: dateTime(at) })}
        onPress={() =>
          void act(
            `${ADMIN_NEWS_API}/${row.id}/schedules/${id}/cancel`,
            {},
            t('admin.news.scheduleCancelled', { title: row.title }),
          )
        }
      >
        {t('admin.schedule.cancel')}
      </Button>
    );
  }
  if (row.state === 'draft') return null;
  return (
    <DialogButton
      label={t('admin.schedule.unpublishNow')}
      ariaLabel={t('admin.news.unpublishLabel', { title: row.title })}
    >
      {(close) => (
        <UnpublishConfirm
          heading={t('admin.news.unpublishHeading', { title: row.title })}
          close={close}
          onConfirm={() =>
            act(
              `${ADMIN_NEWS_API}/${row.id}/unpublish`,
              { version: row.version },
              t('admin.news.unpublished', { title: row.title }),
            )
          }
        />
      )}
    </DialogButton>
  );
}

/** A new release of a site and language: a draft until it is published. */
export function NewRelease({
  scopes,
  onSaid,
}: {
  scopes: { siteId: string; lang: string }[];
  onSaid: (said: Said) => void;
}) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <Button className={styles.primary}>{t('admin.news.new')}</Button>
      <ModalDialog>
        {(close) => <NewReleaseForm scopes={scopes} close={close} onSaid={onSaid} />}
      </ModalDialog>
    </DialogTrigger>
  );
}

function NewReleaseForm({
  scopes,
  close,
  onSaid,
}: {
  scopes: { siteId: string; lang: string }[];
  close: () => void;
  onSaid: (said: Said) => void;
}) {
  const { t } = useT();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  const fieldErrors: Record<string, string> = {};
  for (const [field, text] of Object.entries(errors)) {
    fieldErrors[field.replace(/^document\./, '')] = text;
  }
  const first = scopes[0];
  return (
    <>
      <Heading slot="title">{t('admin.news.newHeading')}</Heading>
      <p>{t('admin.news.newLead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={fieldErrors}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          const [siteId, lang] = String(data.get('scope') ?? '').split('/');
          const document: NewsDocument = {
            path: String(data.get('path') ?? '').trim(),
            title: String(data.get('title') ?? '').trim(),
            teaser: String(data.get('teaser') ?? '').trim(),
            bodyHtml: paragraphsHtml(String(data.get('body') ?? '')),
            imageId: null,
            authors: [],
            textType: null,
            source: 'cision',
            categoryIds: [],
            facetTagIds: [],
          };
          setPending(true);
          try {
            const made = await post<AdminNewsRow>(`${ADMIN_NEWS_API}?site=${siteId}&lang=${lang}`, {
              document,
            });
            close();
            onSaid({ text: t('admin.news.created', { title: made.title }), alert: false });
            await client.invalidateQueries({ queryKey: ['admin-news'] });
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <ChoiceSelect
          name="scope"
          label={t('admin.news.scope')}
          options={scopes.map((s) => [`${s.siteId}/${s.lang}`, `${s.siteId} · ${s.lang}`] as const)}
          defaultValue={first ? `${first.siteId}/${first.lang}` : ''}
        />
        <Field name="title" label={t('admin.news.field.title')} isRequired />
        <Field
          name="path"
          label={t('admin.news.field.path')}
          description={t('admin.news.field.pathHint')}
          isRequired
        />
        <TextAreaField name="teaser" label={t('admin.news.field.teaser')} rows={2} />
        <TextAreaField
          name="body"
          label={t('admin.news.field.body')}
          description={t('admin.news.field.bodyHint')}
          rows={8}
        />
        <DialogActions
          confirm={t('admin.news.create')}
          cancel={t('admin.news.cancel')}
          close={close}
        />
      </AdminForm>
    </>
  );
}
