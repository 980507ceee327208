import { usePage } from '../../render/page-context.tsx';
import { homePath } from '../../sites/resolve.ts';
import styles from './home-page.module.css';

const keys = { 400: 'badRequest', 404: 'notFound', 500: 'server' } as const;

export function ErrorPage(props: { status: 400 | 404 | 500 }) {
  const { site, lang, t } = usePage();
  const key = keys[props.status];
  return (
    <section className={styles.hero}>
      <div className="container">
        <h1 className={styles.title}>{t(`error.${key}.title`)}</h1>
        <p className={styles.lead}>{t(`error.${key}.body`)}</p>
        <p>
          <a href={homePath(site, lang)}>{t('error.backHome')}</a>
        </p>
      </div>
    </section>
  );
}
