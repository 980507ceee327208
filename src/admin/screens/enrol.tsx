import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { useNavigate } from 'react-router';
import type { Me } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { useSetMe } from '../session.tsx';
import { AdminForm, ErrorSummary, Field, Submit, useFieldErrors } from '../ui.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

interface Enrolment {
  email: string;
  name: string;
  lang: 'fi' | 'sv' | 'en';
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

/**
 * The enrolment link (`/admin/enrol#<token>`): a password, an authenticator app from the QR
 * code, its first code; then the ten recovery codes, shown once.
 */
export function EnrolScreen() {
  const { t, choose } = useT();
  const navigate = useNavigate();
  const setMe = useSetMe();
  const token = window.location.hash.slice(1);
  const enrolment = useQuery({
    queryKey: ['enrolment', token],
    queryFn: () => post<Enrolment>('/api/admin/enrolment', { token }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const errors = useFieldErrors(error);
  // The page speaks the new staff member's language.
  const lang = enrolment.data?.lang;
  useEffect(() => {
    if (lang) choose(lang);
  }, [lang, choose]);

  if (codes) {
    return (
      <section className={styles.card}>
        <RecoveryCodes codes={codes} level={1} />
        <Button
          className={styles.primary}
          onPress={async () => {
            // Signed in by the enrolment: home, in one render (the used link is not asked again).
            const me = await get<Me>('/api/admin/auth/session');
            navigate('/', { replace: true });
            setMe(me);
          }}
        >
          {t('admin.recovery.continue')}
        </Button>
      </section>
    );
  }
  if (enrolment.isPending) return <p>{t('admin.loading')}</p>;
  if (!enrolment.data) {
    return (
      <section className={styles.card}>
        <Heading level={1}>{t('admin.title')}</Heading>
        <p role="alert">{t('admin.enrol.invalid')}</p>
      </section>
    );
  }
  const e = enrolment.data;
  return (
    <section aria-labelledby="enrol-heading" className={styles.card}>
      <Heading level={1} id="enrol-heading">
        {t('admin.enrol.heading', { name: e.name })}
      </Heading>
      <p>{t('admin.enrol.lead', { email: e.email })}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          setPending(true);
          setError(null);
          post<{ recoveryCodes: string[] }>('/api/admin/enrolment/complete', {
            token,
            password: String(data.get('password') ?? ''),
            code: String(data.get('code') ?? ''),
          })
            .then((done) => setCodes(done.recoveryCodes))
            .catch(setError)
            .finally(() => setPending(false));
        }}
      >
        <input type="hidden" name="username" autoComplete="username" value={e.email} />
        <Field
          name="password"
          type="password"
          label={t('admin.enrol.password')}
          description={t('admin.enrol.passwordHint')}
          autoComplete="new-password"
          isRequired
        />
        <Heading level={2}>{t('admin.enrol.totpHeading')}</Heading>
        <p>{t('admin.enrol.totpLead')}</p>
        <img
          className={styles.qr}
          src={`data:image/svg+xml;utf8,${encodeURIComponent(e.qrSvg)}`}
          alt={t('admin.enrol.qrAlt')}
          width={200}
          height={200}
        />
        <p>
          {t('admin.enrol.secret')}{' '}
          <code data-testid="totp-secret" className={styles.secret}>
            {e.secret}
          </code>
        </p>
        <Field
          name="code"
          label={t('admin.enrol.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          isRequired
        />
        <Submit>{t('admin.enrol.submit')}</Submit>
      </AdminForm>
    </section>
  );
}
