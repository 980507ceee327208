import { useState } from 'react';
import { Heading } from 'react-aria-components';
import { Link } from 'react-router';
import styles from '../admin.module.css';
import { post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { AdminForm, ErrorSummary, Field, Notice, Submit, useFieldErrors } from '../ui.tsx';

/** Asking for a reset link, and (`/admin/reset#<token>`) setting the new password. */
export function ResetScreen() {
  const { t } = useT();
  const token = window.location.hash.slice(1);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  const send = (run: () => Promise<unknown>) => {
    setPending(true);
    setError(null);
    run()
      .then(() => setDone(true))
      .catch(setError)
      .finally(() => setPending(false));
  };
  return (
    <section aria-labelledby="reset-heading" className={styles.card}>
      <Heading level={1} id="reset-heading">
        {t(token ? 'admin.reset.newHeading' : 'admin.reset.heading')}
      </Heading>
      {done ? (
        <>
          <Notice>{t(token ? 'admin.reset.done' : 'admin.reset.sent')}</Notice>
          <p>
            <Link to="/login">{t('admin.reset.toLogin')}</Link>
          </p>
        </>
      ) : (
        <>
          {token ? null : <p>{t('admin.reset.lead')}</p>}
          <ErrorSummary error={error} />
          <AdminForm
            errors={errors}
            onSubmit={(event) => {
              event.preventDefault();
              if (pending) return;
              const data = new FormData(event.currentTarget);
              if (token) {
                send(() =>
                  post('/api/admin/auth/password-reset/confirm', {
                    token,
                    password: String(data.get('password') ?? ''),
                  }),
                );
              } else {
                send(() =>
                  post('/api/admin/auth/password-reset', {
                    email: String(data.get('email') ?? ''),
                  }),
                );
              }
            }}
          >
            {token ? (
              <Field
                name="password"
                type="password"
                label={t('admin.enrol.password')}
                description={t('admin.enrol.passwordHint')}
                autoComplete="new-password"
                isRequired
              />
            ) : (
              <Field
                name="email"
                type="email"
                label={t('admin.login.email')}
                autoComplete="username"
                isRequired
              />
            )}
            <Submit>{t(token ? 'admin.reset.save' : 'admin.reset.send')}</Submit>
          </AdminForm>
          <p>
            <Link to="/login">{t('admin.reset.toLogin')}</Link>
          </p>
        </>
      )}
    </section>
  );
}
