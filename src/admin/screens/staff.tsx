import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { StaffRow } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import {
  AdminForm,
  CreateDialog,
  ErrorSummary,
  Field,
  type GridColumn,
  GridTable,
  Submit,
  useFieldErrors,
} from '../ui.tsx';
import { GrantsEditor, useGrantsState } from './grants-editor.tsx';
import { LangSelect } from './profile.tsx';
import { useRoles } from './roles.tsx';

export const useStaff = () =>
  useQuery({ queryKey: ['staff'], queryFn: () => get<{ staff: StaffRow[] }>('/api/admin/staff') });

export function StatusText({ row }: { row: StaffRow }) {
  const { t } = useT();
  if (row.disabled) return t('admin.staff.disabled');
  return row.enrolled ? t('admin.staff.enrolled') : t('admin.staff.pending');
}

/** Staff accounts: the list, and adding a person with their grants. */
export function StaffScreen() {
  const { t, lang } = useT();
  const staff = useStaff();
  const roles = useRoles(true);
  const roleName = (key: string) => roles.data?.roles.find((r) => r.key === key)?.name[lang] ?? key;
  const [link, setLink] = useState<{ enrolmentUrl: string; expiresAt: string } | null>(null);
  const columns: GridColumn<StaffRow>[] = [
    [
      t('admin.staff.name'),
      (row) => (
        <Link to={`/staff/${row.id}`} aria-label={t('admin.staff.open', { name: row.name })}>
          {row.name}
        </Link>
      ),
    ],
    [t('admin.staff.email'), (row) => row.email],
    [
      t('admin.staff.grants'),
      (row) => [...new Set(row.grants.map((g) => roleName(g.role)))].join(', '),
    ],
    [t('admin.staff.status'), (row) => <StatusText row={row} />],
  ];
  return (
    <>
      <Heading level={1}>{t('admin.staff.heading')}</Heading>
      <CreateDialog label={t('admin.staff.add')} onDone={setLink}>
        {(done, cancel) => <AddStaff onDone={done} onCancel={cancel} />}
      </CreateDialog>
      {link ? <EnrolmentLink link={link} /> : null}
      {staff.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      <GridTable
        label={t('admin.staff.heading')}
        columns={columns}
        items={staff.data?.staff ?? []}
      />
    </>
  );
}

export function EnrolmentLink({
  link,
  made = false,
}: {
  link: { enrolmentUrl: string; expiresAt: string };
  /** A new link for someone there was (not a new person). */
  made?: boolean;
}) {
  const { t, dateTime } = useT();
  return (
    <div role="status" className={styles.notice}>
      <p>{t(made ? 'admin.staff.linkMade' : 'admin.staff.created')}</p>
      <p>
        <code className={styles.secret} data-testid="enrolment-link">
          {link.enrolmentUrl}
        </code>
      </p>
      <p>
        {t('admin.staff.linkExpires', {
          date: dateTime(link.expiresAt),
        })}
      </p>
    </div>
  );
}

function AddStaff({
  onDone,
  onCancel,
}: {
  onDone: (made: { enrolmentUrl: string; expiresAt: string }) => void;
  onCancel: () => void;
}) {
  const { t } = useT();
  const client = useQueryClient();
  const sensitive = useSensitive();
  const [grants, setGrants] = useGrantsState([{ role: 'editor', sites: null, langs: null }]);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  return (
    <>
      <Heading slot="title">{t('admin.staff.add')}</Heading>
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          setPending(true);
          setError(null);
          sensitive(() =>
            post<{ enrolmentUrl: string; expiresAt: string }>('/api/admin/staff', {
              email: String(data.get('email') ?? ''),
              name: String(data.get('name') ?? ''),
              lang: String(data.get('lang') ?? 'fi'),
              grants,
            }),
          )
            .then(async (made) => {
              await client.invalidateQueries({ queryKey: ['staff'] });
              onDone(made);
            })
            .catch(setError)
            .finally(() => setPending(false));
        }}
      >
        <Field name="name" label={t('admin.staff.name')} isRequired autoFocus />
        <Field name="email" type="email" label={t('admin.staff.email')} isRequired />
        <LangSelect name="lang" label={t('admin.staff.lang')} defaultValue="fi" />
        <GrantsEditor value={grants} onChange={setGrants} />
        <div className={styles.actions}>
          <Submit>{t('admin.staff.create')}</Submit>
          <Button className={styles.secondary} onPress={onCancel}>
            {t('admin.staff.cancel')}
          </Button>
        </div>
      </AdminForm>
    </>
  );
}
