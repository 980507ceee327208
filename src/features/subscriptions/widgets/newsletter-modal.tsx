import { lazy, Suspense } from 'react';
import { useT } from '../../../i18n/react.tsx';
import { styles, useHashModal } from './kit.tsx';

/** The stored flag of spec §4: set when the modal is closed. */
export const NEWSLETTER_DISMISSED = 'kattaus:newsletter-dismissed';

const loadDialog = () => import('./newsletter-dialog.tsx');
const NewsletterDialog = lazy(() => loadDialog().then((m) => ({ default: m.NewsletterDialog })));

/**
 * The newsletter modal (spec §2, §4): opens when the URL hash is `hash` (see `useHashOpen`) or by
 * its button, shows the form and then the thank-you state. Closing it sets the dismissal flag, so
 * the hash no longer opens it; the button always does. The dialog's code (React Aria, the form
 * and its schema) loads when the modal first opens; pointing at or focusing the button starts
 * fetching it, so it is usually there by the click.
 */
export function NewsletterModal(props: { hash: string; event: boolean }) {
  const t = useT();
  const modal = useHashModal(props.hash, NEWSLETTER_DISMISSED);
  const preload = () => void loadDialog();
  return (
    <div className={`container ${styles.band}`}>
      <p>{t('subscribe.newsletter.intro')}</p>
      <button {...modal.opener} onPointerEnter={preload} onFocus={preload}>
        {t('subscribe.newsletter.open')}
      </button>
      {modal.open ? (
        <Suspense fallback={null}>
          <NewsletterDialog
            event={props.event}
            done={modal.done}
            onDone={modal.finished}
            onClose={modal.close}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
