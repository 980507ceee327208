import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Heading, Label } from 'react-aria-components';
import type { Permission, RoleAnswer } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import { AdminForm, ErrorSummary, Field, Notice, useFieldErrors } from '../ui.tsx';

export interface Roles {
  roles: RoleAnswer[];
  permissions: Permission[];
}

export const useRoles = (enabled: boolean) =>
  useQuery({ queryKey: ['roles'], queryFn: () => get<Roles>('/api/admin/roles'), enabled });

/** The roles: each a name per language and a set of permissions. */
export function RolesScreen() {
  const { t, lang } = useT();
  const roles = useRoles(true);
  return (
    <>
      <Heading level={1}>{t('admin.roles.heading')}</Heading>
      {roles.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {roles.data?.roles.map((role) => (
        <RoleEditor
          key={role.key}
          role={role}
          all={roles.data.permissions}
          heading={role.name[lang]}
        />
      ))}
    </>
  );
}

function RoleEditor({
  role,
  all,
  heading,
}: {
  role: RoleAnswer;
  all: Permission[];
  heading: string;
}) {
  const { t } = useT();
  const client = useQueryClient();
  const sensitive = useSensitive();
  const [permissions, setPermissions] = useState<string[]>(role.permissions);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const errors = useFieldErrors(error);
  return (
    <section aria-labelledby={`role-${role.key}`} className={styles.panel}>
      <Heading level={2} id={`role-${role.key}`}>
        {heading}
      </Heading>
      <p className={styles.muted}>
        {role.key} · {t('admin.roles.holders')}: {role.grantCount}
      </p>
      {saved ? <Notice>{t('admin.roles.saved')}</Notice> : null}
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        aria-label={t('admin.roles.edit', { name: heading })}
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          setError(null);
          setSaved(false);
          sensitive(() =>
            put(`/api/admin/roles/${role.key}`, {
              name: {
                fi: String(data.get('fi') ?? ''),
                sv: String(data.get('sv') ?? ''),
                en: String(data.get('en') ?? ''),
              },
              permissions,
            }),
          )
            .then(async () => {
              setSaved(true);
              await client.invalidateQueries({ queryKey: ['roles'] });
            })
            .catch(setError);
        }}
      >
        <div className={styles.row3}>
          <Field name="fi" label={t('admin.roles.nameFi')} defaultValue={role.name.fi} isRequired />
          <Field name="sv" label={t('admin.roles.nameSv')} defaultValue={role.name.sv} isRequired />
          <Field name="en" label={t('admin.roles.nameEn')} defaultValue={role.name.en} isRequired />
        </div>
        <CheckboxGroup
          value={permissions}
          onChange={setPermissions}
          className={styles.checkboxGroup}
        >
          <Label className={styles.label}>{t('admin.roles.permissions')}</Label>
          <div className={styles.checkboxes}>
            {all.map((p) => (
              <Checkbox key={p} value={p} className={styles.checkbox}>
                <span className={styles.box} aria-hidden="true" />
                {t(`admin.permission.${p}`)}
              </Checkbox>
            ))}
          </div>
        </CheckboxGroup>
        <Button type="submit" className={styles.primary}>
          {t('admin.roles.save')}
        </Button>
      </AdminForm>
    </section>
  );
}
