import {
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
} from '@simplewebauthn/browser';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Heading } from 'react-aria-components';
import { Link } from 'react-router';
import type { Me } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get, post } from '../api.ts';
import { useT } from '../i18n.tsx';
import { signOutNotice, useSetMe } from '../session.tsx';
import { AdminForm, ErrorSummary, Field, Notice, Submit, useFieldErrors } from '../ui.tsx';

type Step = 'password' | 'totp' | 'recovery';

/** Signing in: the password, then a code from the app or a recovery code. */
export function LoginScreen() {
  // Back from single sign-on: at the code step, or told why not (the fragment says which).
  const [arrived] = useState(() => {
    const hash = window.location.hash;
    if (hash) history.replaceState(null, '', window.location.pathname);
    return hash;
  });
  const [step, setStep] = useState<Step>(arrived === '#second-factor' ? 'totp' : 'password');
  const [passkey, setPasskey] = useState(arrived === '#second-factor');
  const methods = useQuery({
    queryKey: ['sign-in-methods'],
    queryFn: () => get<{ sso: boolean }>('/api/admin/auth/methods'),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const submitting = useSubmitting();
  const [signedOut] = useState(() => {
    const pending = signOutNotice.pending;
    signOutNotice.pending = false;
    return pending;
  });

  if (step === 'password') {
    return (
      <PasswordStep
        submitting={submitting}
        signedOut={signedOut}
        ssoRefused={arrived === '#sso-refused'}
        sso={methods.data?.sso ?? false}
        onPassword={(methods) => {
          setPasskey(methods.includes('passkey'));
          setStep('totp');
        }}
      />
    );
  }
  return <CodeStep submitting={submitting} step={step} passkey={passkey} onStep={setStep} />;
}

/** A step's request: its error (null while none) and whether one is under way. */
function useSubmitting() {
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  const submit = async (run: () => Promise<void>) => {
    setPending(true);
    setError(null);
    try {
      await run();
    } catch (e) {
      setError(e);
    } finally {
      setPending(false);
    }
  };
  return { error, setError, pending, errors, submit };
}

type Submitting = ReturnType<typeof useSubmitting>;

/** The first step: the address and the password, or single sign-on where it is configured. */
function PasswordStep(props: {
  submitting: Submitting;
  signedOut: boolean;
  ssoRefused: boolean;
  sso: boolean;
  onPassword: (methods: string[]) => void;
}) {
  const { t } = useT();
  const { error, errors, pending, submit } = props.submitting;
  return (
    <section aria-labelledby="login-heading" className={styles.card}>
      <Heading level={1} id="login-heading">
        {t('admin.login.heading')}
      </Heading>
      {props.signedOut ? <Notice>{t('admin.login.signedOut')}</Notice> : null}
      {props.ssoRefused && !error ? (
        <p role="alert" className={styles.errorSummary}>
          {t('admin.login.ssoRefused')}
        </p>
      ) : null}
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          void submit(async () => {
            const answer = await post<{ methods: string[] }>('/api/admin/auth/login', {
              email: String(data.get('email') ?? ''),
              password: String(data.get('password') ?? ''),
            });
            props.onPassword(answer.methods);
          });
        }}
      >
        <Field
          name="email"
          type="email"
          label={t('admin.login.email')}
          autoComplete="username"
          isRequired
        />
        <Field
          name="password"
          type="password"
          label={t('admin.login.password')}
          autoComplete="current-password"
          isRequired
        />
        <Submit>{t('admin.login.submit')}</Submit>
      </AdminForm>
      <p>
        <Link to="/reset">{t('admin.login.forgot')}</Link>
      </p>
      {props.sso ? (
        <p>
          {t('admin.login.or')}{' '}
          <a className={styles.secondary} href="/api/admin/auth/oidc">
            {t('admin.login.sso')}
          </a>
        </p>
      ) : null}
    </section>
  );
}

/** The second step: a code from the app, a recovery code, or a passkey where there is one. */
function CodeStep(props: {
  submitting: Submitting;
  step: Exclude<Step, 'password'>;
  passkey: boolean;
  onStep: (step: Step) => void;
}) {
  const { t } = useT();
  const setMe = useSetMe();
  const { error, setError, errors, pending, submit } = props.submitting;
  const recovery = props.step === 'recovery';
  return (
    <section aria-labelledby="code-heading" className={styles.card}>
      <Heading level={1} id="code-heading">
        {t('admin.login.codeHeading')}
      </Heading>
      <p>{t(recovery ? 'admin.login.recoveryLead' : 'admin.login.codeLead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        key={props.step}
        onSubmit={(event) => {
          event.preventDefault();
          if (pending) return;
          const code = String(new FormData(event.currentTarget).get('code') ?? '');
          void submit(async () => {
            setMe(await post<Me>(`/api/admin/auth/${recovery ? 'recovery' : 'totp'}`, { code }));
          });
        }}
      >
        <Field
          name="code"
          label={t(recovery ? 'admin.login.recoveryCode' : 'admin.login.code')}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          isRequired
        />
        <Submit>{t('admin.login.verify')}</Submit>
      </AdminForm>
      <div className={styles.actions}>
        {props.passkey ? (
          <Button
            className={styles.secondary}
            onPress={() =>
              void submit(async () => {
                const optionsJSON = await get<PublicKeyCredentialRequestOptionsJSON>(
                  '/api/admin/auth/passkey/options',
                );
                const response = await startAuthentication({ optionsJSON });
                setMe(await post<Me>('/api/admin/auth/passkey', { response }));
              })
            }
          >
            {t('admin.login.usePasskey')}
          </Button>
        ) : null}
        <Button
          className={styles.link}
          onPress={() => {
            setError(null);
            props.onStep(recovery ? 'totp' : 'recovery');
          }}
        >
          {t(recovery ? 'admin.login.useTotp' : 'admin.login.useRecovery')}
        </Button>
        <Button
          className={styles.link}
          onPress={() => {
            setError(null);
            props.onStep('password');
          }}
        >
          {t('admin.login.startOver')}
        </Button>
      </div>
    </section>
  );
}
