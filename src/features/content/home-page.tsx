import { usePage } from '../../render/page-context.tsx';
import { sites } from '../../sites/registry.ts';
import styles from './home-page.module.css';

/** The home page: the brand's lead and, on the corporate sites, every site of the group. */
export function HomePage() {
  const { site, lang, t, siteHref } = usePage();
  return (
    <>
      <section className={styles.hero}>
        <div className="container">
          <h1 className={styles.title}>{site.name}</h1>
          <p className={styles.lead}>{site.tagline[lang]}</p>
        </div>
      </section>
      {site.corporate ? (
        <section className={`container ${styles.sites}`} aria-labelledby="our-sites">
          <h2 id="our-sites">{t('home.ourSites')}</h2>
          <p>{t('home.ourSitesLead')}</p>
          <ul className={styles.grid}>
            {sites.map((other) => {
              const [otherLang] = other.languages;
              const tagline =
                other.tagline[lang as keyof typeof other.tagline] ??
                other.tagline[otherLang as keyof typeof other.tagline];
              return (
                <li key={other.id} className={styles.card}>
                  <a href={siteHref(other.id)} data-site-link={other.id}>
                    {other.name}
                  </a>
                  <p
                    lang={other.tagline[lang as keyof typeof other.tagline] ? undefined : otherLang}
                  >
                    {tagline}
                  </p>
                  <p className={styles.meta}>
                    {t('home.siteLanguages', {
                      languages: other.languages.map((l) => t(`language.name.${l}`)).join(', '),
                    })}
                  </p>
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
    </>
  );
}
