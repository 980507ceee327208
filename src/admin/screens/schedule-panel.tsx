import type { CalendarDateTime } from '@internationalized/date';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, DialogTrigger } from 'react-aria-components';
import type { Schedule, ScheduleAction, Schedules } from '../../features/content/admin.ts';
import styles from '../admin.module.css';
import { ApiError, get, post } from '../api.ts';
import { DateTimeField, isoOf, localMomentIn } from '../date-time-field.tsx';
import { useT } from '../i18n.tsx';
import {
  AdminForm,
  ChoiceRadios,
  ConfirmForm,
  ErrorSummary,
  LiveStatus,
  ModalDialog,
  Section,
  useFieldErrors,
} from '../ui.tsx';
import { formErrors } from './shop-parts.tsx';

/** `2026-12-01T09:30` in the browser's time zone, for a `datetime-local` field. */
export function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/**
 * An item's publishing on a schedule and taking it off the site (decision 167), for the editor's
 * publish area: the waiting actions, each cancellable; a form for "publish at" or "unpublish at"
 * with a date and time; and "unpublish now" behind a confirmation. `base` is the kind's API
 * (`/api/admin/content/recipes`), `version` the newest version the screen shows, `live` whether
 * the site shows the item; `reload` names the queries (the item, its list) read again after a
 * change.
 */
export function SchedulePanel({
  base,
  itemId,
  version,
  live,
  reload,
  publishExtra,
}: {
  base: string;
  itemId: number;
  version: number;
  live: boolean;
  reload: readonly (readonly unknown[])[];
  /** What a scheduled publish sends beside its time (a news release's mailing categories). */
  publishExtra?: Record<string, unknown>;
}) {
  const { t } = useT();
  const key = ['schedules', base, itemId];
  const list = useQuery({
    queryKey: key,
    queryFn: () => get<Schedules>(`${base}/${itemId}/schedules`),
  });
  const change = useScheduleChange([key, ...reload]);
  const item = `${base}/${itemId}`;
  return (
    <Section id="schedule" title={t('admin.schedule.heading')}>
      <LiveStatus text={change.said} />
      <ScheduleLists schedules={list.data?.schedules ?? []} item={item} run={change.run} />
      <ErrorSummary error={change.error} />
      <ScheduleForm
        item={item}
        version={version}
        live={live}
        publishExtra={publishExtra}
        change={change}
      />
      {live ? <UnpublishNow item={item} version={version} run={change.run} /> : null}
    </Section>
  );
}

type Run = (work: () => Promise<string>) => Promise<void>;

/**
 * One change at a time: its answer said, a stale one (409) said as such, any other error kept for
 * the summary; afterwards the queries of `reload` are read again.
 */
function useScheduleChange(reload: readonly (readonly unknown[])[]) {
  const { t } = useT();
  const client = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const run: Run = async (work) => {
    if (pending) return;
    setPending(true);
    setError(null);
    setSaid(null);
    try {
      setSaid(await work());
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) setSaid(t('admin.schedule.stale'));
      else setError(e);
    } finally {
      setPending(false);
      for (const queryKey of reload) await client.invalidateQueries({ queryKey });
    }
  };
  return { run, said, error, setError };
}

