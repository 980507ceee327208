import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Checkbox, CheckboxGroup, Heading, Label } from 'react-aria-components';
import type { Permission, RoleAnswer } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, post, put } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSensitive } from '../reauth.tsx';
import {
  AdminForm,
  CreateDialog,
  ErrorSummary,
  Field,
  Notice,
  Submit,
  useFieldErrors,
} from '../ui.tsx';

export interface Roles {
  roles: RoleAnswer[];
  permissions: Permission[];
}

export const useRoles = (enabled: boolean) =>
  useQuery({ queryKey: ['roles'], queryFn: () => get<Roles>('/api/admin/roles'), enabled });

/** The roles: each a name per language and a set of permissions; a new one from a dialog. */
export function RolesScreen() {
  const { t, lang } = useT();
  const roles = useRoles(true);
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <Heading level={1}>{t('admin.roles.heading')}</Heading>
      <CreateDialog label={t('admin.roles.new')} onDone={setCreated}>
        {(done, cancel) => (
          <>
            <Heading slot="title">{t('admin.roles.new')}</Heading>
            <RoleForm all={roles.data?.permissions ?? []} onSaved={done} onCancel={cancel} />
          </>
        )}
      </CreateDialog>
      {created ? <Notice>{t('admin.roles.created', { name: created })}</Notice> : null}
      {roles.isError ? <p role="alert">{t('admin.error.load')}</p> : null}
      {roles.data?.roles.map((role) => (
        <section key={role.key} aria-labelledby={`role-${role.key}`} className={styles.panel}>
          <Heading level={2} id={`role-${role.key}`}>
            {role.name[lang]}
          </Heading>
          <p className={styles.muted}>
            {role.key} · {t('admin.roles.holders')}: {role.grantCount}
          </p>
          <RoleForm role={role} all={roles.data.permissions} />
        </section>
      ))}
    </>
  );
}

/**
 * A role's names and permissions: an existing role's (saved in place, with a notice), or a new
 * one's with its key (`onSaved` gets the new role's name in this language).
 */
function RoleForm({
  role,
  all,
  onSaved,
  onCancel,
}: {
  role?: RoleAnswer;
  all: Permission[];
  onSaved?: (name: string) => void;
  onCancel?: () => void;
}) {
  const { t, lang } = useT();
  const client = useQueryClient();
  const sensitive = useSensitive();
  const [permissions, setPermissions] = useState<string[]>(role?.permissions ?? []);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  return (
    <>
      {saved ? <Notice>{t('admin.roles.saved')}</Notice> : null}
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        aria-label={role ? t('admin.roles.edit', { name: role.name[lang] }) : t('admin.roles.new')}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          const name = {
            fi: String(data.get('fi') ?? ''),
            sv: String(data.get('sv') ?? ''),
            en: String(data.get('en') ?? ''),
          };
          setError(null);
          setSaved(false);
          setPending(true);
          sensitive(() =>
            role
              ? put(`/api/admin/roles/${role.key}`, { name, permissions })
              : post('/api/admin/roles', { key: String(data.get('key') ?? ''), name, permissions }),
          )
            .then(async () => {
              await client.invalidateQueries({ queryKey: ['roles'] });
              if (role) setSaved(true);
              onSaved?.(name[lang]);
            })
            .catch(setError)
            .finally(() => setPending(false));
        }}
      >
        {role ? null : (
          <Field
            name="key"
            label={t('admin.roles.key')}
            description={t('admin.roles.keyHelp')}
            isRequired
            autoFocus
          />
        )}
        <div className={styles.row3}>
          <Field
            name="fi"
            label={t('admin.roles.nameFi')}
            defaultValue={role?.name.fi}
            isRequired
          />
          <Field
            name="sv"
            label={t('admin.roles.nameSv')}
            defaultValue={role?.name.sv}
            isRequired
          />
          <Field
            name="en"
            label={t('admin.roles.nameEn')}
            defaultValue={role?.name.en}
            isRequired
          />
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
        <div className={styles.actions}>
          <Submit>{t(role ? 'admin.roles.save' : 'admin.roles.create')}</Submit>
          {onCancel ? (
            <Button className={styles.secondary} onPress={onCancel}>
              {t('admin.staff.cancel')}
            </Button>
          ) : null}
        </div>
      </AdminForm>
    </>
  );
}
