import { usePage } from '../render/page-context.tsx';
import styles from './preview-mark.module.css';

/** The band across the top of a preview page (decision 162): nobody takes it for the live page. */
export function PreviewMark({ version }: { version: number }) {
  const { t } = usePage();
  return (
    <aside className={styles.mark} aria-label={t('preview.label')} data-preview-mark="">
      <p>{t('preview.mark', { version })}</p>
    </aside>
  );
}