/** The waiting actions, each with its cancel button, and the last three done or failed. */
function ScheduleLists({
  schedules,
  item,
  run,
}: {
  schedules: Schedule[];
  item: string;
  run: Run;
}) {
  const { t, dateTime } = useT();
  const waiting = schedules.filter((s) => s.state === 'pending');
  const past = schedules.filter((s) => s.state !== 'pending').slice(0, 3);
  return (
    <>
      {waiting.length === 0 ? (
        <p className={styles.muted}>{t('admin.schedule.none')}</p>
      ) : (
        <ul className={styles.stack} aria-label={t('admin.schedule.waiting')}>
          {waiting.map((s) => (
            <li key={s.id}>
              <ScheduleText schedule={s} />{' '}
              <Button
                className={styles.secondary}
                aria-label={t('admin.schedule.cancelLabel', {
                  what: t(`admin.schedule.action.${s.action}`),
                  date: dateTime(s.at),
                })}
                onPress={() =>
                  void run(async () => {
                    await post(`${item}/schedules/${s.id}/cancel`, {});
                    return t('admin.schedule.cancelled');
                  })
                }
              >
                {t('admin.schedule.cancel')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {past.length > 0 ? (
        <ul className={styles.muted} aria-label={t('admin.schedule.past')}>
          {past.map((s) => (
            <li key={s.id}>
              <ScheduleText schedule={s} />
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

/** "Publish at" or "unpublish at" a date and time, never in the past. */
function ScheduleForm({
  item,
  version,
  live,
  publishExtra,
  change,
}: {
  item: string;
  version: number;
  live: boolean;
  publishExtra: Record<string, unknown> | undefined;
  change: ReturnType<typeof useScheduleChange>;
}) {
  const { t, dateTime } = useT();
  const [action, setAction] = useState<ScheduleAction>(live ? 'unpublish' : 'publish');
  const [when, setWhen] = useState<CalendarDateTime | null>(() => localMomentIn(3_600_000));
  const errors = useFieldErrors(change.error);
  return (
    <AdminForm
      errors={errors}
      aria-label={t('admin.schedule.formLabel')}
      onSubmit={(event) => {
        event.preventDefault();
        event.stopPropagation();
        const iso = isoOf(when);
        if (!iso) {
          change.setError(formErrors({ at: 'admin.error.required' }));
          return;
        }
        const at = new Date(iso);
        if (at.getTime() < Date.now()) {
          change.setError(formErrors({ at: 'admin.schedule.error.past' }));
          return;
        }
        void change.run(async () => {
          await post(`${item}/schedules`, {
            ...(action === 'publish' ? publishExtra : {}),
            action,
            at: at.toISOString(),
            version,
          });
          return t('admin.schedule.done', {
            what: t(`admin.schedule.action.${action}`),
            date: dateTime(at.toISOString()),
          });
        });
      }}
    >
      <ChoiceRadios
        label={t('admin.schedule.what')}
        value={action}
        onChange={setAction}
        options={[
          ['publish', t('admin.schedule.action.publish')],
          ['unpublish', t('admin.schedule.action.unpublish')],
        ]}
      />
      <DateTimeField
        name="at"
        label={t('admin.schedule.at')}
        description={t('admin.schedule.atHint', { version })}
        value={when}
        onChange={setWhen}
      />
      <div className={styles.actions}>
        <Button type="submit" className={styles.secondary}>
          {t('admin.schedule.submit')}
        </Button>
      </div>
    </AdminForm>
  );
}

/** "Unpublish now", behind a confirmation. */
function UnpublishNow({ item, version, run }: { item: string; version: number; run: Run }) {
  const { t } = useT();
  return (
    <DialogTrigger>
      <Button className={styles.danger}>{t('admin.schedule.unpublishNow')}</Button>
      <ModalDialog>
        {(close) => (
          <UnpublishConfirm
            heading={t('admin.schedule.unpublishHeading')}
            close={close}
            onConfirm={() =>
              run(async () => {
                await post(`${item}/unpublish`, { version });
                return t('admin.schedule.unpublished');
              })
            }
          />
        )}
      </ModalDialog>
    </DialogTrigger>
  );
}

function ScheduleText({ schedule }: { schedule: Schedule }) {
  const { t, dateTime } = useT();
  return (
    <>
      {t(`admin.schedule.line.${schedule.state}`, {
        what: t(`admin.schedule.action.${schedule.action}`),
        date: dateTime(schedule.at),
        version: schedule.version ?? '–',
        who: schedule.createdBy ?? '–',
      })}
      {schedule.error ? ` (${schedule.error})` : ''}
    </>
  );
}

/** The confirmation of taking an item off the site now: it cannot be undone but by publishing. */
export function UnpublishConfirm(props: {
  heading: string;
  close: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useT();
  return (
    <ConfirmForm
      {...props}
      lead={t('admin.schedule.unpublishLead')}
      confirm={t('admin.schedule.unpublishConfirm')}
      cancel={t('admin.news.cancel')}
      danger
    />
  );
}
