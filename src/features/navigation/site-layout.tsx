import type { ReactNode } from 'react';
import { MAIN_ID } from '../../render/document.tsx';
import { VISITOR_HOLE, VISITOR_SCRIPT_ID, visitorJson } from '../../render/holes.ts';
import { Island } from '../../render/island.server.tsx';
import { usePage } from '../../render/page-context.tsx';
import { SubscriptionExtras } from '../subscriptions/index.server.ts';
import { headerProps, type LayoutData } from './header-props.ts';
import { SiteFooter } from './site-footer.tsx';
import styles from './site-layout.module.css';

/**
 * Header, main content and footer: the frame of every page. `layout` comes from
 * `loadLayoutData(request)`, so the header is rendered from the same navigation the API answers.
 */
export function SiteLayout(props: { layout: LayoutData; children: ReactNode }) {
  const { site, lang, t } = usePage();
  return (
    <>
      <a className={styles.skip} href={`#${MAIN_ID}`}>
        {t('layout.skipToContent')}
      </a>
      <script
        data-hole={VISITOR_HOLE}
        type="application/json"
        id={VISITOR_SCRIPT_ID}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON with `<` escaped (visitorJson)
        dangerouslySetInnerHTML={{ __html: visitorJson(props.layout.visitor) }}
      />
      <Island
        // A site that sells through the shop syncs its cart in the header (decision 160).
        name={props.layout.cart?.sync ? 'site-header-synced' : 'site-header'}
        props={headerProps(site, lang, props.layout)}
        visitor={props.layout.visitor}
        lang={lang}
        hydrate="idle"
      />
      <main id={MAIN_ID} tabIndex={-1}>
        {props.children}
        <SubscriptionExtras />
      </main>
      <SiteFooter year={new Date().getFullYear()} />
    </>
  );
}
