import { useState } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { RECIPE_BANNER_CLOSE_PATH, RECIPE_BANNER_COOKIE, RECIPE_BANNER_DAYS } from './config.ts';
import styles from './recipe-banner.module.css';

export interface RecipeBannerProps {
  href: string;
  /** The configured text; the default text when not given. */
  text?: string;
  /** The page to come back to after closing without script. */
  returnPath: string;
}

/**
 * The recipe pages' mobile bottom banner (island `recipe-banner`, hydrated when idle). Its close
 * button is a form: without script the post sets the cookie and comes back to the page, which is
 * then rendered without the banner; with script the cookie is set here and the banner goes at once,
 * focus moving to the page's main content so it is not lost.
 */
export function RecipeBanner(props: RecipeBannerProps) {
  const t = useT();
  const [closed, setClosed] = useState(false);
  if (closed) return null;
  return (
    <aside className={styles.banner} aria-label={t('recipeBanner.label')} data-recipe-banner="">
      <a className={styles.link} href={props.href}>
        {props.text ?? t('recipeBanner.default')}
      </a>
      <form
        method="post"
        action={RECIPE_BANNER_CLOSE_PATH}
        className={styles.form}
        onSubmit={(event) => {
          event.preventDefault();
          const secure = window.location.protocol === 'https:' ? '; Secure' : '';
          document.cookie = `${RECIPE_BANNER_COOKIE}=closed; Max-Age=${RECIPE_BANNER_DAYS * 86_400}; Path=/; SameSite=Lax${secure}`;
          setClosed(true);
          document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true });
        }}
      >
        <input type="hidden" name="return" value={props.returnPath} />
        <button type="submit" className={styles.close} aria-label={t('recipeBanner.close')}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" fill="none" />
          </svg>
        </button>
      </form>
    </aside>
  );
}
