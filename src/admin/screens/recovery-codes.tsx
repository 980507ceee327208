import { Heading } from 'react-aria-components';
import styles from '../admin.module.css';
import { useT } from '../i18n.tsx';

/** Ten recovery codes, shown once. */
export function RecoveryCodes({ codes, level = 2 }: { codes: string[]; level?: 1 | 2 }) {
  const { t } = useT();
  return (
    <section aria-labelledby="recovery-heading">
      <Heading level={level} id="recovery-heading">
        {t('admin.recovery.heading')}
      </Heading>
      <p>{t('admin.recovery.lead')}</p>
      <ol className={styles.codes} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
