import { useEffect, useId, useRef } from 'react';
import { useT } from '../../../i18n/react.tsx';
import styles from './forms.module.css';

/** 'Huomio': shown once when the health-data consent box is left unticked on submit. */
export function ConsentDialog(props: { open: boolean; onClose: () => void }) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId().replace(/[^\w-]/g, '');
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onClose={props.onClose}
    >
      <h2 id={`${id}-title`}>{t('form.consent.title')}</h2>
      <p id={`${id}-text`}>{t('form.consent.text')}</p>
      <button type="button" className={styles.button} onClick={() => ref.current?.close()}>
        {t('form.consent.back')}
      </button>
    </dialog>
  );
}
