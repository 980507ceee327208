import { usePage } from '../../render/page-context.tsx';
import styles from './site-footer.module.css';

export function SiteFooter(props: { year: number }) {
  const { site, t } = usePage();
  return (
    <footer className={styles.footer}>
      <div className="container">
        <p>{t('layout.copyright', { year: props.year, name: site.name })}</p>
      </div>
    </footer>
  );
}
