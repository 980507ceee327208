import { Island } from '../../render/island.tsx';
import { usePage } from '../../render/page-context.tsx';
import { siteLogo } from '../../sites/registry.ts';
import { homePath } from '../../sites/resolve.ts';
import { languageLinks } from './language-links.ts';
import { MenuToggle, type MenuToggleProps } from './menu-toggle.tsx';
import styles from './site-header.module.css';
import { SiteLogo } from './site-logo.tsx';

export const CORPORATE_SITE_ID = 'konsernifi';

export function SiteHeader() {
  const { site, lang, t, siteHref } = usePage();
  const links: MenuToggleProps['links'] = [
    { href: homePath(site, lang), label: t('menu.home') },
    ...languageLinks(site, lang).map((l) => ({ href: l.href, label: t(l.labelKey), lang: l.lang })),
  ];
  if (!site.corporate) {
    links.push({ href: siteHref(CORPORATE_SITE_ID), label: t('layout.groupSite') });
  }
  return (
    <>
      <a className={styles.skip} href="#main">
        {t('layout.skipToContent')}
      </a>
      <header className={styles.header}>
        <div className={`container ${styles.bar}`}>
          <a
            className={styles.home}
            href={homePath(site, lang)}
            aria-label={t('layout.homeLink', { name: site.name })}
          >
            <SiteLogo className={styles.logo} logo={siteLogo(site, lang)} name={site.name} />
          </a>
          <Island name="menu-toggle" component={MenuToggle} props={{ links }} lang={lang} />
        </div>
      </header>
    </>
  );
}
