import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Checkbox, Heading } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import type { OpenedSubmission, SubmissionEvent } from '../../features/inbox/index.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceSelect,
  ErrorSummary,
  Notice,
  Submit,
  TextAreaField,
  useFieldErrors,
} from '../ui.tsx';
import { INBOX_API, submissionStates } from './inbox.tsx';

const NOBODY = 'nobody';

/** One submission opened (and so written to the audit log): what was sent, and its handling. */
export function SubmissionScreen() {
  const { id = '' } = useParams();
  const { t, dateTime } = useT();
  const opened = useQuery({
    queryKey: ['submission', id],
    queryFn: () => get<OpenedSubmission>(`${INBOX_API}/${id}`),
    // Each opening is a read of personal data in the audit log: only when asked for.
    refetchOnWindowFocus: false,
    retry: false,
  });
  if (!opened.data) {
    const forbidden = opened.error instanceof ApiError && opened.error.status === 403;
    return (
      <p role={opened.isError ? 'alert' : undefined}>
        {opened.isError
          ? t(forbidden ? 'admin.error.forbidden' : 'admin.error.load')
          : t('admin.loading')}
      </p>
    );
  }
  const s = opened.data;
  return (
    <>
      <p>
        <Link to="/inbox">{t('admin.inbox.back')}</Link>
      </p>
      <Heading level={1}>
        {t(`admin.inbox.form.${s.form}`)} · {s.siteId} · {s.lang}
      </Heading>
      <p className={styles.muted}>
        {t('admin.inbox.received')}: {dateTime(s.createdAt)} · {t('admin.inbox.state')}:{' '}
        {t(`admin.inbox.state.${s.state}`)} · {t('admin.inbox.keptUntil')}:{' '}
        {s.legalHold ? t('admin.inbox.held') : dateTime(s.deleteAfter)}
      </p>
      <Section id="fields" title={t('admin.inbox.fields')}>
        <dl className={styles.fields}>
          {Object.entries(s.data).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{shown(value)}</dd>
            </div>
          ))}
        </dl>
      </Section>
      {s.files.length > 0 ? <Files submission={s} /> : null}
      <Handling submission={s} />
      <NoteForm id={s.id} />
      <ReplyForm submission={s} />
      <Section id="timeline" title={t('admin.inbox.timeline')}>
        {s.events.length === 0 ? (
          <p>{t('admin.inbox.noEvents')}</p>
        ) : (
          <ol className={styles.timeline}>
            {s.events.map((event) => (
              <li key={event.id}>
                <p>
                  <time dateTime={event.at}>{dateTime(event.at)}</time> ·{' '}
                  <EventText event={event} />
                </p>
                {event.text ? <p className={styles.quote}>{event.text}</p> : null}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </>
  );
}

/** A stored value as text: lists joined, yes/no for ticks, nothing for empty. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (value === true) return '✓';
  if (value === false || value === null || value === undefined) return '–';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={styles.panel}>
      <Heading level={2} id={id}>
        {title}
      </Heading>
      {children}
    </section>
  );
}

function EventText({ event }: { event: SubmissionEvent }) {
  const { t } = useT();
  const staff = event.staff ?? t('admin.inbox.someone');
  if (event.kind === 'state') {
    const to = String(event.detail.to ?? 'new') as (typeof submissionStates)[number];
    return <>{t('admin.inbox.event.state', { staff, to: t(`admin.inbox.state.${to}`) })}</>;
  }
  return <>{t(`admin.inbox.event.${event.kind}`, { staff })}</>;
}

function Files({ submission }: { submission: OpenedSubmission }) {
  const { t } = useT();
  const base = `${INBOX_API}/${submission.id}/files`;
  return (
    <Section id="files" title={t('admin.inbox.files')}>
      <ul className={styles.files}>
        {submission.files.map((file) => (
          <li key={file.position}>
            {file.image ? (
              <img
                src={`${base}/${file.position}?thumbnail=1`}
                alt={t('admin.inbox.thumbnail', { name: file.name })}
                className={styles.thumbnail}
              />
            ) : null}
            <a href={`${base}/${file.position}`} download={file.name}>
              {t('admin.inbox.download', {
                name: file.name,
                size: Math.max(1, Math.round(file.size / 1024)),
              })}
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/**
 * A write to the opened submission; on success the submission is read again (and `done` says
 * so); a 409 (someone else changed it) reads it again and says that instead.
 */
function useWrite(id: string) {
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  const run = async (path: string, body: unknown, onDone?: () => void): Promise<boolean> => {
    if (pending) return false;
    setPending(true);
    setError(null);
    setDone(false);
    try {
      await post(`${INBOX_API}/${id}/${path}`, body);
      onDone?.();
      setDone(true);
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setPending(false);
      await client.invalidateQueries({ queryKey: ['submission', id] });
      await client.invalidateQueries({ queryKey: ['inbox'] });
    }
  };
  const stale = error instanceof ApiError && error.status === 409;
  return { run, error: stale ? null : error, stale, done };
}

function Handling({ submission: s }: { submission: OpenedSubmission }) {
  const { t } = useT();
  const write = useWrite(s.id);
  const [held, setHeld] = useState(s.legalHold);
  const errors = useFieldErrors(write.error);
  return (
    <Section id="handling" title={t('admin.inbox.handling')}>
      {write.done ? <Notice>{t('admin.inbox.saved')}</Notice> : null}
      {write.stale ? <p role="alert">{t('admin.inbox.stale')}</p> : null}
      <ErrorSummary error={write.error} />
      <div className={styles.row3}>
        <AdminForm
          errors={errors}
          aria-label={t('admin.inbox.state')}
          onSubmit={(event) => {
            event.preventDefault();
            const state = String(new FormData(event.currentTarget).get('state') ?? s.state);
            void write.run('state', { state, version: s.version });
          }}
        >
          <ChoiceSelect
            key={`state-${s.version}`}
            name="state"
            label={t('admin.inbox.state')}
            defaultValue={s.state}
            options={submissionStates.map((st) => [st, t(`admin.inbox.state.${st}`)] as const)}
          />
          <Submit>{t('admin.inbox.saveState')}</Submit>
        </AdminForm>
        <AdminForm
          errors={errors}
          aria-label={t('admin.inbox.assignee')}
          onSubmit={(event) => {
            event.preventDefault();
            const chosen = String(new FormData(event.currentTarget).get('assigneeId') ?? NOBODY);
            void write.run('assignee', {
              assigneeId: chosen === NOBODY ? null : chosen,
              version: s.version,
            });
          }}
        >
          <ChoiceSelect
            key={`assignee-${s.version}`}
            name="assigneeId"
            label={t('admin.inbox.assignee')}
            defaultValue={s.assignee?.id ?? NOBODY}
            options={[
              [NOBODY, t('admin.inbox.nobody')],
              ...s.assignees.map((p) => [p.id, p.name] as const),
            ]}
          />
          <Submit>{t('admin.inbox.saveAssignee')}</Submit>
        </AdminForm>
        <AdminForm
          errors={errors}
          aria-label={t('admin.inbox.hold')}
          onSubmit={(event) => {
            event.preventDefault();
            void write.run('hold', { legalHold: held, version: s.version });
          }}
        >
          <Checkbox isSelected={held} onChange={setHeld} className={styles.checkbox}>
            <span className={styles.box} aria-hidden="true" />
            {t('admin.inbox.hold')}
          </Checkbox>
          <Submit>{t('admin.inbox.saveHold')}</Submit>
        </AdminForm>
      </div>
    </Section>
  );
}

/** A text sent to the submission (a note or a reply); the field empties once it is saved. */
function TextForm({
  id,
  path,
  label,
  submit,
  doneText,
  children,
}: {
  id: string;
  path: 'notes' | 'reply';
  label: string;
  submit: string;
  doneText: string;
  children?: ReactNode;
}) {
  const write = useWrite(id);
  const [text, setText] = useState('');
  return (
    <>
      {children}
      {write.done ? <Notice>{doneText}</Notice> : null}
      <ErrorSummary error={write.error} />
      <AdminForm
        errors={useFieldErrors(write.error)}
        onSubmit={async (event) => {
          event.preventDefault();
          await write.run(path, { text }, () => setText(''));
        }}
      >
        <TextAreaField name="text" label={label} value={text} onChange={setText} isRequired />
        <Submit>{submit}</Submit>
      </AdminForm>
    </>
  );
}

function NoteForm({ id }: { id: string }) {
  const { t } = useT();
  return (
    <Section id="note" title={t('admin.inbox.note')}>
      <TextForm
        id={id}
        path="notes"
        label={t('admin.inbox.note')}
        submit={t('admin.inbox.addNote')}
        doneText={t('admin.inbox.noteAdded')}
      />
    </Section>
  );
}

function ReplyForm({ submission: s }: { submission: OpenedSubmission }) {
  const { t } = useT();
  return (
    <Section id="reply" title={t('admin.inbox.reply')}>
      {s.replyTo ? (
        <TextForm
          id={s.id}
          path="reply"
          label={t('admin.inbox.reply')}
          submit={t('admin.inbox.sendReply')}
          doneText={t('admin.inbox.replied')}
        >
          <p>
            {t('admin.inbox.replyTo', {
              address: s.replyTo,
              lang: t(`admin.lang.${s.lang as 'fi'}`),
            })}
          </p>
        </TextForm>
      ) : (
        <p>{t('admin.inbox.noReplyTo')}</p>
      )}
    </Section>
  );
}
