import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { Button, Dialog, Heading, Modal } from 'react-aria-components';
import type { Me } from '../features/staff/index.ts';
import styles from './admin.module.css';
import { ApiError, post, ReauthCancelled } from './api.ts';
import { useT } from './i18n.tsx';
import { AdminForm, ErrorSummary, Field, Notice, Submit, useFieldErrors } from './ui.tsx';

type Run = <T>(action: () => Promise<T>) => Promise<T>;

export { ReauthCancelled };

const Context = createContext<Run>((action) => action());

/**
 * Sensitive actions (decision 130): when the server answers that the password or a code is
 * needed again, a dialog asks for it and the action is tried once more.
 */
export function ReauthProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const waiting = useRef<{ resolve: () => void; reject: (e: unknown) => void } | null>(null);
  const ask = useCallback(
    () =>
      new Promise<void>((resolve, reject) => {
        waiting.current = { resolve, reject };
        setOpen(true);
      }),
    [],
  );
  const run = useCallback<Run>(
    async (action) => {
      try {
        return await action();
      } catch (error) {
        if (!(error instanceof ApiError && error.reauth)) throw error;
        await ask();
        return action();
      }
    },
    [ask],
  );
  const close = (ok: boolean) => {
    setOpen(false);
    if (ok) waiting.current?.resolve();
    else waiting.current?.reject(new ReauthCancelled('cancelled'));
    waiting.current = null;
  };
  return (
    <Context.Provider value={run}>
      {children}
      <Modal
        isOpen={open}
        onOpenChange={(isOpen) => (isOpen ? undefined : close(false))}
        isDismissable
        className={styles.modal}
      >
        <Dialog className={styles.dialog}>
          <ReauthForm onDone={() => close(true)} onCancel={() => close(false)} />
        </Dialog>
      </Modal>
    </Context.Provider>
  );
}

function ReauthForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const { t } = useT();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const errors = useFieldErrors(error);
  return (
    <>
      <Heading slot="title">{t('admin.reauth.heading')}</Heading>
      <p>{t('admin.reauth.lead')}</p>
      <ErrorSummary error={error} />
      <AdminForm
        errors={errors}
        onSubmit={async (event) => {
          event.preventDefault();
          if (pending) return;
          const data = new FormData(event.currentTarget);
          const password = String(data.get('password') ?? '');
          const code = String(data.get('code') ?? '');
          setPending(true);
          try {
            await post<Me>('/api/admin/auth/reauth', password ? { password } : { code });
            onDone();
          } catch (e) {
            setError(e);
          } finally {
            setPending(false);
          }
        }}
      >
        <Field
          name="password"
          type="password"
          label={t('admin.reauth.password')}
          autoComplete="current-password"
          autoFocus
        />
        <Field
          name="code"
          label={t('admin.reauth.code')}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
        <div className={styles.actions}>
          <Submit>{t('admin.reauth.confirm')}</Submit>
          <Button className={styles.secondary} onPress={onCancel}>
            {t('admin.reauth.cancel')}
          </Button>
        </div>
      </AdminForm>
    </>
  );
}

export const useSensitive = () => useContext(Context);

/**
 * A button that downloads personal data after re-authentication (the exports of the inbox, the
 * marketing lists and personal-data requests); says when the file is downloaded, or why not.
 */
export function SensitiveDownload(props: {
  label: string;
  downloaded: string;
  fetchFile: () => Promise<void>;
}) {
  const sensitive = useSensitive();
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  return (
    <>
      <Button
        className={styles.secondary}
        onPress={() => {
          setError(null);
          setDone(false);
          sensitive(props.fetchFile)
            .then(() => setDone(true))
            .catch(setError);
        }}
      >
        {props.label}
      </Button>
      {done ? <Notice>{props.downloaded}</Notice> : null}
      <ErrorSummary error={error} />
    </>
  );
}
