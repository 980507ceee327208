import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link, useParams } from 'react-router';
import type { StaffRow } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, post, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import { ErrorSummary, Notice } from '../ui.tsx';
import { GrantsEditor, useGrantsState } from './grants-editor.tsx';
import { EnrolmentLink, StatusText } from './staff.tsx';

/** One staff member: their grants, a new enrolment link, disabling. */
export function StaffDetailScreen() {
  const { t } = useT();
  const { id = '' } = useParams();
  const client = useQueryClient();
  const sensitive = useSensitive();
  const row = useQuery({
    queryKey: ['staff', id],
    queryFn: () => get<StaffRow>(`/api/admin/staff/${id}`),
  });
  const [grants, setGrants] = useGrantsState([]);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [link, setLink] = useState<{ enrolmentUrl: string; expiresAt: string } | null>(null);
  useEffect(() => {
    if (row.data) setGrants(row.data.grants);
  }, [row.data, setGrants]);
  if (!row.data) return <p>{row.isError ? t('admin.error.load') : t('admin.loading')}</p>;
  const person = row.data;
  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    setSaved(false);
    try {
      await sensitive(action);
      await client.invalidateQueries({ queryKey: ['staff'] });
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  };
  return (
    <>
      <p>
        <Link to="/staff">{t('admin.staff.back')}</Link>
      </p>
      <Heading level={1}>{person.name}</Heading>
      <p>
        {person.email} · <StatusText row={person} />
      </p>
      <ErrorSummary error={error} />
      {saved ? <Notice>{t('admin.staff.grantsSaved')}</Notice> : null}
      {link ? <EnrolmentLink link={link} made /> : null}
      <section aria-labelledby="grants" className={styles.panel}>
        <Heading level={2} id="grants">
          {t('admin.staff.grants')}
        </Heading>
        <GrantsEditor value={grants} onChange={setGrants} />
        <div className={styles.actions}>
          <Button
            className={styles.primary}
            onPress={async () => {
              if (await act(() => put(`/api/admin/staff/${id}/grants`, { grants }))) setSaved(true);
            }}
          >
            {t('admin.staff.saveGrants')}
          </Button>
        </div>
      </section>
      <div className={styles.actions}>
        <Button
          className={styles.secondary}
          onPress={() =>
            void act(async () => setLink(await post(`/api/admin/staff/${id}/enrolment-link`)))
          }
        >
          {t('admin.staff.newLink')}
        </Button>
        <Button
          className={styles.secondary}
          onPress={() =>
            void act(() => post(`/api/admin/staff/${id}/${person.disabled ? 'enable' : 'disable'}`))
          }
        >
          {t(person.disabled ? 'admin.staff.enable' : 'admin.staff.disable')}
        </Button>
      </div>
    </>
  );
}
