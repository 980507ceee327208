import { useQuery } from '@tanstack/react-query';
import { Heading } from 'react-aria-components';
import type { Me } from '../../features/staff/index.ts';
import styles from '../admin.module.css';
import { get } from '../api.ts';
import { useT } from '../i18n.tsx';

export interface SiteScope {
  sites: { id: string; name: string; langs: ('fi' | 'sv' | 'en')[] }[];
}

export const useSites = () =>
  useQuery({ queryKey: ['sites'], queryFn: () => get<SiteScope>('/api/admin/sites') });

/** What waits for the staff member (the next issues fill it) and what they may do where. */
export function HomeScreen({ me }: { me: Me }) {
  const { t, lang } = useT();
  const sites = useSites();
  const siteName = (id: string) => sites.data?.sites.find((s) => s.id === id)?.name ?? id;
  return (
    <>
      <Heading level={1}>{t('admin.home.heading', { name: me.name })}</Heading>
      <section aria-labelledby="waiting" className={styles.panel}>
        <Heading level={2} id="waiting">
          {t('admin.home.waiting')}
        </Heading>
        <p>{t('admin.home.nothing')}</p>
        {me.recoveryCodesLeft < 4 ? (
          <p role="status">{t('admin.home.recoveryLow', { count: me.recoveryCodesLeft })}</p>
        ) : null}
      </section>
      <section aria-labelledby="access" className={styles.panel}>
        <Heading level={2} id="access">
          {t('admin.home.access')}
        </Heading>
        <ul className={styles.grants} data-testid="my-grants">
          {me.grants.map((g) => (
            <li key={`${g.role}-${g.sites?.join()}-${g.langs?.join()}`}>
              <strong>{g.roleName[lang]}</strong>:{' '}
              {g.sites ? g.sites.map(siteName).join(', ') : t('admin.home.allSites')} ·{' '}
              {g.langs
                ? g.langs.map((l) => t(`admin.lang.${l}` as const)).join(', ')
                : t('admin.home.allLangs')}
              <ul className={styles.permissionList}>
                {g.permissions.map((p) => (
                  <li key={p}>{t(`admin.permission.${p}` as const)}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
