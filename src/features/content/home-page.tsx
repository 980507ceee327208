import { usePage } from '../../render/page-context.tsx';
import { sites } from '../../sites/registry.ts';
import type { Block } from './blocks.ts';
import { Blocks } from './components/blocks.tsx';
import { PageHero } from './components/page-hero.tsx';
import styles from './home-page.module.css';
import type { ImageDto } from './image-dto.ts';

/** What the home page shows of its page (`homePageProps` builds it); nothing when there is none. */
export interface HomePageProps {
  teaser?: string;
  blocks?: Block[];
  images?: Map<number, ImageDto>;
  /** The page's content id (`page-12`), which a form on it sends (the export form's `ContentId`). */
  contentId?: string;
}

/**
 * The home page: the site's heading, its blocks (hero carousel, card grids) and, on the corporate
 * sites, every site of the group. Without content it still shows the brand and its lead.
 */
export function HomePage(props: HomePageProps) {
  const { site, lang, t, siteHref } = usePage();
  const blocks = props.blocks ?? [];
  const hasHero = blocks[0]?.type === 'hero-carousel';
  return (
    <>
      <PageHero
        title={site.name}
        lead={props.teaser || (site.tagline[lang] ?? '')}
        hidden={hasHero}
      />
      <Blocks blocks={blocks} images={props.images ?? new Map()} contentId={props.contentId} />
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
