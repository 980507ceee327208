import {
  type PublicKeyCredentialCreationOptionsJSON,
  startRegistration,
} from '@simplewebauthn/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import type { Me } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { del, get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { ReauthCancelled, useSensitive } from '../reauth.tsx';
import { ME_KEY } from '../session.tsx';
import {
  AdminForm,
  ChoiceSelect,
  ErrorSummary,
  Field,
  Notice,
  Submit,
  useFieldErrors,
} from '../ui.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

function useAction() {
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setPending(true);
    setError(null);
    setDone(false);
    try {
      await action();
      setDone(true);
    } catch (e) {
      if (!(e instanceof ReauthCancelled)) setError(e);
    } finally {
      setPending(false);
    }
  };
  return { error, pending, done, run };
}

export function LangSelect({
  name,
  label,
  defaultValue,
}: {
  name: string;
  label: string;
  defaultValue: string;
}) {
  const { t } = useT();
  const options = (['fi', 'sv', 'en'] as const).map((l) => [l, t(`admin.lang.${l}`)] as const);
  return <ChoiceSelect name={name} label={label} options={options} defaultValue={defaultValue} />;
}

interface PasskeyRow {
  id: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The staff member's passkeys, each with a button that removes it, and the button that adds one;
 * both after re-authentication.
 */
function Passkeys() {
  const { t, dateTime } = useT();
  const sensitive = useSensitive();
  const add = useAction();
  const remove = useAction();
  const [last, setLast] = useState<'added' | 'removed' | null>(null);
  // A removed key's button is gone: the focus goes to the button that adds one.
  const addButton = useRef<HTMLButtonElement>(null);
  const list = useQuery({
    queryKey: ['passkeys'],
    queryFn: () => get<{ passkeys: PasskeyRow[] }>('/api/admin/profile/passkeys'),
  });
  const passkeys = list.data?.passkeys ?? [];
  return (
    <section aria-labelledby="passkeys" className={styles.panel}>
      <Heading level={2} id="passkeys">
        {t('admin.passkeys.heading')}
      </Heading>
      <p>{t('admin.passkeys.lead')}</p>
      <p data-testid="passkey-count">{t('admin.passkeys.count', { count: passkeys.length })}</p>
      {passkeys.length > 0 ? (
        <ul aria-label={t('admin.passkeys.list')} className={styles.plainList}>
          {passkeys.map((p) => {
            const created = dateTime(p.createdAt);
            return (
              <li key={p.id} className={styles.listRow}>
                <span>
                  {p.lastUsedAt
                    ? t('admin.passkeys.item', { created, used: dateTime(p.lastUsedAt) })
                    : t('admin.passkeys.itemUnused', { created })}
                </span>
                <Button
                  className={styles.secondary}
                  aria-label={t('admin.passkeys.removeLabel', { created })}
                  onPress={() =>
                    void remove.run(async () => {
                      setLast('removed');
                      await sensitive(() =>
                        del(`/api/admin/profile/passkeys/${encodeURIComponent(p.id)}`),
                      );
                      await list.refetch();
                      addButton.current?.focus();
                    })
                  }
                >
                  {t('admin.passkeys.remove')}
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {last === 'added' && add.done ? <Notice>{t('admin.passkeys.added')}</Notice> : null}
      {last === 'removed' && remove.done ? <Notice>{t('admin.passkeys.removed')}</Notice> : null}
      <ErrorSummary error={last === 'removed' ? remove.error : add.error} />
      <Button
        ref={addButton}
        className={styles.secondary}
        onPress={() =>
          void add.run(async () => {
            setLast('added');
            const optionsJSON = await sensitive(() =>
              get<PublicKeyCredentialCreationOptionsJSON>('/api/admin/profile/passkeys/options'),
            );
            const response = await startRegistration({ optionsJSON });
            await post('/api/admin/profile/passkeys', { response });
            await list.refetch();
          })
        }
      >
        {t('admin.passkeys.add')}
      </Button>
    </section>
  );
}

/** The staff member's own details, password and second factor. */
export function ProfileScreen({ me }: { me: Me }) {
  const { t } = useT();
  const client = useQueryClient();
  const sensitive = useSensitive();
  const details = useAction();
  const password = useAction();
  const recovery = useAction();
  const [codes, setCodes] = useState<string[] | null>(null);
  const detailErrors = useFieldErrors(details.error);
  const passwordErrors = useFieldErrors(password.error);
  return (
    <>
      <Heading level={1}>{t('admin.profile.heading')}</Heading>
      <section aria-labelledby="details" className={styles.panel}>
        <Heading level={2} id="details">
          {t('admin.profile.details')}
        </Heading>
        {details.done ? <Notice>{t('admin.profile.saved')}</Notice> : null}
        <ErrorSummary error={details.error} />
        <AdminForm
          errors={detailErrors}
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            void details.run(async () => {
              await post('/api/admin/profile', {
                name: String(data.get('name') ?? ''),
                lang: String(data.get('lang') ?? 'fi'),
              });
              await client.invalidateQueries({ queryKey: ME_KEY });
            });
          }}
        >
          <Field name="name" label={t('admin.profile.name')} defaultValue={me.name} isRequired />
          <LangSelect name="lang" label={t('admin.profile.lang')} defaultValue={me.lang} />
          <p className={styles.muted}>{me.email}</p>
          <Submit>{t('admin.profile.save')}</Submit>
        </AdminForm>
      </section>
      <section aria-labelledby="password" className={styles.panel}>
        <Heading level={2} id="password">
          {t('admin.profile.password')}
        </Heading>
        {password.done ? <Notice>{t('admin.profile.passwordChanged')}</Notice> : null}
        <ErrorSummary error={password.error} />
        <AdminForm
          errors={passwordErrors}
          onSubmit={(event) => {
            event.preventDefault();
            const form = event.currentTarget;
            const data = new FormData(form);
            void password.run(async () => {
              await post('/api/admin/profile/password', {
                currentPassword: String(data.get('currentPassword') ?? ''),
                newPassword: String(data.get('newPassword') ?? ''),
              });
              form.reset();
            });
          }}
        >
          <input type="hidden" name="username" autoComplete="username" value={me.email} />
          <Field
            name="currentPassword"
            type="password"
            label={t('admin.profile.currentPassword')}
            autoComplete="current-password"
            isRequired
          />
          <Field
            name="newPassword"
            type="password"
            label={t('admin.profile.newPassword')}
            description={t('admin.enrol.passwordHint')}
            autoComplete="new-password"
            isRequired
          />
          <Submit>{t('admin.profile.changePassword')}</Submit>
        </AdminForm>
      </section>
      <section aria-labelledby="two-factor" className={styles.panel}>
        <Heading level={2} id="two-factor">
          {t('admin.profile.twoFactor')}
        </Heading>
        <p>{t('admin.profile.twoFactorOn', { count: me.recoveryCodesLeft })}</p>
        <ErrorSummary error={recovery.error} />
        {codes ? <RecoveryCodes codes={codes} /> : null}
        <Button
          className={styles.secondary}
          onPress={() =>
            void recovery.run(async () => {
              const answer = await sensitive(() =>
                post<{ recoveryCodes: string[] }>('/api/admin/profile/recovery-codes'),
              );
              setCodes(answer.recoveryCodes);
              await client.invalidateQueries({ queryKey: ME_KEY });
            })
          }
        >
          {t('admin.profile.newCodes')}
        </Button>
      </section>
      <Passkeys />
    </>
  );
}
